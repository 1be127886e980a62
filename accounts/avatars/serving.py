"""The uploaded pictures, served from the default storage by the app itself: the embedded
default and a single host, where nothing else serves ``MEDIA_URL`` (``SERVE_MEDIA``). A
deployment with a CDN or an object store points ``MEDIA_URL`` there and turns this off.

Only names the upload makes are served (``avatars/<32 hex>.jpg``); each is written once and
never changed (a new picture gets a new name), so clients may cache it for good.
"""

from __future__ import annotations

import re

from django.core.files.storage import default_storage
from django.http import FileResponse, Http404, HttpRequest
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_safe

PICTURE_NAME = re.compile(r"[0-9a-f]{32}\.jpg")


@csrf_exempt  # nothing is written: a POST is answered 405 by require_safe, not 403 for CSRF
@require_safe
def picture_view(request: HttpRequest, name: str) -> FileResponse:
    if not PICTURE_NAME.fullmatch(name):
        raise Http404
    return stored_picture(f"avatars/{name}", "public, max-age=31536000, immutable")


def stored_picture(name: str, cache_control: str) -> FileResponse:
    """A stored JPEG (a player's picture, or a report's copy of one), or a 404."""
    try:
        handle = default_storage.open(name, "rb")
    except FileNotFoundError:
        raise Http404 from None
    response = FileResponse(handle, content_type="image/jpeg")
    response["Cache-Control"] = cache_control
    response["X-Content-Type-Options"] = "nosniff"
    return response
