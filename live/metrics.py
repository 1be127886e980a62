"""The streams' figures for ``GET /metrics`` (``core.metrics``), taken around the consumers
rather than inside them: the ASGI messages a connection sends (its accept, each frame) and the
relay notes it receives (each carries the time of the commit it tells of).

- ``baloot_streams_open``: from the accept to the end of the connection;
- ``baloot_stream_frames_sent_total``: every text or binary frame;
- ``baloot_stream_lag_seconds``: from the commit of the newest note a connection received to
  the first frame it sent after it (the send that note caused; notes that arrive while a
  pass runs fold into one send, which is measured from the newest of them). A spectator whose
  cut has not moved sends nothing for a note, and the next note replaces it.
"""

from __future__ import annotations

from typing import Any, ClassVar

from core import metrics
from live.consumers import MatchStream, PlayerStream

_SEND = "websocket.send"
_ACCEPT = "websocket.accept"
_NOTE = "live.note"


class _Metered:
    """Mixed in before a stream class (``_Stream``): counts what it sends."""

    STREAM: ClassVar[str]
    _note_at: float | None = None

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        opened = False
        stream = self.STREAM

        async def counted(message: Any) -> None:
            nonlocal opened
            kind = message.get("type")
            if kind == _SEND:
                at, self._note_at = self._note_at, None
                await send(message)
                metrics.stream_sent(stream, 1, at)
                return
            if kind == _ACCEPT and not opened:
                opened = True
                metrics.stream_opened(stream)
            await send(message)

        try:
            await super().__call__(scope, receive, counted)  # type: ignore[misc]
        finally:
            if opened:
                metrics.stream_closed(stream)

    async def dispatch(self, message: Any) -> None:
        if message.get("type") == _NOTE and message.get("at") is not None:
            self._note_at = float(message["at"])
        await super().dispatch(message)  # type: ignore[misc]


class MeteredMatchStream(_Metered, MatchStream):
    STREAM = "match"


class MeteredPlayerStream(_Metered, PlayerStream):
    STREAM = "me"
