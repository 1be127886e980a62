"""Settings, read from the environment (see .env.example for every variable).

The defaults run on a laptop with nothing installed: SQLite, and a Celery broker that is a
SQLite file too (baloot_site/broker.py), under ./var. Production sets DATABASE_URL
(PostgreSQL, psycopg 3) and CELERY_BROKER_URL (Redis).
"""

import contextlib
import logging
import os
import secrets
from datetime import timedelta
from pathlib import Path

import environ

BASE_DIR = Path(__file__).resolve().parent.parent
# Local state of the embedded defaults (SQLite, broker files), beat's schedule and collected
# static files. The image installs the project into site-packages and points this at a
# writable folder of its own (docker/Dockerfile).
VAR_DIR = Path(os.environ.get("BALOOT_VAR_DIR") or BASE_DIR / "var")
VAR_DIR.mkdir(parents=True, exist_ok=True)

env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env", overwrite=False)


def _local_secret_key(path: Path) -> str:
    """A random key made once per installation and kept in ``var/`` (mode 0600), for when
    DJANGO_SECRET_KEY is not set: the key signs sessions and seeds the bots' choices, so a
    key everyone can read in the repository would let a client recompute a bot's hand."""
    if not path.exists():
        # Written aside, then linked into place: a process starting at the same moment either
        # sees no file yet or a whole one, never a half-written key.
        draft = path.with_name(f"{path.name}.{os.getpid()}")
        draft.touch(mode=0o600)
        draft.write_text(secrets.token_urlsafe(50))
        with contextlib.suppress(FileExistsError):
            os.link(draft, path)
        draft.unlink()
    return path.read_text().strip()


SECRET_KEY = env.str("DJANGO_SECRET_KEY", default="") or _local_secret_key(VAR_DIR / "secret-key")
DEBUG = env.bool("DJANGO_DEBUG", default=False)
ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("DJANGO_CSRF_TRUSTED_ORIGINS", default=[])
# The largest request body, API and admin alike (baloot_site/middleware.py answers 413 beyond
# it). Moves are a few hundred bytes; the admin's forms are the biggest bodies we take.
DATA_UPLOAD_MAX_MEMORY_SIZE = env.int("BALOOT_MAX_BODY_BYTES", default=1024 * 1024)
# A CSRF refusal (the admin's forms) in the one problem shape, like every other error.
CSRF_FAILURE_VIEW = "baloot_site.errors.csrf_failure"

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_filters",
    # Failed-login backoff per account (API and admin); its records are AccessAttempt rows.
    "axes",
    "accounts",
    "games",
    "players",
    "moderation",
    "tournaments",
    "live",
    "live.push",
]

MIDDLEWARE = [
    # Outermost of all: a request's time by route for GET /metrics (baloot_site/metrics.py),
    # refusals made by the middleware below included.
    "baloot_site.metrics.RequestMetricsMiddleware",
    # Outermost: the language (Accept-Language, else English) is chosen before any answer is
    # made, so every error body, the 413 and the bare error problems below included, is in
    # it; it sets Content-Language and Vary on the way out. It reads headers only, never the
    # body. The account's own language wins once authentication knows the user (core.i18n).
    "django.middleware.locale.LocaleMiddleware",
    # Then: an oversized body is refused (413) before anything reads it.
    "baloot_site.middleware.BodySizeLimitMiddleware",
    # Bare error answers of Django's own views (e.g. the admin's 405) in the problem shape.
    "baloot_site.middleware.BareErrorProblemMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # The admin's signed-in user reads it in their own language (the API's bearer clients
    # get theirs in accounts.authentication).
    "core.i18n.SessionUserLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last, as axes requires: it turns a lockout flagged during the view into its answer.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "baloot_site.urls"
WSGI_APPLICATION = "baloot_site.wsgi.application"
ASGI_APPLICATION = "baloot_site.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {
    "default": env.db_url(
        "DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'db.sqlite3'}", engine=None
    ),
}
DATABASES["default"]["ATOMIC_REQUESTS"] = False
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # SQLite serialises writers; wait for the lock instead of failing at once, and take the
    # write lock at BEGIN so select_for_update-style read-modify-write stays serial.
    # WAL lets readers carry on while a writer commits (the web process and a worker share
    # the file).
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "timeout": 20,
            "transaction_mode": "IMMEDIATE",
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )
    # A file, not memory, so a Celery worker process in the integration tests sees it too.
    # Per process, so two test runs on one machine never share (and destroy) one file.
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / f"test-{os.getpid()}.sqlite3")}
else:
    # Per process, like the SQLite file above: concurrent test runs never share a database.
    DATABASES["default"]["TEST"] = {"NAME": f"test_{DATABASES['default']['NAME']}_{os.getpid()}"}
