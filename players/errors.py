"""The players app's refusals: one class per error, its code and status on the class."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from core.errors import Conflict, DomainError, FieldRefused, InvalidInput, NotFound


class UnknownRuleset(NotFound):
    code = "unknown_ruleset"
    default_detail = _("No such ruleset.")


class UserNotFound(NotFound):
    """No account by that username, or one that was deleted (its profile and name are gone with
    its data): profiles, friends, blocks and invitations alike."""

    code = "user_not_found"
    default_detail = _("No player has that username.")


class CannotFollowSelf(FieldRefused):
    code = "cannot_follow_self"
    field = "username"
    default_detail = _("You cannot follow yourself.")


class CannotBlockSelf(FieldRefused):
    code = "cannot_block_self"
    field = "username"
    default_detail = _("You cannot block yourself.")


class CannotInviteSelf(FieldRefused):
    code = "cannot_invite_self"
    field = "username"
    default_detail = _("You cannot invite yourself.")


class NotFollowing(NotFound):
    code = "not_following"
    default_detail = _("You do not follow that player.")


class NotBlocked(NotFound):
    code = "not_blocked"
    default_detail = _("You have not blocked that player.")


class UserBlocked(Conflict):
    """A block between the two players, in either direction: the answer does not say which."""

    code = "user_blocked"
    default_detail = _("You cannot do that with this player.")


class InviteeSeated(Conflict):
    code = "invitee_seated"
    default_detail = _("That player already sits in this match.")


class AlreadyInvited(Conflict):
    code = "already_invited"
    default_detail = _("That player already has an open invitation to this match.")


class InvitationNotFound(NotFound):
    """No such invitation, or one addressed to someone else (not revealed)."""

    code = "invitation_not_found"
    default_detail = _("No such invitation.")


class InvitationNotPending(Conflict):
    code = "invitation_not_pending"
    default_detail = _("This invitation was already answered or withdrawn.")


class InvitationRateLimited(DomainError):
    """The inviter sent ``INVITATIONS["PER_HOUR"]`` invitations in the last hour (each one a
    push to someone); ``retry_after`` is when the oldest of them leaves the hour."""

    code = "invitation_rate_limited"
    status = 429
    default_detail = _("You have sent too many invitations in the last hour; try again later.")

    def __init__(self, *, retry_after: int) -> None:
        super().__init__()
        self.retry_after = retry_after


class TableInvitationsFull(Conflict):
    """As many invitations to this table are open as it has free seats."""

    code = "table_invitations_full"
    default_detail = _("This table has an open invitation for every free seat.")


class InviteeInvitationsFull(Conflict):
    """The invitee holds ``INVITATIONS["OPEN_PER_INVITEE"]`` open invitations already."""

    code = "invitee_invitations_full"
    default_detail = _("That player has too many open invitations; try again later.")


class RematchNotFound(NotFound):
    code = "rematch_not_found"
    default_detail = _("Nobody has proposed a rematch of this match.")


class RematchExpired(Conflict):
    code = "rematch_expired"
    default_detail = _("The rematch proposal expired.")


class RematchStarted(Conflict):
    code = "rematch_started"
    default_detail = _("The rematch has started already.")


class RematchCancelled(Conflict):
    """The proposal was called off: a player of the table can no longer play (their account
    was deleted, or they were suspended or banned), or two who had accepted block each other
    now. The answer does not say which, nor who."""

    code = "rematch_cancelled"
    default_detail = _("The rematch was called off: this table cannot play together again.")


class RematchUnavailable(Conflict):
    """Nobody proposed yet, and a player of the table can no longer play: the same table
    cannot sit again, so no proposal is made."""

    code = "rematch_unavailable"
    default_detail = _("This table cannot play again: one of its players can no longer play.")


# --- Quick play (players.services.matchmaking) ---------------------------------------------


class NoTicket(NotFound):
    """The caller has never asked for a table (GET), or has no ticket to cancel (DELETE)."""

    code = "no_ticket"
    default_detail = _("You have not asked for a table.")


class AlreadyQueued(Conflict):
    code = "already_queued"
    default_detail = _("You are already waiting for a table; cancel that request to change it.")


class TicketPlaced(Conflict):
    code = "ticket_placed"
    default_detail = _("You have been seated already; resign the match instead.")


class UnknownPhrase(InvalidInput):
    """A ``phrase`` that is not one of ``GET /chat/phrases``."""

    code = "unknown_phrase"
    # Lazy, so the detail is in the caller's language (rendered as text by the handler).
    default_detail = _("That is not one of the quick-chat phrases.")


class ChatClosed(Conflict):
    """The match is over (for longer than the chat stays open after it) or was aborted."""

    code = "chat_closed"
    default_detail = _("This table's chat is closed.")
