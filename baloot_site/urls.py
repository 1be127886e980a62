"""URL map: the v1 API, its schema and docs, the event contract, health, and the admin."""

from django.conf import settings
from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView
from rest_framework.routers import SimpleRouter

from accounts.api import avatars as avatar_views
from accounts.api import identities as identity_views
from accounts.api import recovery as account_recovery
from accounts.api import views as account_views
from accounts.avatars import serving
from baloot_site import health, metrics
from games.api import me, me_email, table
from games.api.views import MatchViewSet
from live import asyncapi
from live.api import WsTicketView
from live.push import api as push_api
from moderation.api import MatchReportsView
from players.api import blocks as player_blocks
from players.api import chat as chat_api
from players.api import friends as player_friends
from players.api import invitations as player_invitations
from players.api import leaderboards, matchmaking, profiles
from players.api import rematch as player_rematch
from tournaments import api as tournament_api

router = SimpleRouter(trailing_slash=False)
router.register("matches", MatchViewSet, basename="matches")

api_v1 = [
    path("auth/register", account_views.RegisterView.as_view(), name="auth-register"),
    path("auth/login", account_views.LoginView.as_view(), name="auth-login"),
    path("auth/logout", account_views.LogoutView.as_view(), name="auth-logout"),
    path("auth/ws-ticket", WsTicketView.as_view(), name="auth-ws-ticket"),
    path(
        "auth/password-reset",
        account_recovery.PasswordResetView.as_view(),
        name="auth-password-reset",
    ),
    path(
        "auth/password-reset/confirm",
        account_recovery.PasswordResetConfirmView.as_view(),
        name="auth-password-reset-confirm",
    ),
    path("auth/apple", identity_views.AppleSignInView.as_view(), name="auth-apple"),
    path("auth/google", identity_views.GoogleSignInView.as_view(), name="auth-google"),
    path("me", me.MeView.as_view(), name="me"),
    path("me/password", account_views.PasswordView.as_view(), name="me-password"),
    path("me/avatar", avatar_views.MyAvatarView.as_view(), name="me-avatar"),
    path("avatars", avatar_views.AvatarCatalogView.as_view(), name="avatars"),
    path("me/email/verify", me_email.EmailVerifyView.as_view(), name="me-email-verify"),
    path("me/matches", me.InboxView.as_view(), name="me-matches"),
    path(
        "me/identities/<str:provider>",
        identity_views.IdentityView.as_view(),
        name="me-identity",
    ),
    path("me/devices", push_api.DevicesView.as_view(), name="me-devices"),
    path("me/devices/<int:pk>", push_api.DeviceView.as_view(), name="me-device"),
    path("me/notifications", push_api.NotificationPreferencesView.as_view(), name="me-push"),
    path("players/<str:username>", profiles.PlayerProfileView.as_view(), name="players-profile"),
    path("leaderboards/<str:ruleset>", leaderboards.LeaderboardView.as_view(), name="leaderboards"),
    path("me/friends", player_friends.FriendsView.as_view(), name="me-friends"),
    path("me/friends/<str:username>", player_friends.FriendView.as_view(), name="me-friend"),
    path("me/blocks", player_blocks.BlocksView.as_view(), name="me-blocks"),
    path("me/blocks/<str:username>", player_blocks.BlockView.as_view(), name="me-block"),
    path("me/invitations", player_invitations.MyInvitationsView.as_view(), name="me-invitations"),
    path(
        "invitations/<str:pk>/accept",
        player_invitations.InvitationAcceptView.as_view(),
        name="invitations-accept",
    ),
    path(
        "invitations/<str:pk>/decline",
        player_invitations.InvitationDeclineView.as_view(),
        name="invitations-decline",
    ),
    # Before the router's patterns: moderation's and players' own views under the matches' path.
    path(
        "matches/<str:pk>/invitations",
        player_invitations.MatchInvitationsView.as_view(),
        name="matches-invitations",
    ),
    path(
        "matches/<str:pk>/rematch",
        player_rematch.MatchRematchView.as_view(),
        name="matches-rematch",
    ),
    path("matchmaking", matchmaking.MatchmakingView.as_view(), name="matchmaking"),
    path("matches/<str:pk>/reports", MatchReportsView.as_view(), name="matches-reports"),
    path("matches/<str:pk>/bots", table.MatchBotsView.as_view(), name="matches-bots"),
    path("matches/<str:pk>/bots/<int:seat>", table.MatchBotView.as_view(), name="matches-bot"),
    path("matches/<str:pk>/chat", chat_api.MatchChatView.as_view(), name="matches-chat"),
    path("chat/phrases", chat_api.ChatPhrasesView.as_view(), name="chat-phrases"),
    path("tournaments", tournament_api.TournamentsView.as_view(), name="tournaments"),
    path("tournaments/<str:pk>", tournament_api.TournamentView.as_view(), name="tournament"),
    path(
        "tournaments/<str:pk>/entries",
        tournament_api.TournamentEntriesView.as_view(),
        name="tournament-entries",
    ),
    path(
        "tournaments/<str:pk>/entries/mine",
        tournament_api.MyEntryView.as_view(),
        name="tournament-entry-mine",
    ),
    path(
        "tournaments/<str:pk>/entries/<str:entry_id>/accept",
        tournament_api.TournamentEntryAcceptView.as_view(),
        name="tournament-entry-accept",
    ),
    path(
        "tournaments/<str:pk>/standings",
        tournament_api.StandingsView.as_view(),
        name="tournament-standings",
    ),
    path(
        "tournaments/<str:pk>/rounds", tournament_api.RoundsView.as_view(), name="tournament-rounds"
    ),
    *router.urls,
]

urlpatterns = [
    path("api/v1/", include(api_v1)),
    path("metrics", metrics.metrics_view, name="metrics"),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/asyncapi/", asyncapi.asyncapi_view, name="asyncapi"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="swagger-ui"),
    path("api/redoc/", SpectacularRedocView.as_view(url_name="schema"), name="redoc"),
    path("healthz", health.healthz, name="healthz"),
    path("admin/", admin.site.urls),
]

if settings.SERVE_MEDIA:
    urlpatterns.append(
        path(
            f"{settings.MEDIA_URL.strip('/')}/avatars/<str:name>",
            serving.picture_view,
            name="avatar-picture",
        )
    )

if settings.BENCH_ENDPOINTS:
    from bench.floor import FloorView

    urlpatterns.append(path("bench/floor/<int:pk>", FloorView.as_view(), name="bench-floor"))

handler400 = "baloot_site.errors.handler400"
handler403 = "baloot_site.errors.handler403"
handler404 = "baloot_site.errors.handler404"
handler500 = "baloot_site.errors.handler500"