# Connections outlive the request (health-checked on PostgreSQL: a dead one is dropped at the
# next request's start). The web process serves HTTP on a fixed pool of threads
# (baloot_site/http_handler.py), so a thread's connection is reused by its next request; on
# SQLite too, where opening one costs the WAL pragmas.
DATABASES["default"]["CONN_MAX_AGE"] = env.int("DATABASE_CONN_MAX_AGE", default=60)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
if DATABASES["default"]["ENGINE"] != "django.db.backends.sqlite3" and env.bool(
    "DATABASE_POOL", default=False
):
    # Off by default for now: with it on, the PostgreSQL restart drill's process waited out the
    # pool's timeout for a connection after the restart instead of getting a fresh one.
    # PostgreSQL: Django's psycopg pool, one per process. A request takes a connection at its
    # first query and gives it back when it ends (CONN_MAX_AGE must then be 0), so a process
    # holds as many as it serves at once, not one per thread it ever ran; the pool checks a
    # connection as it hands it out (CONN_HEALTH_CHECKS) and drops idle ones after 10 minutes.
    # Celery's worker processes run without it (baloot_site/celery.py).
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 1,
        "max_size": env.int("DATABASE_POOL_MAX_SIZE", default=20),
        # A request waits this long for a free connection, then answers 503.
        "timeout": env.float("DATABASE_POOL_TIMEOUT", default=10.0),
    }
# The web process's HTTP threads: requests served at once (a request waiting on a row lock
# holds one), and at most as many database connections.
BALOOT_HTTP_THREADS = env.int("BALOOT_HTTP_THREADS", default=8)

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_USER_MODEL = "accounts.User"
# Axes first: it refuses a locked-out account before ModelBackend checks (hashes) a password.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

