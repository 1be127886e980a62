"""The caller's own pages (``games.api.me``): profile with statistics, and the inbox."""

from __future__ import annotations

from rest_framework import serializers

from accounts.api.identities import IdentitySerializer
from accounts.api.serializers import LANGUAGES, UserViewSerializer
from games.api.serializers.match_view import MatchSummarySerializer


class PlayerStatsSerializer(serializers.Serializer):
    played = serializers.IntegerField(help_text="Matches started with you seated.")
    finished = serializers.IntegerField()
    won = serializers.IntegerField()
    lost = serializers.IntegerField()
    resigned = serializers.IntegerField()
    abandoned = serializers.IntegerField(help_text="Matches where your seat went away.")
    timeouts = serializers.IntegerField(help_text="Turns played for you when time ran out.")


class MeSerializer(UserViewSerializer):
    language = serializers.ChoiceField(
        choices=LANGUAGES,
        allow_null=True,
        help_text="The language the service writes to you in; null: each request's "
        "Accept-Language.",
    )
    email = serializers.EmailField(
        allow_null=True, help_text="Your verified email address (password reset mails go there)."
    )
    email_pending = serializers.EmailField(
        allow_null=True,
        help_text="An address waiting for its code (POST /me/email/verify); null when none.",
    )
    show_presence = serializers.BooleanField(
        help_text="Whether the players who follow you see your presence (PATCH /me)."
    )
    date_joined = serializers.DateTimeField()
    stats = PlayerStatsSerializer()
    identities = IdentitySerializer(
        many=True, help_text="Your Apple and Google sign-ins (DELETE /me/identities/{provider})."
    )


class InboxEntrySerializer(MatchSummarySerializer):
    pass
