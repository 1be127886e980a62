"""``GET /metrics`` for operators (Prometheus text format), the request timing middleware and
the Celery task timings. The families are defined in ``core.metrics``, which says what each
one measures and how the processes' values meet.

Not public: with ``METRICS_TOKEN`` empty (the default) ``/metrics`` does not exist (404);
with it set, a scrape must send ``Authorization: Bearer <METRICS_TOKEN>``, and anything else
is ``401``. Prometheus: ``authorization: {credentials: <token>}`` in the scrape config.
"""

from __future__ import annotations

import hmac
import logging
import os
import time
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, CollectorRegistry, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.registry import Collector

from core import metrics

log = logging.getLogger(__name__)

QUEUES = ("celery", "bots-hard", "push")


# --- The scrape ------------------------------------------------------------------------------


class QueueDepthCollector(Collector):
    """``baloot_queue_depth``: the messages waiting in each queue, asked of the broker at
    scrape time (kombu's passive declare: Redis LLEN over the queue's priority lists, or a
    COUNT of the visible rows of the SQLite broker's table). A broker that cannot be read
    leaves the family out and logs why; the scrape still answers."""

    def collect(self) -> Iterable[GaugeMetricFamily]:
        from kombu.exceptions import ChannelError

        from baloot_site.celery import app

        family = GaugeMetricFamily(
            metrics.QUEUE_DEPTH_NAME, "Messages waiting in the broker, per queue.", labels=["queue"]
        )
        try:
            with app.connection_for_read() as connection:
                channel: Any = connection.default_channel  # kombu's virtual channel
                for queue in QUEUES:
                    try:
                        _, depth, _ = channel.queue_declare(queue=queue, passive=True)
                    except ChannelError:  # never declared (Redis: no list yet): nothing waits
                        depth = 0
                    family.add_metric([queue], float(depth))
        except Exception:
            log.warning("metrics: the broker's queue depths could not be read", exc_info=True)
            return
        yield family


def _exposition() -> bytes:
    scrape = CollectorRegistry(auto_describe=True)
    scrape.register(QueueDepthCollector())
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        # Every process's values, from their files (core.metrics).
        MultiProcessCollector(scrape)
        return generate_latest(scrape)
    return generate_latest(REGISTRY) + generate_latest(scrape)


def _authorized(request: HttpRequest) -> bool:
    expected = f"Bearer {settings.METRICS_TOKEN}".encode()
    sent = request.headers.get("Authorization", "").encode()
    return hmac.compare_digest(sent, expected)


@csrf_exempt
@require_GET
def metrics_view(request: HttpRequest) -> HttpResponse:
    if not settings.METRICS_TOKEN:
        return HttpResponse(status=404)
    if not _authorized(request):
        return HttpResponse(status=401, headers={"WWW-Authenticate": 'Bearer realm="metrics"'})
    return HttpResponse(_exposition(), content_type=CONTENT_TYPE_LATEST)


# --- Requests --------------------------------------------------------------------------------


def _route(request: HttpRequest) -> str:
    match = getattr(request, "resolver_match", None)
    if match is None:
        return "unmatched"
    return str(match.view_name or match.route or "unnamed")


class RequestMetricsMiddleware:
    """Times every request through Django (the outermost middleware, so a refusal made by
    another middleware counts too), labelled by the URL pattern that served it."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Callable[[HttpRequest], Any]) -> None:
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> Any:
        if self.is_async:
            return self._acall(request)
        started = time.perf_counter()
        response: HttpResponseBase = self.get_response(request)
        self._observe(request, response, started)
        return response

    async def _acall(self, request: HttpRequest) -> HttpResponseBase:
        started = time.perf_counter()
        pending: Awaitable[HttpResponseBase] = self.get_response(request)
        response = await pending
        self._observe(request, response, started)
        return response

    @staticmethod
    def _observe(request: HttpRequest, response: HttpResponseBase, started: float) -> None:
        metrics.HTTP_REQUEST_DURATION.labels(
            _route(request), request.method or "", str(response.status_code)
        ).observe(time.perf_counter() - started)