AUTH_PASSWORD_VALIDATORS = [
    {
        "NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator",
        # display_name too: it is public, so a password close to it is a guessable one.
        "OPTIONS": {"user_attributes": ["username", "display_name", "email"]},
    },
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
PASSWORD_HASHERS = env.list(
    "DJANGO_PASSWORD_HASHERS",
    default=[
        "django.contrib.auth.hashers.PBKDF2PasswordHasher",
        "django.contrib.auth.hashers.PBKDF2SHA1PasswordHasher",
    ],
)

LANGUAGE_CODE = "en"
# The two languages of the app; an account's ``language`` (accounts.User) names one of them.
LANGUAGES = [("en", "English"), ("ar", "العربية")]
# One catalog for the whole project (errors, bot names, score-sheet labels, the admin, push
# texts), inside a package so a regular install carries it (pyproject package-data); its .mo
# is compiled and committed. It comes before the apps' catalogs, so it may also word one of
# Django's or DRF's messages our way.
LOCALE_PATHS = [BASE_DIR / "baloot_site" / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
STATIC_ROOT.mkdir(exist_ok=True)
# WhiteNoise serves the admin's and Swagger UI's assets from the app directories in
# development and from STATIC_ROOT (collectstatic) in the image, with no web server in front.
WHITENOISE_USE_FINDERS = True
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

# Uploaded avatars (accounts.avatars) go through the default storage: files under MEDIA_ROOT,
# served at MEDIA_URL by the app itself (SERVE_MEDIA) unless MEDIA_URL is another host's.
MEDIA_ROOT = env.path("MEDIA_ROOT", default=str(VAR_DIR / "media"))
MEDIA_URL = env.str("MEDIA_URL", default="/media/")
SERVE_MEDIA = env.bool("SERVE_MEDIA", default=not MEDIA_URL.startswith(("http://", "https://")))

CACHES = {"default": env.cache_url("CACHE_URL", default="locmemcache://baloot")}
# Push delivery's leases and circuit breakers (live/push/limits.py) must be seen by every push
# worker process, and taken atomically: the default cache when it is Redis or memcached, else a
# table in the database (created by a migration of live.push): the embedded default is per
# process, a file cache's `add` is not atomic, a dummy cache holds nothing.
_push_cache_default = (
    env.str("CACHE_URL")
    if "redis" in CACHES["default"]["BACKEND"] or "memcached" in CACHES["default"]["BACKEND"]
    else "dbcache://push_cache"
)
CACHES["push"] = env.cache_url("PUSH_CACHE_URL", default=_push_cache_default)
CACHES["push"].setdefault("KEY_PREFIX", "push")
if CACHES["push"]["BACKEND"].endswith("DatabaseCache"):
    # Culling drops a third of the entries once there are MAX_ENTRIES: leases must not go.
    CACHES["push"].setdefault("OPTIONS", {}).setdefault("MAX_ENTRIES", 100_000)


def _as_one_line_warning(record: logging.LogRecord) -> bool:
    """A bad Host header is the client's mistake (answered 400), not our error: Django logs it
    at ERROR with a traceback, which lets anyone fill the log and trip error alerts."""
    record.levelno, record.levelname, record.exc_info, record.exc_text = (
        logging.WARNING,
        "WARNING",
        None,
        None,
    )
    return True


# LOG_FORMAT=json: one JSON object a line (python-json-logger), for a log collector; else text.
LOG_FORMAT = env.str("LOG_FORMAT", default="text").lower()
_LOG_LINE = "%(asctime)s %(levelname)s %(name)s %(message)s"
_FORMATTERS: dict[str, dict[str, object]] = {
    "plain": {"format": _LOG_LINE}
    if LOG_FORMAT != "json"
    else {
        # {"time": ISO 8601 UTC, "level", "logger", "message"}, and "exc_info" with a traceback.
        "()": "pythonjsonlogger.json.JsonFormatter",
        "format": "%(levelname)s %(name)s %(message)s",
        "rename_fields": {"levelname": "level", "name": "logger"},
        "timestamp": "time",
    }
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": _FORMATTERS,
    "filters": {
        "one_line_warning": {
            "()": "django.utils.log.CallbackFilter",
            "callback": _as_one_line_warning,
        }
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler", "formatter": "plain"},
        "client_mistakes": {
            "class": "logging.StreamHandler",
            "formatter": "plain",
            "filters": ["one_line_warning"],
        },
    },
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
    "loggers": {
        "django.db.backends": {"level": "WARNING"},
        "django.security.DisallowedHost": {"handlers": ["client_mistakes"], "propagate": False},
    },
}

# --- Operators' metrics --------------------------------------------------------------------

# GET /metrics (Prometheus text; baloot_site/metrics.py): empty, the endpoint does not exist
# (404); set, a scrape sends "Authorization: Bearer <METRICS_TOKEN>", anything else is 401.
METRICS_TOKEN = env.str("METRICS_TOKEN", default="")

# --- Client addresses, failed logins ----------------------------------------------------

# How many reverse proxies of ours stand in front of the app. 0: X-Forwarded-For is ignored and
# the peer address is the client; N: the Nth address from the right of X-Forwarded-For
# (core/client_ip.py). Rate limits and failed-login records both use it.
BALOOT_TRUSTED_PROXIES = env.int("BALOOT_TRUSTED_PROXIES", default=0)

# django-axes: after BALOOT_LOGIN_FAILURE_LIMIT wrong passwords for one username, that username
# cannot log in (API or admin) for BALOOT_LOGIN_COOLOFF_MINUTES, then starts afresh.
AXES_FAILURE_LIMIT = env.int("BALOOT_LOGIN_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = timedelta(minutes=env.float("BALOOT_LOGIN_COOLOFF_MINUTES", default=15))
# Per account, whatever the address: rotating addresses buys no extra guesses.
AXES_LOCKOUT_PARAMETERS = ["username"]
# axes warns that without "ip_address" rotating User-Agents bypasses the lockout. Not so here:
# the username alone selects the records (tests/security prove it). Adding the address would
# lock out everyone behind one NAT or carrier address after five typos; guessing across many
# accounts from one address is what the per-address rate limit (auth_address) is for.
SILENCED_SYSTEM_CHECKS = ["axes.W006"]
AXES_RESET_ON_SUCCESS = True
# Attempts during a lockout do not extend it, so hammering a locked account cannot keep its
# owner out for longer than one cool-off; and Retry-After stays true.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_CLIENT_IP_CALLABLE = "core.client_ip.client_ip"
# The lockout answer is the API's problem shape, 429 `login_locked` with Retry-After.
AXES_LOCKOUT_CALLABLE = "accounts.lockout.lockout_response"
# Only failures are recorded: logins are per device token, and a row per login would grow
# without bound (and make axes create a session for every API login).
AXES_DISABLE_ACCESS_LOG = True

# --- Sign in with Apple and Google (accounts/providers.py) ----------------------------------

# The app's client ids each provider issues ID tokens for (an ID token's `aud` must be one):
# Apple, the app's bundle id (and a Services ID for the web); Google, the OAuth client ids of
# the Android, iOS and web apps. Empty: that provider's sign-in answers 404
# `provider_not_configured`.
AUTH_APPLE_CLIENT_IDS = env.list("AUTH_APPLE_CLIENT_IDS", default=[])
AUTH_GOOGLE_CLIENT_IDS = env.list("AUTH_GOOGLE_CLIENT_IDS", default=[])
# Where each provider publishes the keys its ID tokens are signed with (a JWKS). Fetched
# through the outbound guard (core/outbound.py: public addresses, plus
# OUTBOUND_ALLOWED_NETWORKS), with timeouts, and cached per process.
AUTH_APPLE_JWKS_URL = env.str("AUTH_APPLE_JWKS_URL", default="https://appleid.apple.com/auth/keys")
AUTH_GOOGLE_JWKS_URL = env.str(
    "AUTH_GOOGLE_JWKS_URL", default="https://www.googleapis.com/oauth2/v3/certs"
)

# --- REST framework and the OpenAPI contract ------------------------------------------------

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "accounts.authentication.BearerTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_RENDERER_CLASSES": [
        "rest_framework.renderers.JSONRenderer",
        # The browsable API only while developing.
        *(["rest_framework.renderers.BrowsableAPIRenderer"] if DEBUG else []),
    ],
    # DRF's JSON parser with the nesting depth bounded (deep nesting is a RecursionError).
    "DEFAULT_PARSER_CLASSES": ["baloot_site.parsers.BoundedJSONParser"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "baloot_site.errors.problem_exception_handler",
    # Our throttles read the address through core.client_ip; this keeps any stock DRF
    # throttle on the same rule.
    "NUM_PROXIES": BALOOT_TRUSTED_PROXIES,
    "DEFAULT_THROTTLE_CLASSES": ["core.throttling.FailOpenScopedRateThrottle"],
    "DEFAULT_THROTTLE_RATES": {
        "auth": env.str("RATE_AUTH", default="30/min"),
        # Register and login together, per client address (core.throttling).
        "auth_address": env.str("RATE_AUTH_ADDRESS", default="100/hour"),
        "moves": env.str("RATE_MOVES", default="240/min"),
        "match_create": env.str("RATE_MATCH_CREATE", default="30/min"),
        "join": env.str("RATE_JOIN", default="60/min"),
        "reads": env.str("RATE_READS", default="1200/min"),
        "reports": env.str("RATE_REPORTS", default="10/hour"),
        # Each upload is decoded and drawn again (accounts.avatars.pictures).
        "avatar_upload": env.str("RATE_AVATAR_UPLOAD", default="20/hour"),
        "push": env.str("RATE_PUSH", default="60/min"),
        "ws_ticket": env.str("RATE_WS_TICKET", default="60/min"),
        # Quick chat, per user and match (players.api.chat): 10 a minute, 1 per 2 seconds.
        "chat": env.str("RATE_CHAT", default="10/min"),
        "chat_burst": env.str("RATE_CHAT_BURST", default="1/2s"),
        # Mail and its codes (accounts.api.recovery): verification mails per user, codes tried
        # per account, reset mails per login, and reset requests and confirmations per address.
        "email_send": env.str("RATE_EMAIL_SEND", default="5/hour"),
        "email_code": env.str("RATE_EMAIL_CODE", default="10/hour"),
        "password_reset": env.str("RATE_PASSWORD_RESET", default="5/hour"),
        "password_reset_address": env.str("RATE_PASSWORD_RESET_ADDRESS", default="30/hour"),
    },
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Baloot API",
    "DESCRIPTION": (
        "Turn-based Baloot for mobile clients. The server is the referee: every move goes "
        "through the rules engine; clients read legality and scores, and play from "
        "`round.legal_moves` (which includes the suggested declaration while declaring is "
        "legal).\n\n"
        "- **Auth**: `Authorization: Bearer <token>` from `POST /api/v1/auth/register` or "
        "`/auth/login`, one token per device.\n"
        "- **Versions**: every change bumps the match `version`; reads carry it in the body "
        "and in `ETag`, and `If-None-Match` answers 304. A move may send `expected_version` "
        "(409 `stale_version` with `current_version` when stale) and an `Idempotency-Key` "
        "header so that a retry never plays twice.\n"
        "- **Errors** are RFC 9457 problem details (`application/problem+json`) with a stable "
        "`code` (the `ErrorCodeEnum` component lists them all); 429 and 503 carry "
        "`Retry-After` in whole seconds.\n"
        "- **Fair dealing**: each round's `deck_commitment` is the lowercase hex SHA-256 of "
        'the UTF-8 text `salt + ":" + ",".join(deck)`, where `salt` is 32 random hex '
        "characters and `deck` the 32 card names in dealing order. The round's record "
        "(`GET /api/v1/matches/{id}/rounds/{number}/record`, once the round is over) reveals "
        "`deck` and `salt`, so anyone can recompute it.\n\n"
        "A guide for client developers is `docs/clients.md` in this service's repository."
    ),
    # Paths in this document are absolute ("/api/v1/..."): the one server is the host that
    # serves the document, whatever its name.
    "SERVERS": [{"url": "/", "description": "The server that serves this document."}],
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI and ReDoc assets ship with the app (no CDN needed).
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # OpenAPI 3.1: its schemas are JSON Schema 2020-12, so a nullable field is typed
    # (`type: [T, "null"]`) rather than a bare `nullable: true` that strict validators reject.
    "OAS_VERSION": "3.1.0",
    "SCHEMA_PATH_PREFIX": r"/api/v1",
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "core.docs.reference_named_enums",
        "baloot_site.schema.add_error_code_enum",
        "core.docs.add_transport_answers",
        "core.docs.tidy_discriminated_unions",
        "core.docs.require_bodies_that_require_fields",
    ],
    # A hand, named so that a list of four (a Sawa's revealed hands, one per seat) is a list of
    # references (games.api.serializers.fields.SeatHandsField says why).
    "APPEND_COMPONENTS": {
        "schemas": {
            "Hand": {
                "type": "array",
                "items": {"$ref": "#/components/schemas/CardEnum"},
                "description": "One seat's cards, in card order.",
            }
        }
    },
    "ENUM_NAME_OVERRIDES": {
        "MatchStatusEnum": "games.models.MatchStatus",
        "VisibilityEnum": "games.models.Visibility",
        "EndReasonEnum": "games.models.EndReason",
        "BotLevelEnum": "games.levels.BotLevel",
        "ActorEnum": "games.models.Actor",
        "MoveTypeEnum": ["bid", "double", "declare", "play", "sawa"],
        "ProjectKindEnum": ["sira", "50", "100", "400"],
        "PhaseEnum": "games.api.schema_enums.PHASES",
        "SuitEnum": "games.api.schema_enums.SUITS",
        "CardEnum": "games.api.schema_enums.CARDS",
        "ContractKindEnum": ["hokum", "sun", "ashkal"],
        "ModeEnum": ["hokum", "sun"],
        "BidCallEnum": "games.api.schema_enums.BID_CALLS",
        "DoubleCallEnum": "games.api.schema_enums.DOUBLE_CALLS",
        "CallEnum": "games.api.schema_enums.CALLS",
        "CallTypeEnum": ["bid", "double"],
        "RoundStatusEnum": ["complete", "redeal"],
        "ReportReasonEnum": "moderation.models.ReportReason",
        "ReportStatusEnum": "moderation.models.ReportStatus",
        # One component per closed set, whatever the field is called or whichever side of
        # the exchange it is on (issue 26): requests and answers share the type.
        "RulesetEnum": "games.api.schema_enums.RULESETS",
        "PhraseEnum": "players.api.chat.PHRASE_ENUM",
        "PhraseKindEnum": ["phrase", "emote"],
        "TurnSecondsEnum": "players.api.matchmaking.TURN_SECONDS_ENUM",
        "PeriodEnum": ["all", "week"],
        "PresenceEnum": "players.presence.STATES",
        "TournamentStatusEnum": "tournaments.models.TournamentStatus",
        "TournamentFormatEnum": "tournaments.models.Format",
        "EntryStatusEnum": "tournaments.models.EntryStatus",
        "TournamentRoundStatusEnum": "tournaments.models.RoundStatus",
        "PairingOutcomeEnum": "tournaments.models.Outcome",
        "TournamentListStatusEnum": ["upcoming", "running", "finished"],
    },
}

# --- Game service ------------------------------------------------------------------------

BALOOT = {
    "DEFAULT_TURN_SECONDS": 86400,
    "MIN_TURN_SECONDS": 2,
    "MAX_TURN_SECONDS": 604800,
    "IDEMPOTENCY_TTL_HOURS": 24,
    "AWAY_AFTER_TIMEOUTS": 3,
    "SWEEP_SECONDS": env.float("BALOOT_SWEEP_SECONDS", default=1.0),
    # /healthz answers 503 when no deadline sweep has completed for this many seconds.
    "HEALTH_SWEEP_MAX_AGE": env.float("BALOOT_HEALTH_SWEEP_MAX_AGE", default=10.0),
    "BOT_TIME_BUDGET": env.float("BALOOT_BOT_TIME_BUDGET", default=0.04),
    # The hard bot's thinking time per decision, in seconds; its turns run on their own queue.
    "HARD_BOT_TIME_BUDGET": env.float("BALOOT_HARD_BOT_TIME_BUDGET", default=1.0),
    # Rating farming (issue 23): two accounts on opposite teams meet in at most this many
    # rated matches in a rolling 24 hours; a later start of a rated table with such a pair is
    # casual (players/services/ratings.py).
    "RATED_MEETINGS_PER_DAY": env.int("BALOOT_RATED_MEETINGS_PER_DAY", default=3),
    # An account beating the same opponent in this many rated matches or more, and in this
    # share of their meetings, within this many days is flagged to the moderators with those
    # matches as evidence (moderation.Flag). A share, not a streak: a farm that throws a match
    # now and then is still seen.
    "ONE_SIDED_FLAG_WINS": env.int("BALOOT_ONE_SIDED_FLAG_WINS", default=5),
    "ONE_SIDED_FLAG_DAYS": env.int("BALOOT_ONE_SIDED_FLAG_DAYS", default=7),
    "ONE_SIDED_FLAG_SHARE": env.float("BALOOT_ONE_SIDED_FLAG_SHARE", default=0.8),
    # Fair-play signals (moderation/fairplay.py): each test reads a subject's last this many
    # analysed matches not yet evidence of a flag of its kind, and flags a share above the
    # honest baseline at this significance, on at least this many trials. The baselines are
    # above the highest share honest bots show (make bench-fairplay, bench/RESULTS.md).
    "FAIRPLAY_ALPHA": env.float("BALOOT_FAIRPLAY_ALPHA", default=1e-4),
    "FAIRPLAY_SHARED_WINDOW": env.int("BALOOT_FAIRPLAY_SHARED_WINDOW", default=20),
    "FAIRPLAY_SHARED_BASELINE": env.float("BALOOT_FAIRPLAY_SHARED_BASELINE", default=0.65),
    "FAIRPLAY_SHARED_MIN_TRIALS": env.int("BALOOT_FAIRPLAY_SHARED_MIN_TRIALS", default=40),
    "FAIRPLAY_ENGINE_WINDOW": env.int("BALOOT_FAIRPLAY_ENGINE_WINDOW", default=100),
    "FAIRPLAY_ENGINE_BASELINE": env.float("BALOOT_FAIRPLAY_ENGINE_BASELINE", default=0.95),
    "FAIRPLAY_ENGINE_MIN_TRIALS": env.int("BALOOT_FAIRPLAY_ENGINE_MIN_TRIALS", default=200),
}

# --- Live delivery (live/) ---------------------------------------------------------------

# The stream's channel layer: Redis (channels-redis) when CHANNEL_LAYER_URL is set, or else the
# Redis of CELERY_BROKER_URL when it is one; otherwise the in-memory layer inside each web
# process, fed by the table relay (live/relay.py), since the embedded default has no server.
_broker = env.str("CELERY_BROKER_URL", default="")
CHANNEL_LAYER_URL = env.str(
    "CHANNEL_LAYER_URL", default=_broker if _broker.startswith(("redis://", "rediss://")) else ""
)
LIVE = {
    "RELAY": "redis" if CHANNEL_LAYER_URL else "table",
    # The table relay's tail interval, and how long its rows are kept (beat purges older ones).
    "POLL_SECONDS": env.float("LIVE_POLL_SECONDS", default=0.05),
    "EVENT_TTL_SECONDS": env.float("LIVE_EVENT_TTL_SECONDS", default=600.0),
    # How often an open connection re-checks its token (revoked, sanctioned) and re-reads.
    "RECHECK_SECONDS": env.float("LIVE_RECHECK_SECONDS", default=5.0),
    "MAX_CONNECTIONS_PER_USER": env.int("LIVE_MAX_CONNECTIONS_PER_USER", default=20),
    "TICKET_SECONDS": 60,
}
if CHANNEL_LAYER_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {
                # redis-py caps a pool at 100 connections unless told; a web process with
                # thousands of streams joins and leaves groups faster than that when many
                # connect or drop at once.
                "hosts": [
                    {
                        "address": CHANNEL_LAYER_URL,
                        "max_connections": env.int("CHANNEL_LAYER_MAX_CONNECTIONS", default=1000),
                        # channels-redis waits for a message with a 5 s BZPOPMIN; redis-py (8)
                        # gives up on any reply after 5 s by default, so under load the read
                        # timed out first and killed the stream's consumer. Longer than the
                        # block, still short enough to notice a Redis that went silent.
                        "socket_timeout": env.float("CHANNEL_LAYER_SOCKET_TIMEOUT", default=30),
                    }
                ],
                # Several deployments (or test runs) may share one Redis.
                "prefix": env.str("CHANNEL_LAYER_PREFIX", default="baloot"),
                "capacity": 1000,
            },
        }
    }
