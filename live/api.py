"""``POST /api/v1/auth/ws-ticket``: a single-use ticket for a browser's WebSocket upgrade."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.authentication import BearerTokenAuthentication
from accounts.models import AuthToken
from core import docs
from core.parsing import refuse_body
from core.throttling import FailOpenScopedRateThrottle
from live import auth


class WsTicketSerializer(serializers.Serializer):
    ticket = serializers.CharField(
        help_text="Pass as `?ticket=` on the WebSocket upgrade; single use."
    )
    expires_at = serializers.DateTimeField(help_text="Unusable after this instant (60 s).")


class WsTicketView(APIView):
    # Bearer tokens only: the ticket is bound to the token that asked for it, and revoking that
    # token closes the connections the ticket opened.
    authentication_classes = [BearerTokenAuthentication]
    throttle_classes = [FailOpenScopedRateThrottle]
    throttle_scope = "ws_ticket"

    @extend_schema(
        operation_id="auth_ws_ticket_create",
        request=None,
        responses={
            201: WsTicketSerializer,
            **docs.errors((400, docs.NO_BODY), base=docs.AUTH_ERRORS),
        },
        summary="A single-use ticket (valid 60 s) to open a WebSocket stream from a browser",
        description=(
            "Browsers cannot set `Authorization` on a WebSocket upgrade: connect to "
            "`/ws/v1/...?ticket=<ticket>` instead. The ticket is bound to the calling user and "
            "token, works once, and expires after 60 seconds. See `/api/asyncapi/`."
        ),
    )
    def post(self, request: Request) -> Response:
        refuse_body(request.data)
        token = request.auth
        if not isinstance(token, AuthToken):
            raise exceptions.NotAuthenticated()
        raw, expires_at = auth.ticket_issue(token=token)
        return Response(
            WsTicketSerializer({"ticket": raw, "expires_at": expires_at}).data,
            status=status.HTTP_201_CREATED,
        )
