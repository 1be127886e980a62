"""URL map: the v1 API, its schema and docs, the event contract, health, and the admin."""

from django.conf import settings
from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView
from rest_framework.routers import SimpleRouter

from accounts.api import views as account_views
from baloot_site import health
from games.api import me
from games.api.views import MatchViewSet
from live import asyncapi
from live.api import WsTicketView
from live.push import api as push_api
from moderation.api import MatchReportsView
from players.api import chat as chat_api

router = SimpleRouter(trailing_slash=False)
router.register("matches", MatchViewSet, basename="matches")

api_v1 = [
    path("auth/register", account_views.RegisterView.as_view(), name="auth-register"),
    path("auth/login", account_views.LoginView.as_view(), name="auth-login"),
    path("auth/logout", account_views.LogoutView.as_view(), name="auth-logout"),
    path("auth/ws-ticket", WsTicketView.as_view(), name="auth-ws-ticket"),
    path("me", me.MeView.as_view(), name="me"),
    path("me/matches", me.InboxView.as_view(), name="me-matches"),
    path("me/devices", push_api.DevicesView.as_view(), name="me-devices"),
    path("me/devices/<int:pk>", push_api.DeviceView.as_view(), name="me-device"),
    path("me/notifications", push_api.NotificationPreferencesView.as_view(), name="me-push"),
    # Before the router's patterns: moderation's own view under the matches' path.
    path("matches/<str:pk>/reports", MatchReportsView.as_view(), name="matches-reports"),
    path("matches/<str:pk>/chat", chat_api.MatchChatView.as_view(), name="matches-chat"),
    path("chat/phrases", chat_api.ChatPhrasesView.as_view(), name="chat-phrases"),
    *router.urls,
]

urlpatterns = [
    path("api/v1/", include(api_v1)),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/asyncapi/", asyncapi.asyncapi_view, name="asyncapi"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="swagger-ui"),
    path("api/redoc/", SpectacularRedocView.as_view(url_name="schema"), name="redoc"),
    path("healthz", health.healthz, name="healthz"),
    path("admin/", admin.site.urls),
]

if settings.BENCH_ENDPOINTS:
    from bench.floor import FloorView

    urlpatterns.append(path("bench/floor/<int:pk>", FloorView.as_view(), name="bench-floor"))

handler400 = "baloot_site.errors.handler400"
handler403 = "baloot_site.errors.handler403"
handler404 = "baloot_site.errors.handler404"
handler500 = "baloot_site.errors.handler500"