else:
    CHANNEL_LAYERS = {
        "default": {"BACKEND": "channels.layers.InMemoryChannelLayer", "CONFIG": {"capacity": 1000}}
    }

# The HTTP benchmarks' floor endpoint (bench/floor.py); never on in production.
BENCH_ENDPOINTS = env.bool("BALOOT_BENCH_ENDPOINTS", default=False)

# --- Celery ------------------------------------------------------------------------------

# The embedded default is a SQLite file served by kombu's SQLAlchemy transport
# (baloot_site/broker.py explains the choice); any kombu URL (redis://...) replaces it.
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default=f"sqlite:///{VAR_DIR / 'broker.sqlite3'}")
if CELERY_BROKER_URL.startswith("sqlite:"):
    CELERY_BROKER_TRANSPORT = "baloot_site.broker:Transport"
    # The transport polls its table; kombu's default 1 s would delay every bot move.
    CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, object] = {"polling_interval": 0.05}
else:
    CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 3600}
# Three queues. Celery's default takes the fast bots' turns, deadlines, the sweep and every other
# task; the hard bot's turns, which think for a second, go to one of their own with workers of
# their own (games/tasks.py, HARD_BOT_QUEUE), so they never make those wait; push delivery, which
# waits on other people's servers, goes to `push` (live/push/tasks.py, PUSH_QUEUE), so a slow
# push service can hold only the push worker's processes, never a bot's turn or a deadline.
CELERY_TASK_DEFAULT_QUEUE = "celery"
CELERY_TASK_ROUTES = {
    "games.tasks.play_hard_bot_turn": {"queue": "bots-hard"},
    "games.tasks.analyse_match": {"queue": "analysis"},
    "games.tasks.sweep_analyses": {"queue": "analysis"},
    "live.push.tasks.deliver_notification": {"queue": "push"},
    "live.push.tasks.sweep_outbox": {"queue": "push"},
    "live.push.tasks.purge_outbox": {"queue": "push"},
}
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_TIME_LIMIT = 30
CELERY_TASK_SOFT_TIME_LIMIT = 20
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BEAT_SCHEDULE = {
    "sweep-deadlines": {
        "task": "games.tasks.sweep_deadlines",
        "schedule": BALOOT["SWEEP_SECONDS"],
    },
    # Post-game analyses whose task was lost (games.tasks.sweep_analyses).
    "sweep-analyses": {
        "task": "games.tasks.sweep_analyses",
        "schedule": 300.0,
    },
    # Idempotency records past BALOOT["IDEMPOTENCY_TTL_HOURS"] (games/idempotency.py).
    "purge-idempotency-records": {
        "task": "games.tasks.purge_idempotency_records",
        "schedule": 600.0,
    },
    # The table relay's rows, once every web process has read them (live/relay.py).
    "purge-live-events": {"task": "live.tasks.purge_live_events", "schedule": 60.0},
}
# --- Push notifications (live.push) ----------------------------------------------------------

