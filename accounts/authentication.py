"""``Authorization: Bearer <token>`` for the mobile clients."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.db.models import Exists, OuterRef
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions
from rest_framework.request import Request

from core.i18n import language_activate

from .errors import standing_refusal
from .models import AuthToken, Sanction, User, hash_token
from .selectors import sanction_active_for


class AccountSanctioned(exceptions.APIException):
    """A valid token of a suspended or banned user: ``403`` with code ``account_suspended``
    or ``account_banned`` (not 401, which tells a client to log in again, and a new login
    would be refused the same way). An APIException that is not an AuthenticationFailed, so
    DRF neither turns it into 401 nor maps it to ``authentication_failed``."""

    status_code = 403

    def __init__(self, sanction: Sanction) -> None:
        refusal = standing_refusal(sanction)
        super().__init__(str(refusal.detail), code=refusal.code)


_CHECKED = "_sanctions_checked"


def checked_in_this_request(user: object) -> bool:
    """Did this request's token authentication already find ``user`` free of sanctions? The
    flag lives on the user object DRF loaded for this request, so it dies with the request."""
    return bool(getattr(user, "__dict__", {}).get(_CHECKED))


def request_user(request: HttpRequest | Request) -> User:
    """The signed-in user of a request that got past authentication: an API view behind
    ``IsAuthenticated`` (the default permission), or an admin page behind the staff login.

    ``request.user`` is typed ``User | AnonymousUser``; this is the one place that narrows it.
    An anonymous caller never gets this far, and would be refused (403) if one did."""
    user = request.user
    if not isinstance(user, User):
        raise PermissionDenied(_("Sign in first."))
    return user


class BearerTokenAuthentication(authentication.BaseAuthentication):
    keyword = "Bearer"

    def __init__(self, *, refuse_sanctioned: bool = True) -> None:
        # A suspended or banned user's token is refused (403) on every operation but
        # ``DELETE /me``: the app stores require that any account can be deleted from the
        # app, and a ban is no reason to keep someone's personal data. The services that
        # need a player in good standing refuse them still (``require_in_good_standing``).
        self.refuse_sanctioned = refuse_sanctioned

    def authenticate(self, request: Request) -> tuple[Any, AuthToken] | None:
        header = authentication.get_authorization_header(request).split()
        if not header or header[0].lower() != self.keyword.lower().encode():
            return None
        if len(header) != 2:
            raise exceptions.AuthenticationFailed(_("Send 'Authorization: Bearer <token>'."))
        try:
            raw = header[1].decode()
        except UnicodeError:
            raise exceptions.AuthenticationFailed(_("Invalid token.")) from None
        token = (
            AuthToken.objects.select_related("user")
            .filter(key_hash=hash_token(raw), revoked_at__isnull=True)
            # Checked on every request, in the token's own query, so a sanction takes effect
            # at once and a suspension ends by itself (active: its end is null or ahead).
            .annotate(sanctioned=Exists(Sanction.objects.active().filter(user=OuterRef("user"))))
            .first()
        )
        if token is None or not token.user.is_active:
            raise exceptions.AuthenticationFailed(_("Invalid or revoked token."))
        # From here on the answer is in the account's language, the refusal below included.
        language_activate(request, token.user.language)
        if token.sanctioned:
            sanction = sanction_active_for(token.user)
            if sanction is not None:
                if not self.refuse_sanctioned:
                    return token.user, token  # not marked as checked: they are not in good standing
                raise AccountSanctioned(sanction)
        token.user.__dict__[_CHECKED] = True
        return token.user, token

    def authenticate_header(self, request: Request) -> str:
        # Makes DRF answer 401 (not 403) to anonymous callers.
        return self.keyword
