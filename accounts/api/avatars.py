"""Avatars: ``GET /avatars`` (the built-in catalog), ``PUT /me/avatar`` (upload a picture) and
``DELETE /me/avatar``. Choosing a built-in one is ``PATCH /me`` (``avatar``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import IO, Any

from django.http import HttpRequest
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.parsers import BaseParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import services as account_services
from accounts.api.serializers import AvatarSerializer
from accounts.authentication import request_user
from accounts.avatars import services
from accounts.avatars.errors import InvalidPicture, PayloadTooLarge
from accounts.avatars.pictures import MAX_UPLOAD_BYTES
from accounts.avatars.selectors import avatar_json, catalog_json
from core import docs
from core.parsing import refuse_body


class _PictureParser(BaseParser):
    """The body's bytes as they came, at most ``MAX_UPLOAD_BYTES`` of them: read one past the
    bound, so a longer body is refused without being read whole (the API's own body limit,
    ``BALOOT_MAX_BODY_BYTES``, may be set higher)."""

    def parse(  # type: ignore[override]  # DRF's stubs know only form and JSON parsers
        self,
        stream: IO[bytes] | None,
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> bytes:
        data = stream.read(MAX_UPLOAD_BYTES + 1) if stream is not None else b""
        if len(data) > MAX_UPLOAD_BYTES:
            raise PayloadTooLarge()
        return data


class JPEGParser(_PictureParser):
    media_type = "image/jpeg"


class PNGParser(_PictureParser):
    media_type = "image/png"


class CatalogAvatarSerializer(serializers.Serializer):
    id = serializers.CharField(help_text="What PATCH /me takes as `avatar`.")
    name = serializers.CharField(help_text="Its name, in your language.")
    url = serializers.CharField(
        help_text="A 256 x 256 PNG; a path on this host (resolve it against the API's origin)."
    )


CATALOG_EXAMPLE = OpenApiExample(
    "The catalog",
    # One item: drf-spectacular shows a list answer's example as a list of it.
    value={"id": "dallah", "name": "Dallah", "url": "/static/avatars/dallah.png"},
    response_only=True,
)

PICTURE_EXAMPLE = OpenApiExample(
    "Your picture",
    value={
        "kind": "picture",
        "id": None,
        "url": "/media/avatars/3f2a9c4e1b7d45e8a0c6f1d2e3b4a5c6.jpg",
    },
    response_only=True,
)


class AvatarCatalogView(APIView):
    throttle_scope = "reads"

    @extend_schema(
        operation_id="avatars_list",
        responses={
            200: OpenApiResponse(CatalogAvatarSerializer(many=True), examples=[CATALOG_EXAMPLE]),
            **docs.AUTH_ERRORS,
        },
        summary="The built-in avatars",
        description="Every built-in avatar a player may choose (PATCH /me with its `id` as "
        "`avatar`), in the order to show them, named in your language. Bots have their own, "
        "which are not in this list.",
    )
    def get(self, request: Request) -> Response:
        return Response(catalog_json())


class MyAvatarView(APIView):
    _uploading = False

    def initialize_request(self, request: HttpRequest, *args: Any, **kwargs: Any) -> Request:
        # The parsers depend on the method (an upload's body is a picture, a removal's is
        # JSON if anything), and DRF asks for them before the view knows the request.
        self._uploading = request.method == "PUT"
        return super().initialize_request(request, *args, **kwargs)

    def get_parsers(self) -> list[BaseParser]:
        return [JPEGParser(), PNGParser()] if self._uploading else super().get_parsers()

    @property
    def throttle_scope(self) -> str:
        # An upload is decoded and drawn again: its own, smaller budget.
        return "avatar_upload" if self._uploading else "reads"

    @extend_schema(
        operation_id="me_avatar_update",
        request={
            "image/jpeg": OpenApiTypes.BINARY,
            "image/png": OpenApiTypes.BINARY,
        },
        responses={
            200: OpenApiResponse(AvatarSerializer, examples=[PICTURE_EXAMPLE]),
            **docs.errors(
                (413, "More than 1 MiB (`payload_too_large`)."),
                (415, "The body is not `image/jpeg` or `image/png` (`unsupported_media_type`)."),
                (
                    422,
                    "Not a JPEG or PNG that can be read (`invalid_picture`), a picture of "
                    "wider or taller than 4096 pixels (`picture_too_large`), or a progressive "
                    "JPEG of more than 32 scans (`picture_too_complex`).",
                ),
                (
                    429,
                    "Too many uploads (`throttled`, `RATE_AVATAR_UPLOAD`); see `Retry-After`.",
                ),
                base=docs.AUTH_ERRORS,
            ),
        },
        summary="Upload a picture as your avatar",
        description="The body is the picture itself: a JPEG or PNG of at most 1 MiB, sent "
        "with its `Content-Type`. It is decoded and drawn again as a 256 x 256 JPEG (the "
        "middle of the picture, upright, transparency on white), with nothing of the file "
        "kept but its pixels: no EXIF, location, comment or colour profile. It replaces your "
        "avatar, built-in or uploaded; every seat, profile, leaderboard row and list shows it "
        "from then on (a match's view at its next version). Each upload gets a new `url`, "
        "which never changes, so clients may cache it for good. Players may report an "
        "avatar (POST /matches/{id}/reports with `avatar: true`), and moderators remove it.",
    )
    def put(self, request: Request) -> Response:
        user = request_user(request)
        data = request.data
        if not isinstance(data, bytes):  # an empty body: DRF gives an empty form
            raise InvalidPicture()
        updated = services.avatar_upload(user=user, data=data)
        return Response(avatar_json(updated))

    @extend_schema(
        operation_id="me_avatar_destroy",
        request=None,
        responses={
            204: None,
            **docs.errors(
                (400, docs.NO_BODY),
                (415, "A body that is not `application/json` (`unsupported_media_type`)."),
                base=docs.AUTH_ERRORS,
            ),
        },
        summary="Remove your avatar",
        description="Removes your avatar, built-in or uploaded (the same as PATCH /me with "
        "`avatar: null`); an uploaded picture is deleted. Removing none changes nothing.",
    )
    def delete(self, request: Request) -> Response:
        refuse_body(request.data)
        account_services.profile_update(user=request_user(request), avatar=None)
        return Response(status=status.HTTP_204_NO_CONTENT)