# The backend per platform: "log" (writes the payload to the log; the embedded default, so
# nothing needs credentials) or the platform's own: "fcm", "apns", "webpush".
PUSH_BACKENDS = env.dict("PUSH_BACKENDS", default={"fcm": "log", "apns": "log", "webpush": "log"})
PUSH_MAX_ATTEMPTS = env.int("PUSH_MAX_ATTEMPTS", default=6)
# Retry n waits PUSH_BACKOFF_SECONDS * 2**(n-1), at most an hour.
PUSH_BACKOFF_SECONDS = env.float("PUSH_BACKOFF_SECONDS", default=10.0)
# A claimed row is left alone this long; a worker killed mid-send is retried after it.
PUSH_LEASE_SECONDS = env.float("PUSH_LEASE_SECONDS", default=60.0)
PUSH_SWEEP_SECONDS = env.float("PUSH_SWEEP_SECONDS", default=15.0)
PUSH_SWEEP_LIMIT = 200
# Every send to a push service: how long to wait for the connection (TLS included), and for
# each read (and write) after it. Short: a push service that does not answer within seconds
# is down for us, and its row is retried later.
PUSH_CONNECT_TIMEOUT_SECONDS = env.float("PUSH_CONNECT_TIMEOUT_SECONDS", default=3.0)
PUSH_TIMEOUT_SECONDS = env.float("PUSH_TIMEOUT_SECONDS", default=5.0)
# Sends in flight at once, across every push worker process (leases in the "push" cache,
# live/push/limits.py): to one host (a push service, or a Web Push endpoint's host), and for
# one user. A send that finds no free slot within PUSH_SLOT_WAIT_SECONDS is deferred: its row
# is retried later without spending an attempt.
PUSH_HOST_CONCURRENCY = env.int("PUSH_HOST_CONCURRENCY", default=3)
PUSH_USER_CONCURRENCY = env.int("PUSH_USER_CONCURRENCY", default=2)
PUSH_SLOT_WAIT_SECONDS = env.float("PUSH_SLOT_WAIT_SECONDS", default=1.0)
# The per-host circuit breaker: after this many failures in a row (timeouts, refused
# connections, 5xx, 429) a host is skipped for PUSH_BREAKER_COOLDOWN_SECONDS; its rows wait
# out the cool-down as retries that spend no attempt; then one send probes the host again.
PUSH_BREAKER_FAILURES = env.int("PUSH_BREAKER_FAILURES", default=5)
PUSH_BREAKER_COOLDOWN_SECONDS = env.float("PUSH_BREAKER_COOLDOWN_SECONDS", default=60.0)
# One delivery task stops starting sends after this long and defers the rest of its devices,
# well inside the task's soft time limit (CELERY_TASK_SOFT_TIME_LIMIT).
PUSH_DELIVERY_BUDGET_SECONDS = env.float("PUSH_DELIVERY_BUDGET_SECONDS", default=10.0)
PUSH_TTL_SECONDS = env.int("PUSH_TTL_SECONDS", default=86400)
PUSH_MAX_DEVICES_PER_USER = env.int("PUSH_MAX_DEVICES_PER_USER", default=20)
# Settled notifications (sent, failed, skipped) are deleted after this many days.
PUSH_KEEP_DAYS = env.float("PUSH_KEEP_DAYS", default=7.0)
# Web Push: the VAPID key (base64url DER or raw, as `vapid --gen` writes, or a PEM file path)
# and its subject (mailto: or https:). Only https endpoints are accepted unless
# WEBPUSH_ALLOW_HTTP (tests: a local push service).
WEBPUSH_VAPID_PRIVATE_KEY = env.str("WEBPUSH_VAPID_PRIVATE_KEY", default="")
WEBPUSH_VAPID_SUBJECT = env.str("WEBPUSH_VAPID_SUBJECT", default="mailto:ops@baloot.invalid")
WEBPUSH_ALLOW_HTTP = env.bool("WEBPUSH_ALLOW_HTTP", default=False)
# A Web Push endpoint is a URL a client gave us (live/push/endpoints.py): on a DNS name, never
# an address. The ports it may name (one that names none is on 443), and, when not empty, the
# push services it may be on ("web.push.apple.com" exactly, ".push.apple.com" that name and
# any name under it); empty: any public host.
WEBPUSH_ALLOWED_PORTS = [int(p) for p in env.list("WEBPUSH_ALLOWED_PORTS", default=["443"])]
WEBPUSH_ALLOWED_HOSTS = env.list("WEBPUSH_ALLOWED_HOSTS", default=[])
# Requests to URLs a client gave us connect only to public addresses (core/outbound.py),
# plus these networks (CIDR). Empty in production; the tests add their loopback push service.
OUTBOUND_ALLOWED_NETWORKS = env.list("OUTBOUND_ALLOWED_NETWORKS", default=[])
# FCM HTTP v1: the Firebase project and a service-account key file (JSON).
FCM_PROJECT_ID = env.str("FCM_PROJECT_ID", default="")
FCM_SERVICE_ACCOUNT_FILE = env.str("FCM_SERVICE_ACCOUNT_FILE", default="")
FCM_BASE_URL = env.str("FCM_BASE_URL", default="https://fcm.googleapis.com")
# APNs token auth: the .p8 key, its key id, the team id and the app's bundle id (topic).
APNS_KEY_FILE = env.str("APNS_KEY_FILE", default="")
APNS_KEY_ID = env.str("APNS_KEY_ID", default="")
APNS_TEAM_ID = env.str("APNS_TEAM_ID", default="")
APNS_TOPIC = env.str("APNS_TOPIC", default="")
APNS_BASE_URL = env.str("APNS_BASE_URL", default="https://api.push.apple.com")
# TLS verification of the APNs server: true, or a CA bundle path (tests: a local server).
APNS_VERIFY: bool | str = env.str("APNS_VERIFY", default="true")
APNS_VERIFY = {"true": True, "false": False}.get(str(APNS_VERIFY).lower(), APNS_VERIFY)

