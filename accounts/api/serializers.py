"""Account request and response shapes."""

from django.contrib.auth.password_validation import validate_password
from rest_framework import serializers

from accounts.models import User
from accounts.names import clean_display_name
from core.serializers import StrictCharField, StrictRegexField, StrictRequestSerializer


class RegisterRequestSerializer(StrictRequestSerializer):
    username = StrictRegexField(r"^[A-Za-z0-9_.-]{3,30}$", max_length=30)
    password = StrictCharField(min_length=8, max_length=128, write_only=True)
    display_name = StrictCharField(min_length=1, max_length=40)

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
    username = StrictCharField(max_length=150)
    password = StrictCharField(max_length=128, write_only=True)
    device = StrictCharField(max_length=100, required=False, allow_blank=True)


class UserViewSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    display_name = serializers.CharField()


class AuthAnswerSerializer(serializers.Serializer):
    token = serializers.CharField(help_text="Send as 'Authorization: Bearer <token>'.")
    user = UserViewSerializer()
