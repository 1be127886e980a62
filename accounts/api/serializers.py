"""Account request and response shapes."""

from rest_framework import serializers

from games.api.serializers import MatchSummarySerializer


class UserViewSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    display_name = serializers.CharField()


class AuthAnswerSerializer(serializers.Serializer):
    token = serializers.CharField(help_text="Send as 'Authorization: Bearer <token>'.")
    user = UserViewSerializer()


class PlayerStatsSerializer(serializers.Serializer):
    played = serializers.IntegerField(help_text="Matches started with you seated.")
    finished = serializers.IntegerField()
    won = serializers.IntegerField()
    lost = serializers.IntegerField()
    resigned = serializers.IntegerField()
    abandoned = serializers.IntegerField(help_text="Matches where your seat went away.")
    timeouts = serializers.IntegerField(help_text="Turns played for you when time ran out.")


class MeSerializer(UserViewSerializer):
    date_joined = serializers.DateTimeField()
    stats = PlayerStatsSerializer()


class InboxEntrySerializer(MatchSummarySerializer):
    pass
