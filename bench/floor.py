"""The framework's floor for the HTTP benchmarks: a bare DRF endpoint that does one locked
read-modify-write of a match row in a transaction, with the same authentication as the
move path. Mounted only when ``BALOOT_BENCH_ENDPOINTS=1`` (see baloot_site/urls.py)."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.models import Match


class FloorView(APIView):
    throttle_classes: list = []
    schema = None  # not part of the published contract

    def post(self, request: Request, pk: int) -> Response:
        with transaction.atomic():
            match = Match.objects.select_for_update().get(pk=pk)
            match.updated_at = timezone.now()
            match.save(update_fields=["updated_at"])
        return Response({"id": match.pk, "updated_at": match.updated_at}, status=201)
