"""ASGI entry point: HTTP to Django, WebSocket to the live streams (live/routing.py)."""

import os
import warnings

import django

# WhiteNoise's static files (admin, Swagger UI) are sync file iterators, which Django's ASGI
# handler reads in a thread, warning on every response. They are small files and served right;
# the warning would only flood the log.
warnings.filterwarnings(
    "ignore", message="StreamingHttpResponse must consume synchronous iterators", category=Warning
)

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "baloot_site.settings")
# Django first: the apps must be loaded before the consumers import their models.
django.setup(set_prefix=False)

from django.conf import settings  # noqa: E402

from baloot_site.http_handler import PooledHTTPHandler  # noqa: E402

# HTTP on a fixed pool of threads, each request run by Django's sync handler in one call
# (baloot_site/http_handler.py): no thread and no database connection made per request.
django_application = PooledHTTPHandler(settings.BALOOT_HTTP_THREADS)

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from live.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {"http": django_application, "websocket": URLRouter(websocket_urlpatterns)}
)
