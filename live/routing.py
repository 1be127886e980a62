"""WebSocket routes (baloot_site/asgi.py mounts them); paths fixed by api.md."""

from typing import Any, cast

from django.urls import path, re_path

from live.consumers import NoSuchStream

# The streams as served: counted for GET /metrics (live/metrics.py).
from live.metrics import MeteredMatchStream, MeteredPlayerStream


def _asgi(consumer: Any) -> Any:
    # Django's path() is typed for views; Channels' URLRouter takes ASGI apps in it too.
    return cast(Any, consumer.as_asgi())


websocket_urlpatterns: list[Any] = [
    re_path(r"^ws/v1/matches/(?P<match_id>[1-9][0-9]{0,17})$", _asgi(MeteredMatchStream)),
    path("ws/v1/me", _asgi(MeteredPlayerStream)),
    # Any other path (a match id that is not one included): the same 4404 as a hidden match.
    re_path(r"", _asgi(NoSuchStream)),
]
