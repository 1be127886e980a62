"""Which language an answer is in: the account's own (``User.language``), else the request's
``Accept-Language`` (Django's LocaleMiddleware, which runs first), else English.

DRF authenticates inside the view, after every middleware, so the account's language is
switched on where authentication learns who is calling: the bearer token class
(accounts.authentication) for the API, the middleware below for the admin's session. Anything
rendered from then on (the view's body, an error raised by the view, the exception handler's
problem) and the ``Content-Language`` that LocaleMiddleware sets on the way out are in it.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.translation import trans_real

LANGUAGE_CODES = frozenset(code for code, _name in settings.LANGUAGES)


def language_activate(request: object, language: str | None) -> None:
    """Answer this request in ``language`` if it is one of ours (blank: keep the header's)."""
    if not language or language not in LANGUAGE_CODES:
        return
    translation.activate(language)
    # Where Django keeps the request's language (LocaleMiddleware sets it, templates read it).
    request.LANGUAGE_CODE = language  # type: ignore[attr-defined]
    raw = getattr(request, "_request", None)  # a DRF Request wraps Django's HttpRequest
    if raw is not None:
        raw.LANGUAGE_CODE = language


def preferred_language(account: str | None, accept_language: str = "") -> str:
    """The language to answer in where no middleware runs (the WebSocket streams): the
    account's, else the first of ours that ``accept_language`` names, else English."""
    if account in LANGUAGE_CODES:
        return str(account)
    for code, _quality in trans_real.parse_accept_lang_header(accept_language.lower()):
        try:
            return translation.get_supported_language_variant(code)
        except LookupError:
            continue
    return str(settings.LANGUAGE_CODE)


def is_english() -> bool:
    """Is the active language English (the language the code's own texts are written in)?"""
    return (translation.get_language() or settings.LANGUAGE_CODE).split("-")[0] == "en"


class SessionUserLanguageMiddleware:
    """A signed-in admin user (session) reads the admin in their own language. A request
    without a session cookie (every API call) costs nothing here: no session, no query."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if settings.SESSION_COOKIE_NAME in request.COOKIES:
            user = request.user
            if user.is_authenticated:
                language_activate(request, getattr(user, "language", ""))
        return self.get_response(request)
