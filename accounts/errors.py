"""The accounts domain's refusals: one class per error, its code and status on the class."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from accounts.models import Sanction, SanctionKind
from core.errors import Conflict, DomainError, Refused


class WrongCredentials(DomainError):
    code = "authentication_failed"
    status = 401
    default_detail = _("Wrong username or password.")


class WrongPassword(Refused):
    """The password confirming a change to the signed-in account (its password, its
    deletion) is not the account's. 422, not 401: the token is fine, and a 401 would tell the
    client to sign in again; not 400, the body is well formed. Counted as a failed login
    (django-axes), so guessing through a stolen token locks the account like guessing at
    ``/auth/login``."""

    code = "wrong_password"
    default_detail = _("That is not your current password.")

    def __init__(self, field: str) -> None:
        # The field that held the password, as a 400 names its fields.
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


class InvalidCode(Refused):
    """A mailed code that is wrong, used, replaced by a newer one, expired, burnt by too many
    wrong guesses, or asked of an account that has none: one answer for all, so a guess
    learns nothing but that it failed."""

    code = "invalid_code"
    default_detail = _("That code is wrong or no longer valid; ask for a new one.")


class EmailTaken(Conflict):
    """The address being verified is already another account's verified address: a verified
    address names one account (a password reset by address must find one). Only someone who
    received the code learns it."""

    code = "email_taken"
    default_detail = _("That address is already verified on another account.")


# --- Sign in with Apple and Google (accounts.providers, accounts.identities) ------------------


class InvalidIdToken(DomainError):
    """An ID token that is not one the provider signed for us: not a JWT, a signature that
    does not verify against the provider's published keys, a key id it does not publish, an
    algorithm other than RS256, another issuer, or a claim missing."""

    code = "invalid_id_token"
    status = 401
    default_detail = _("The ID token is not valid.")


class IdTokenExpired(DomainError):
    code = "id_token_expired"
    status = 401
    default_detail = _("The ID token has expired; sign in with the provider again.")


class WrongAudience(DomainError):
    """Signed by the provider, but for another app: its ``aud`` is none of our client ids."""

    code = "wrong_audience"
    status = 401
    default_detail = _("The ID token was issued for another app.")


class NonceMismatch(DomainError):
    """The nonce sent is not the one the token carries (Apple: its SHA-256), or the token
    carries one and none was sent."""

    code = "nonce_mismatch"
    status = 401
    default_detail = _("The nonce does not match the ID token.")


class NonceReused(DomainError):
    """A nonce already used to sign in: each is good for one sign-in."""

    code = "nonce_reused"
    status = 401
    default_detail = _("This nonce was already used; sign in with the provider again.")


class ProviderNotConfigured(DomainError):
    """The operator set no client id for this provider (AUTH_APPLE_CLIENT_IDS, ...)."""

    code = "provider_not_configured"
    status = 404
    default_detail = _("This server does not offer sign-in with this provider.")


class ProviderUnavailable(DomainError):
    """The provider's keys could not be fetched (the key server is down, slow or answers
    nonsense) and none are cached: nothing can be verified for now."""

    code = "provider_unavailable"
    status = 503
    default_detail = _("The sign-in provider cannot be reached; try again shortly.")

    def __init__(self, retry_after: int = 10) -> None:
        super().__init__()
        self.retry_after = max(1, retry_after)


class IdentityInUse(DomainError):
    """Linking an identity that already signs in to another account."""

    code = "identity_in_use"
    status = 409
    default_detail = _("This sign-in is already linked to another account.")


class ProviderAlreadyLinked(DomainError):
    """Linking a second identity of a provider the account already has one of."""

    code = "provider_already_linked"
    status = 409
    default_detail = _("Your account is already linked to another account of this provider.")


class IdentityNotLinked(DomainError):
    code = "identity_not_linked"
    status = 404
    default_detail = _("Your account is not linked to this provider.")


class LastSignInMethod(DomainError):
    """Unlinking the only way into an account that has no password."""

    code = "last_sign_in_method"
    status = 409
    default_detail = _("This is the only way into your account; link another provider first.")


class WrongIdentity(Refused):
    """The sign-in confirming a deletion is valid but not one of the account's identities.
    422, as a wrong password there: the caller's token is fine."""

    code = "wrong_identity"
    default_detail = _("That sign-in is not one of your account's.")

    def __init__(self) -> None:
        detail = str(self.default_detail)
        super().__init__(
            detail, errors=[{"field": "id_token", "code": self.code, "detail": detail}]
        )


class UsernameTaken(Conflict):
    """Registration with a username another account has (compared without case)."""

    code = "username_taken"
    default_detail = _("That username is taken.")

    def __init__(self) -> None:
        detail = str(self.default_detail)
        super().__init__(detail, errors=[{"field": "username", "code": "unique", "detail": detail}])
