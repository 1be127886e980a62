"""``POST /me/email/verify``: the mailed code makes the pending address the caller's. It
answers the profile (``games.api.me``), so it lives beside it; the rest of the address and
the password reset are accounts' (``accounts.recovery``, ``accounts.api.recovery``)."""

from __future__ import annotations

from django.utils import translation
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import recovery
from accounts.api.recovery import INVALID_CODE, EmailVerifyRequestSerializer
from accounts.authentication import request_user
from core import docs
from core.parsing import validated_body
from games.api.me import profile_json
from games.api.serializers import MeSerializer


class EmailVerifyView(APIView):
    # Per account: guesses at the code (each code also dies after a few wrong ones).
    throttle_scope = "email_code"

    @extend_schema(
        operation_id="me_email_verify_create",
        request=EmailVerifyRequestSerializer,
        examples=[OpenApiExample("The mailed code", value={"code": "042917"}, request_only=True)],
        responses={
            200: MeSerializer,
            **docs.errors(
                (400, "Invalid fields (`invalid`)."),
                (
                    409,
                    "Another account verified this address first (`email_taken`): an address "
                    "belongs to one account.",
                ),
                INVALID_CODE,
                base=docs.AUTH_ERRORS,
            ),
        },
        summary="Verify your email address with the mailed code",
        description="The address set with `PATCH /me` (`email_pending`) becomes your `email`; "
        "the answer is your profile. Password reset mails go to it from then on, and the "
        "address it replaces, if any, is sent a notice of the change.",
    )
    def post(self, request: Request) -> Response:
        user = request_user(request)
        data = validated_body(EmailVerifyRequestSerializer, request.data)
        language = translation.get_language() or "en"  # the account's, else Accept-Language
        verified = recovery.email_verify(user=user, code=data["code"], language=language)
        return Response(profile_json(verified))