CELERY_BEAT_SCHEDULE["push-sweep-outbox"] = {
    "task": "live.push.tasks.sweep_outbox",
    "schedule": PUSH_SWEEP_SECONDS,
}
CELERY_BEAT_SCHEDULE["push-purge-outbox"] = {
    "task": "live.push.tasks.purge_outbox",
    "schedule": 3600.0,
}

# Quick play: bands widen and bots become due while players wait (players/tasks.py).
CELERY_BEAT_SCHEDULE["matchmaking-place"] = {
    "task": "players.tasks.place_waiting_players",
    "schedule": env.float("MATCHMAKING_SWEEP_SECONDS", default=2.0),
}
# Tournaments: starts, round deadlines and lost advances (tournaments/tasks.py). A round is
# late by at most this long.
CELERY_BEAT_SCHEDULE["tournaments-sweep"] = {
    "task": "tournaments.tasks.sweep_tournaments",
    "schedule": env.float("TOURNAMENT_SWEEP_SECONDS", default=30.0),
}
# The leaderboards' milestones a rank counts from (players/selectors/leaderboards.py): within
# the first 1,000 places a rank is exact; below, the places down to its milestone are counted
# live and the milestone's own place is as of the last refresh, at most this many seconds ago.
CELERY_BEAT_SCHEDULE["leaderboard-marks"] = {
    "task": "players.tasks.refresh_leaderboard_marks",
    "schedule": env.float("LEADERBOARD_MARKS_SECONDS", default=60.0),
}

