"""Account request and response shapes."""

from typing import Any

from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError as DjangoValidationError
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers
from rest_framework.exceptions import ErrorDetail
from rest_framework.fields import get_error_detail

from accounts.avatars.catalog import CATALOG
from accounts.avatars.selectors import KINDS
from accounts.models import IdentityProvider, User
from accounts.names import clean_display_name
from accounts.services import DELETED_PREFIX
from core.serializers import (
    StrictBooleanField,
    StrictCharField,
    StrictRegexField,
    StrictRequestSerializer,
)


class RegisterRequestSerializer(StrictRequestSerializer):
    username = StrictRegexField(r"^[A-Za-z0-9_.-]{3,30}$", max_length=30)
    password = StrictCharField(min_length=8, max_length=128, write_only=True)
    # Untrimmed: the schema's lengths are of the string as sent, and a name of spaces only is
    # accounts.names' refusal (422 invalid_display_name), not a schema fault.
    display_name = StrictCharField(min_length=1, max_length=40, trim_whitespace=False)

    def validate_username(self, value: str) -> str:
        # A deleted account is left with "deleted-<id>" (accounts.services.account_delete).
        if value.casefold().startswith(DELETED_PREFIX):
            raise serializers.ValidationError(
                _("Usernames starting with deleted- are kept for deleted accounts."),
                code="reserved",
            )
        return value

    def validate_password(self, value: str) -> str:
        """Django's AUTH_PASSWORD_VALIDATORS, compared with the names the account would have
        (each failure keeps its code, e.g. ``password_too_common``)."""
        data = self.initial_data if isinstance(self.initial_data, dict) else {}
        names = {k: data[k] for k in ("username", "display_name") if isinstance(data.get(k), str)}
        validate_password(value, User(**names))
        return value

    def validate_display_name(self, value: str) -> str:
        return clean_display_name(value)  # normalised; see accounts/names.py


class LoginRequestSerializer(StrictRequestSerializer):
    # Identifiers are looked up as sent: "amal\n" is no one (no trimming, as for register).
    username = StrictCharField(max_length=150, trim_whitespace=False)
    password = StrictCharField(max_length=128, write_only=True)
    device = StrictCharField(max_length=100, required=False, allow_blank=True)


# As the push devices' (live.push.models.Language), so the schema has one LanguageEnum.
LANGUAGES = [("en", "English"), ("ar", "Arabic")]


class ProfileUpdateRequestSerializer(StrictRequestSerializer):
    display_name = StrictCharField(
        min_length=1,
        max_length=40,
        trim_whitespace=False,  # as at registration
        required=False,
        help_text="What other players see next to your seat (the rules of registration).",
    )
    language = serializers.ChoiceField(
        choices=LANGUAGES,
        allow_null=True,
        required=False,
        help_text="The language the service writes to you in; null: each request's "
        "Accept-Language.",
    )

    email = serializers.EmailField(
        max_length=254,
        allow_null=True,
        required=False,
        help_text="An address to verify: a code is mailed to it, and POST /me/email/verify "
        "makes it yours (until then `email` keeps the verified one). null: remove it.",
    )
    show_presence = StrictBooleanField(
        required=False,
        help_text="Whether the players who follow you see your presence (online, in a public "
        "match, last seen) in GET /me/friends and on their /ws/v1/me stream; false: they see "
        "you `offline` with no `last_seen`, and hear nothing of you. True for a new account.",
    )

    avatar = serializers.ChoiceField(
        choices=list(CATALOG),
        allow_null=True,
        required=False,
        help_text="A built-in avatar's id (GET /avatars); it replaces an uploaded picture, "
        "which is deleted. null: no avatar. A picture is uploaded with PUT /me/avatar.",
    )

    def validate_display_name(self, value: str) -> str:
        return clean_display_name(value)  # normalised; see accounts/names.py


class PasswordChangeRequestSerializer(StrictRequestSerializer):
    old_password = StrictCharField(max_length=128, write_only=True)
    new_password = StrictCharField(min_length=8, max_length=128, write_only=True)


def new_password_check(user: User, password: str) -> None:
    """Django's AUTH_PASSWORD_VALIDATORS against this account (its username, display name and
    email): a field error on ``new_password`` with each failure's code, e.g.
    ``password_too_similar``, as registration answers."""
    try:
        validate_password(password, user)
    except DjangoValidationError as exc:
        raise serializers.ValidationError({"new_password": get_error_detail(exc)}) from None


class AccountDeleteRequestSerializer(StrictRequestSerializer):
    password = StrictCharField(
        max_length=128,
        write_only=True,
        required=False,
        help_text="Your current password, to confirm. An account without one (made by "
        "signing in with Apple or Google) confirms with a fresh sign-in instead: `provider`, "
        "`id_token` and `nonce`, as `POST /auth/{provider}` takes them.",
    )
    provider = serializers.ChoiceField(
        choices=IdentityProvider.choices,
        required=False,
        help_text="The provider of the fresh sign-in confirming the deletion.",
    )
    id_token = StrictCharField(
        max_length=8192, required=False, write_only=True, help_text="Its ID token."
    )
    nonce = StrictCharField(
        max_length=256, required=False, write_only=True, help_text="Its nonce, if it used one."
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        """The password, or a sign-in (provider and ID token); a missing one is named as a
        missing field is."""
        if "password" in attrs:
            return attrs
        wanted = ["provider", "id_token"] if {"provider", "id_token"} & set(attrs) else ["password"]
        missing = {
            name: [ErrorDetail(str(self.fields[name].error_messages["required"]), code="required")]
            for name in wanted
            if name not in attrs
        }
        if missing:
            raise serializers.ValidationError(missing)
        return attrs


class AvatarSerializer(serializers.Serializer):
    # accounts.avatars.selectors.avatar_json: what every name in the API is shown with.
    kind = serializers.ChoiceField(
        choices=KINDS,
        help_text="`catalog`: a built-in one (GET /avatars); `picture`: one the player "
        "uploaded (PUT /me/avatar); `bot`: a bot seat's own.",
    )
    id = serializers.CharField(
        allow_null=True,
        help_text="The built-in avatar's id, or the bot's level; null for a picture.",
    )
    url = serializers.CharField(
        help_text="The image (a PNG, or a JPEG for a picture; 256 x 256): a path on this host "
        "unless the deployment serves pictures elsewhere, so resolve it against the API's "
        "origin. A given url never changes what it shows."
    )


def avatar_field(**kwargs: Any) -> AvatarSerializer:
    """An ``avatar`` field of an answer: null for a player without one and an empty seat."""
    return AvatarSerializer(
        allow_null=True,
        help_text="The avatar shown next to the name; null when none.",
        **kwargs,
    )


class UserViewSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    display_name = serializers.CharField()
    avatar = avatar_field()


class AuthAnswerSerializer(serializers.Serializer):
    token = serializers.CharField(help_text="Send as 'Authorization: Bearer <token>'.")
    user = UserViewSerializer()
