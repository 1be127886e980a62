"""The game domain's refusals: one class per error, its code and status on the class."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from core.errors import Conflict, DomainError, NotFound, Refused


class MatchNotFound(NotFound):
    """The one answer for a match that does not exist or that the caller may not know of
    (a private match is not revealed to anyone not seated, a wrong invite code included)."""

    default_detail = _("No such match.")


class RoundNotFound(NotFound):
    default_detail = _("No such round.")


class NotAPlayer(DomainError):
    code = "not_a_player"
    status = 403
    default_detail = _("You do not sit in this match.")


class MatchNotActive(Conflict):
    code = "match_not_active"
    default_detail = _("This match is not being played.")


class MatchNotWaiting(Conflict):
    code = "match_not_waiting"
    default_detail = _("This match is not waiting for players.")


class MatchNotFinished(Conflict):
    code = "match_not_finished"
    default_detail = _("The match has not ended yet.")


class RoundNotFinished(Conflict):
    code = "round_not_finished"
    default_detail = _("That round is still being played.")


class MatchFull(Conflict):
    code = "match_full"
    default_detail = _("Every seat is taken.")


class SeatTaken(Conflict):
    code = "seat_taken"
    default_detail = _("That seat is taken.")


class SeatNotBot(Conflict):
    code = "seat_not_bot"
    default_detail = _("No bot sits in that seat.")


class AlreadySeated(Conflict):
    code = "already_seated"
    default_detail = _("You already sit in this match.")


class StaleVersion(Conflict):
    """The client's ``expected_version`` is behind; ``current_version`` tells it where to
    reload from."""

    code = "stale_version"
    default_detail = _("The match has moved on; reload it.")

    def __init__(self, *, current_version: int) -> None:
        super().__init__(current_version=current_version)


class IdempotencyKeyReused(DomainError):
    code = "idempotency_key_reused"
    status = 422
    default_detail = _("This Idempotency-Key was used with another body.")


class NotInRuleset(Refused):
    """A move type the match's ruleset does not have (``sawa`` outside ``saudi``, S20). The
    schema lists every ruleset's types, so the body is well formed: 422, not 400."""

    code = "not_in_ruleset"
    default_detail = _("This match's ruleset has no such move.")
