"""HTTP over ASGI on a fixed pool of threads, each request served by Django's sync handler.

Django's ``ASGIHandler`` runs a request's synchronous code (every middleware and view here is
synchronous) in a thread made for that request (``ThreadSensitiveContext``), so each request
paid for a new thread and, the connections being per thread, a new database connection:
``CONN_MAX_AGE`` kept nothing. Here the whole request runs in one call on one of
``BALOOT_HTTP_THREADS`` long-lived threads, as a WSGI worker's thread would run it:
``request_started`` (``close_old_connections``: age and health checks), the sync middleware
chain and view, and ``response.close()`` (``request_finished``), all on that thread. The
connections of those threads persist across requests like a WSGI worker's. The event loop only
reads the body and writes the answer; the WebSocket streams stay on the same loop and port.
"""

from __future__ import annotations

import asyncio
import contextvars
from concurrent.futures import ThreadPoolExecutor
from typing import IO, Any

from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers import base
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.http import FileResponse, HttpResponseBase
from django.urls import set_script_prefix

Scope = dict[str, Any]


class PooledHTTPHandler(ASGIHandler):
    """Django's ASGI handler for HTTP, the request itself run synchronously on a fixed pool."""

    def __init__(self, threads: int) -> None:
        base.BaseHandler.__init__(self)
        # The synchronous chain, as WSGIHandler loads it (ASGIHandler loads the async one).
        self.load_middleware(is_async=False)
        self.executor = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="http")

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        loop = asyncio.get_running_loop()
        # A copy of the request's context per call: what a request sets in context variables
        # (the active language among them) stays with it, not with the pool's thread.
        run = contextvars.copy_context().run
        response = await loop.run_in_executor(self.executor, run, self.respond, scope, body_file)
        try:
            await self.send_response(response, send)
        finally:
            if response.streaming:
                await loop.run_in_executor(self.executor, run, self.finish, response, body_file)

    def respond(self, scope: Scope, body_file: IO[bytes]) -> HttpResponseBase:
        """The whole request on this thread; a complete (not streaming) answer is closed here
        too, so ``request_finished`` sees this thread's connections, as under WSGI."""
        set_script_prefix(get_script_prefix(scope))
        signals.request_started.send(sender=self.__class__, scope=scope)
        request, response = self.create_request(scope, body_file)
        if request is not None:
            response = self.get_response(request)
            response._handler_class = self.__class__  # type: ignore[attr-defined]
            if isinstance(response, FileResponse):
                response.block_size = self.chunk_size
        assert response is not None
        if not response.streaming:
            self.finish(response, body_file)
        return response

    @staticmethod
    def finish(response: HttpResponseBase, body_file: IO[bytes]) -> None:
        response.close()
        body_file.close()
