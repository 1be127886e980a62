"""Site-wide middleware that keeps Django-level answers in the API's one problem shape.

``BodySizeLimitMiddleware`` refuses request bodies over the size limit with
``413 payload_too_large``. Django itself only checks the limit (``DATA_UPLOAD_MAX_MEMORY_SIZE``)
when a view reads a form, and answers with an HTML 400. This runs early in MIDDLEWARE (only
the language is chosen before it), for the API and the admin: a declared ``Content-Length``
over the limit is refused before a byte is read; a body without one (chunked, through ASGI) is
read here through a counting cap, so it is never held in memory beyond the limit, and kept for
the view.

``BareErrorProblemMiddleware`` gives Django's empty-bodied error answers the problem shape.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import IO, BinaryIO, cast

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext_lazy as _

from baloot_site.errors import bad_request, bare_status_problem, payload_too_large


class _CappedStream:
    """Reads from ``stream`` and raises RequestDataTooBig once more than ``limit`` bytes came."""

    def __init__(self, stream: IO[bytes], limit: int) -> None:
        self._stream = stream
        self._limit = limit
        self._seen = 0

    def _count(self, data: bytes) -> bytes:
        self._seen += len(data)
        if self._seen > self._limit:
            raise RequestDataTooBig("Request body exceeded the size limit.")
        return data

    def read(self, size: int | None = -1) -> bytes:
        # Never ask for more than one byte past the limit, even for read() of everything.
        room = self._limit - self._seen + 1
        return self._count(self._stream.read(room if size is None or size < 0 else min(size, room)))

    def readline(self, size: int = -1) -> bytes:
        room = self._limit - self._seen + 1
        return self._count(self._stream.readline(room if size < 0 else min(size, room)))

    def close(self) -> None:
        self._stream.close()


class BodySizeLimitMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        if limit is None:
            return self.get_response(request)
        declared = request.META.get("CONTENT_LENGTH") or ""
        if declared:
            try:
                length = int(declared)
            except ValueError:
                return bad_request(_("The Content-Length header is not a number."))
            if length < 0:
                return bad_request(_("The Content-Length header is negative."))
            if length > limit:
                return payload_too_large()
        elif getattr(request, "_stream", None) is not None:
            # No length declared: read the body now, through the cap. request.body keeps it, so
            # the view (the admin's forms) reads it as usual. Django's WSGI request has an empty
            # stream here; an ASGI request carries the whole chunked body.
            # HttpRequest only reads its stream (read, readline, close): the cap is enough of one.
            request._stream = cast(BinaryIO, _CappedStream(request._stream, limit))
            try:
                body = request.body  # read and cached for the view
            except RequestDataTooBig:
                return payload_too_large()
            # DRF reads a body only where a length is declared: a chunked body, now read
            # whole, declares its own, or the API would take it for no body at all.
            request.META["CONTENT_LENGTH"] = str(len(body))
        return self.get_response(request)


class BareErrorProblemMiddleware:
    """Bare error answers from Django's own views (a 405 from the admin's login view, a
    decorator's 400) carry an empty body; this gives them the problem shape, headers kept."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.status_code < 400 or response.streaming or response.content:
            return response
        problem = bare_status_problem(response.status_code)
        if problem is None:
            return response
        for header, value in response.items():
            if header.lower() not in ("content-type", "content-length"):
                problem[header] = value
        return problem