# Invitations (players/services/invitations.py), each a push to someone: how many one player
# may send in any hour (429 invitation_rate_limited with Retry-After past it), and how many open
# invitations one player may hold at once (409 invitee_invitations_full). A table never has more
# open invitations than free seats.
INVITATIONS = {
    "PER_HOUR": env.int("INVITATIONS_PER_HOUR", default=30),
    "OPEN_PER_INVITEE": env.int("INVITATIONS_OPEN_PER_INVITEE", default=10),
}

CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")

# --- Mail (accounts.mail): address verification and password reset codes ---------------------

# Unset: every message is written as a file under var/mail/ (Django's file backend), so `make
# run` needs no mail server. In production an SMTP URL: smtp://user:password@host:25,
# smtp+tls://...:587 (STARTTLS) or smtp+ssl://...:465 (django-environ's email_url).
_email_url = env.str("EMAIL_URL", default="")
if _email_url:
    _email = env.email_url_config(_email_url)
    EMAIL_BACKEND = _email["EMAIL_BACKEND"]
    EMAIL_HOST = _email.get("EMAIL_HOST") or "localhost"
    EMAIL_PORT = _email.get("EMAIL_PORT") or 25
    EMAIL_HOST_USER = _email.get("EMAIL_HOST_USER") or ""
    EMAIL_HOST_PASSWORD = _email.get("EMAIL_HOST_PASSWORD") or ""
    EMAIL_USE_TLS = bool(_email.get("EMAIL_USE_TLS"))
    EMAIL_USE_SSL = bool(_email.get("EMAIL_USE_SSL"))
else:
    EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
EMAIL_FILE_PATH = VAR_DIR / "mail"
# A mail server that never answers holds one push worker process at most this long a try.
EMAIL_TIMEOUT = 10
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="Baloot <no-reply@baloot.invalid>")
# How long a mailed code (verification or reset) can be used.
EMAIL_CODE_TTL_MINUTES = env.int("EMAIL_CODE_TTL_MINUTES", default=30)
# Mail is sent by the push worker, which waits on other people's servers already.
for _task in ("accounts.tasks.mail_send", "accounts.tasks.password_reset_mail"):
    CELERY_TASK_ROUTES[_task] = {"queue": "push"}
