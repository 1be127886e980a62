"""The tournaments app's refusals: one class per error, its code and status on the class."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from core.errors import Conflict, DomainError, FieldRefused, NotFound, Refused


class TournamentNotFound(NotFound):
    """No such tournament, or a private one the caller has neither entered nor been given
    the code of (its existence is not revealed)."""

    code = "tournament_not_found"
    default_detail = _("No such tournament.")


class EntryNotFound(NotFound):
    code = "entry_not_found"
    default_detail = _("No such entry.")


class RegistrationClosed(Conflict):
    code = "registration_closed"
    default_detail = _("Registration for this tournament is closed.")


class TournamentFull(Conflict):
    code = "tournament_full"
    default_detail = _("This tournament has as many teams as it takes.")


class AlreadyEntered(Conflict):
    code = "already_entered"
    default_detail = _("You already hold a place in this tournament.")


class PartnerEntered(FieldRefused):
    code = "partner_entered"
    field = "partner"
    default_detail = _("That player already holds a place in this tournament.")


class CannotPartnerSelf(FieldRefused):
    code = "cannot_partner_self"
    field = "partner"
    default_detail = _("You cannot be your own partner.")


class NotYourInvitation(DomainError):
    code = "not_your_invitation"
    status = 403
    default_detail = _("Only the partner named in this entry may accept it.")


class EntryNotInvited(Conflict):
    code = "entry_not_invited"
    default_detail = _("This entry is not waiting for a partner.")


class NotEntered(NotFound):
    code = "not_entered"
    default_detail = _("You hold no place in this tournament.")


class PublicTournamentStaffOnly(DomainError):
    code = "public_tournament_staff_only"
    status = 403
    default_detail = _("Only staff may create a public tournament.")


class TournamentOver(Conflict):
    code = "tournament_over"
    default_detail = _("This tournament has ended.")


class TeamDisqualified(Conflict):
    code = "team_disqualified"
    default_detail = _("Your team was disqualified from this tournament.")


class SettingRefused(Refused):
    """A tournament setting the schema allows but the tournament cannot have (a start in the
    past, Swiss without its rounds), named in ``errors`` as a 400 names its fields."""

    code = "setting_refused"
    default_detail = _("This tournament cannot have that setting.")

    def __init__(self, field: str, detail: str) -> None:
        super().__init__(detail, errors=[{"field": field, "code": self.code, "detail": detail}])
