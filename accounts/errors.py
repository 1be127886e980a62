"""The accounts domain's refusals: one class per error, its code and status on the class."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from accounts.models import Sanction, SanctionKind
from core.errors import DomainError


class WrongCredentials(DomainError):
    code = "authentication_failed"
    status = 401
    default_detail = _("Wrong username or password.")


class WrongPassword(DomainError):
    """The password confirming a change to the signed-in account (its password, its
    deletion) is not the account's. 400, not 401: the token is fine, and a 401 would tell the
    client to sign in again. Counted as a failed login (django-axes), so guessing through a
    stolen token locks the account like guessing at ``/auth/login``."""

    code = "wrong_password"
    status = 400
    default_detail = _("That is not your current password.")

    def __init__(self, field: str) -> None:
        # A 400 names what is wrong in the body (api.md): the field that held the password.
        detail = str(self.default_detail)
        super().__init__(detail, errors=[{"field": field, "code": self.code, "detail": detail}])


class AccountSuspended(DomainError):
    """A suspended player may not create, join or play until the suspension ends."""

    code = "account_suspended"
    status = 403
    default_detail = _("This account is suspended.")


class AccountBanned(DomainError):
    code = "account_banned"
    status = 403
    default_detail = _("This account is banned.")


class AccountClosed(DomainError):
    """A deleted or deactivated account met by a service that seats players: a deletion that
    committed while the request waited for a lock, or a direct call. Refused as the account's
    revoked token is from then on, so a client needs no new case."""

    code = "authentication_failed"
    status = 401
    default_detail = _("Invalid or revoked token.")


def standing_refusal(sanction: Sanction) -> AccountBanned | AccountSuspended:
    """The refusal for an account under ``sanction``: the same words at login, on every token
    and in every service that needs a player in good standing."""
    if sanction.kind == SanctionKind.BAN:
        return AccountBanned()
    until = sanction.ends_at.isoformat() if sanction.ends_at else ""
    return AccountSuspended(_("This account is suspended until %(until)s.") % {"until": until})


class InvalidCode(DomainError):
    """A mailed code that is wrong, used, replaced by a newer one, expired, burnt by too many
    wrong guesses, or asked of an account that has none: one answer for all, so a guess
    learns nothing but that it failed."""

    code = "invalid_code"
    status = 422
    default_detail = _("That code is wrong or no longer valid; ask for a new one.")


class EmailTaken(DomainError):
    """The address being verified is already another account's verified address: a verified
    address names one account (a password reset by address must find one). Only someone who
    received the code learns it."""

    code = "email_taken"
    status = 409
    default_detail = _("That address is already verified on another account.")
