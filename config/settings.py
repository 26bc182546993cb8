"""One settings file for every deployment; everything that differs comes from the environment.

With nothing set, the site runs alone: SQLite, an in-memory channel layer, jobs in-process and a
locally generated secret key. DATABASE_URL and REDIS_URL switch to PostgreSQL and Redis.
"""
import os
import secrets
from pathlib import Path

import dj_database_url

BASE_DIR = Path(__file__).resolve().parent.parent


def env(name, default=""):
    return os.environ.get(name, default)


def env_bool(name, default=False):
    return env(name, str(default)).strip().lower() in ("1", "true", "yes", "on")


def env_list(name, default=""):
    return [item.strip() for item in env(name, default).split(",") if item.strip()]


def _local_secret_key():
    # A newcomer's site needs no configuration: generate a key once and keep it beside the code.
    path = BASE_DIR / ".local-secret-key"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(50))
        path.chmod(0o600)
    return path.read_text().strip()


def _local_vapid_key():
    # The site's own Web Push key pair (RFC 8292), made once like the secret key: the private
    # number, base64url, as VAPID_PRIVATE_KEY takes it. Browsers' subscriptions are bound to its
    # public half, so production sets it in the environment and never changes it.
    path = BASE_DIR / ".local-vapid-key"
    if not path.exists():
        import base64

        from cryptography.hazmat.primitives.asymmetric import ec

        number = ec.generate_private_key(ec.SECP256R1()).private_numbers().private_value
        path.write_text(base64.urlsafe_b64encode(number.to_bytes(32, "big")).decode().rstrip("="))
        path.chmod(0o600)
    return path.read_text().strip()


DEBUG = env_bool("DEBUG", False)
SECRET_KEY = env("SECRET_KEY") or _local_secret_key()
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost,testserver")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")
SITE_NAME = env("SITE_NAME", "Tradewinds")

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "django_celery_beat",
    "django_prometheus",  # /metrics (config/metrics.py): requests, latency, database, our counters
    "health_check",  # /health/ (config/health.py)
    "ninja",  # the API's docs page (/api/docs) served with ninja's own static files, no CDN
    "accounts",
    "games",
    "games.fuldrigger",
    "games.pirater",
    "games.catan_ships",
    "community",
    "notifications",
    "leagues",
]

MIDDLEWARE = [
    # First and last: the request's latency and outcome as Prometheus sees them (/metrics).
    "django_prometheus.middleware.PrometheusBeforeMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.middleware.ProfileTimezoneMiddleware",
    "games.validation.BodyLimitMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "csp.middleware.CSPMiddleware",
    "games.web.middleware.DatabaseUnavailableMiddleware",
    "games.web.middleware.MethodNotAllowedMiddleware",
    "django_prometheus.middleware.PrometheusAfterMiddleware",
]

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"
WSGI_APPLICATION = "config.wsgi.application"  # granian serves HTTP in production (README)

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "notifications.views.unread_count",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        env("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(env("DB_CONN_MAX_AGE", "0")),
        # A kept connection is checked (SELECT 1) before the first query of each request or
        # socket render, and opened again if the server ended it (a restart, a failover, an
        # idle timeout): that request then succeeds, where each thread's next one was a 503
        # and its sockets were dropped (issue 29).
        conn_health_checks=env_bool("DB_CONN_HEALTH_CHECKS", True),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Daphne's threads and the in-process jobs share the file: wait for a lock instead of failing.
    # Writers take the lock at BEGIN (IMMEDIATE), so two racing turns queue instead of clashing.
    DATABASES["default"].setdefault("OPTIONS", {}).update(timeout=20, transaction_mode="IMMEDIATE")
    # A file, not memory, for tests too: racing threads (and the forked browser-test server) need
    # a database they can share; one per test run, so two runs side by side don't collide.
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / f"test-db-{os.getpid()}.sqlite3")}
elif (DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and env("DB_POOL", "0") == "1"
      and not DATABASES["default"]["CONN_MAX_AGE"]):
    # DB_POOL=1: a pool of open connections; a request borrows one instead of opening its own.
    # Off by default: on the quiet server it saved a third of an action's time, but under the
    # load benchmark the socket renders queued behind the requests for the pool's connections
    # (live p50 7 s against 0.3 s, 100 updates never delivered); see docs/benchmarks.md.
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": int(env("DB_POOL_MIN", "0")),
        "max_size": int(env("DB_POOL_MAX", "20")),
        "timeout": int(env("DB_POOL_TIMEOUT", "20")),
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env("REDIS_URL")
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            # Redis Pub/Sub: a change is one PUBLISH, heard once by each process with a socket
            # on the match and handed to its sockets there. The list-based layer
            # (channels_redis.core) pushed a copy into a list per socket and each socket popped
            # its own, several Redis round trips a socket a change (under the load test, about
            # a third of Daphne's CPU). Nothing is kept for an absent listener, which is all a
            # change needs: a socket that (re)connects renders the match as it is.
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            # A socket timeout of redis-py's default 5 s would drop idle connections on a busy
            # server.
            # redis-py caps a pool at 100 connections and raises beyond: hundreds of sockets
            # leaving at once (a restart, the end of the load benchmark) each discard a group.
            "CONFIG": {"hosts": [{"address": REDIS_URL, "socket_timeout": 30,
                                  "max_connections": int(env("REDIS_MAX_CONNECTIONS", "1000"))}]},
        }
    }
    # A Redis that stops answering (rather than refusing) fails a cache call in seconds instead
    # of hanging the request that made it.
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL,
                          "OPTIONS": {"socket_connect_timeout": 5, "socket_timeout": 5}}}
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Background jobs. With Redis, a Celery worker and beat run them; without it they run in the
# web process (tasks eagerly, the deadline sweep on a thread started by `manage.py serve`).
JOBS_IN_PROCESS = not REDIS_URL
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = None
CELERY_TASK_ALWAYS_EAGER = JOBS_IN_PROCESS
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# No task's return value is read from the broker (there is no result backend).
CELERY_TASK_IGNORE_RESULT = True
# A worker process keeps its database connection across tasks (see config/celery.py): Celery's
# Django fix-up closes it only every this many tasks (twice that many pre/post-run calls).
CELERY_DB_REUSE_MAX = 1000
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"
SWEEP_SECONDS = float(env("SWEEP_SECONDS", "5"))
# How often a socket process checks that its sockets show their matches' versions (one query
# for all of them): a socket that missed a change (Redis was away) catches up by itself.
LIVE_WATCH_SECONDS = float(env("LIVE_WATCH_SECONDS", "5"))
CELERY_BEAT_SCHEDULE = {
    "deadline-sweep": {"task": "games.tasks.sweep_due_matches", "schedule": SWEEP_SECONDS,
                       "options": {"expires": SWEEP_SECONDS}},  # sweeps held up in a backlog are dropped
    "notifications-sweep": {"task": "notifications.tasks.sweep_notifications", "schedule": 60.0},
    "events-sweep": {"task": "leagues.tasks.sweep_events", "schedule": 60.0},
}
CELERY_TIMEZONE = "UTC"

# Called (by dotted path, with match_id=) after a match has finished, from a background job.
MATCH_FINISHED_LISTENERS: list[str] = ["community.ratings.match_finished", "notifications.listeners.match_finished"]
# Called (by dotted path, with match_id=, first_seq=, last_seq=, turn_passed_to=) after every
# committed change of a running match, from a background job.
MATCH_CHANGED_LISTENERS: list[str] = ["games.play.records.turns_passed", "notifications.listeners.match_changed",
                                      "notifications.orders.orders_played", "leagues.listeners.match_changed"]
# Links that the apps listening to the platform add to each game's card on the home page: each a
# template, included with the game as `g`, so the platform's templates never name those apps.
GAME_CARD_LINKS: list[str] = ["community/partials/game_card_link.html"]
# The same for a match's page (each template included with the match as `match`), and the home
# page's own lists (each included with the viewer as `user`).
MATCH_PAGE_LINKS: list[str] = ["leagues/partials/match_link.html"]
HOME_SECTIONS: list[str] = ["leagues/partials/my_events.html"]
# Routers the listening apps add to the JSON API: (address under /api/, dotted path).
API_ROUTERS: list[tuple[str, str]] = [("/events", "leagues.api.router"), ("/ladders", "leagues.api_ladders.router")]
# Sections the apps add to the profile page, each a template included with the page's context.
PROFILE_SECTIONS: list[str] = ["notifications/profile_section.html"]

# Notifications: links in emails and webhooks point here; digests go out at this local hour.
SITE_URL = env("SITE_URL", "http://127.0.0.1:8000")
DIGEST_HOUR = int(env("DIGEST_HOUR", "7"))
REMINDER_HORIZON_HOURS = 14 * 24
# Webhooks (notifications/webhooks.py): only public addresses, on these ports, https only on a
# secure site; the hosts listed here (host or host:port, e.g. a local test receiver) are exempt.
WEBHOOK_ALLOWED_HOSTS = env_list("WEBHOOK_ALLOWED_HOSTS")
# The profile form's check of a webhook URL (a ValueError with the player's message refuses it).
WEBHOOK_URL_CHECK = "notifications.webhooks.check"
WEBHOOK_PORTS = [int(p) for p in env_list("WEBHOOK_PORTS", "80,443")]
WEBHOOK_HTTPS_ONLY = env_bool("SECURE", False)
WEBHOOK_TIMEOUT = float(env("WEBHOOK_TIMEOUT", "5"))
WEBHOOK_CA_CERTS = env("WEBHOOK_CA_CERTS") or None  # a CA bundle for receivers' certificates; unset: the system's
# Deliveries are jobs of their own on the `webhooks` queue (a worker of its own consumes it);
# without Celery they run on this many threads of the web process.
WEBHOOK_THREADS = int(env("WEBHOOK_THREADS", "4"))
CELERY_TASK_ROUTES = {"notifications.tasks.deliver_webhook": {"queue": "webhooks"},
                      "notifications.tasks.deliver_push": {"queue": "push"}}
# Web Push (notifications/push.py): the site's VAPID key (base64url of the private number; made
# once into .local-vapid-key when unset), the contact the push services may write to, how long a
# push service keeps an undelivered message, and the hours (in each player's zone) pushes wait
# for unless the player chose their own ("22-7"; empty: none).
VAPID_PRIVATE_KEY = env("VAPID_PRIVATE_KEY") or _local_vapid_key()
VAPID_SUBJECT = env("VAPID_SUBJECT", "mailto:admin@localhost")
PUSH_TTL_SECONDS = int(env("PUSH_TTL_SECONDS", str(24 * 3600)))
PUSH_QUIET_HOURS = env("PUSH_QUIET_HOURS", "22-7")
# Calendar feeds (notifications/calendar.py): more events from apps that come later (a league's
# rounds), each a dotted path to a callable(user, now) returning notifications.calendar.Entry.
CALENDAR_EVENT_SOURCES: list[str] = ["leagues.calendar.entries"]

# Match sockets (games/sockets/consumers.py): a message larger than this closes the socket (1009), more
# than a burst and then a steady rate of messages too (4008); sockets open at once per user and
# per address (4029 beyond).
SOCKET_MAX_MESSAGE_BYTES = int(env("SOCKET_MAX_MESSAGE_BYTES", "4096"))
SOCKET_MESSAGE_BURST = int(env("SOCKET_MESSAGE_BURST", "10"))
SOCKET_MESSAGES_PER_SECOND = float(env("SOCKET_MESSAGES_PER_SECOND", "1"))
# Moves sent on the socket have their own allowance (a bot may play several a second); one past
# it is answered 429 and counts as a message.
SOCKET_MOVE_BURST = int(env("SOCKET_MOVE_BURST", "20"))
SOCKET_MOVES_PER_SECOND = float(env("SOCKET_MOVES_PER_SECOND", "5"))
SOCKETS_PER_USER = int(env("SOCKETS_PER_USER", "20"))
SOCKETS_PER_ADDRESS = int(env("SOCKETS_PER_ADDRESS", "50"))
# A server process that stops refreshing its socket counts (it died) is forgotten this much later
# (games/live/socket_slots.py).
SOCKET_SLOT_SECONDS = int(env("SOCKET_SLOT_SECONDS", "30"))

# Rated games a player needs before appearing on a leaderboard.
LEADERBOARD_MIN_GAMES = int(env("LEADERBOARD_MIN_GAMES", "3"))

# Bodies larger than these are refused from their Content-Length before anything reads them
# (games/validation.py): 413 with the reason, in JSON for the API. A match export is larger.
REQUEST_MAX_BYTES = int(env("REQUEST_MAX_BYTES", str(1024 * 1024)))
IMPORT_MAX_BYTES = int(env("IMPORT_MAX_BYTES", str(4 * 1024 * 1024)))
DATA_UPLOAD_MAX_MEMORY_SIZE = IMPORT_MAX_BYTES
FILE_UPLOAD_MAX_MEMORY_SIZE = IMPORT_MAX_BYTES

VACATION_DAYS_PER_YEAR = int(env("VACATION_DAYS_PER_YEAR", "21"))

# Consecutive turn timeouts after which a seat is marked absent and played by timeouts.
ABSENT_AFTER_TIMEOUTS = int(env("ABSENT_AFTER_TIMEOUTS", "3"))
# The share of turns in time (%) a volunteer needs to be offered an absent seat (docs/substitutes.md).
SUBSTITUTE_MIN_RELIABILITY = int(env("SUBSTITUTE_MIN_RELIABILITY", "80"))

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"
LOGIN_ATTEMPTS = int(env("LOGIN_ATTEMPTS", "5"))
LOGIN_LOCKOUT_SECONDS = int(env("LOGIN_LOCKOUT_SECONDS", "900"))
# LOGIN_ATTEMPTS bounds one address's guesses at one account; an address's for any names have a
# loose bound (behind a proxy players share one). Beyond LOGIN_ATTEMPTS_PER_ACCOUNT failures from
# all addresses an account is tried only from places its owner signed in from within
# LOGIN_KNOWN_DAYS (or proves by a reset mail): guessers elsewhere never lock the owner out.
LOGIN_ATTEMPTS_PER_ACCOUNT = int(env("LOGIN_ATTEMPTS_PER_ACCOUNT", "20"))
LOGIN_ATTEMPTS_PER_ADDRESS = int(env("LOGIN_ATTEMPTS_PER_ADDRESS", "100"))
LOGIN_KNOWN_DAYS = int(env("LOGIN_KNOWN_DAYS", "90"))
# How many proxies of ours stand in front of Daphne: 0 trusts no X-Forwarded-For (README).
TRUSTED_PROXY_HOPS = int(env("TRUSTED_PROXY_HOPS", "0"))
# "count/seconds": reset mails per address and per e-mail, and per-user requests that make work
# for others (a 429 with a message beyond them).
PASSWORD_RESET_RATE_PER_ADDRESS = env("PASSWORD_RESET_RATE_PER_ADDRESS", "5/3600")
PASSWORD_RESET_RATE_PER_EMAIL = env("PASSWORD_RESET_RATE_PER_EMAIL", "3/3600")
ACTION_RATES = {"chat": env("RATE_CHAT", "20/60"), "match_create": env("RATE_MATCH_CREATE", "10/600"),
                "join": env("RATE_JOIN", "30/600"), "import": env("RATE_IMPORT", "10/3600")}
# Lobby bounds per player: matches they opened that wait for players, seats in unfinished
# matches, imports a day. Imports are private unless the importer says otherwise.
MAX_OPEN_MATCHES_PER_USER = int(env("MAX_OPEN_MATCHES_PER_USER", "5"))
MAX_ACTIVE_SEATS_PER_USER = int(env("MAX_ACTIVE_SEATS_PER_USER", "40"))
MAX_IMPORTS_PER_DAY = int(env("MAX_IMPORTS_PER_DAY", "20"))
# Rated matches: public, no bots, a round limit (if any) of at least RATED_MIN_ROUNDS; two players
# gain from at most RATED_GAMES_PER_PAIR matches together in RATED_PAIR_DAYS (later ones are
# recorded as capped, for staff to see in the admin).
RATED_MIN_ROUNDS = int(env("RATED_MIN_ROUNDS", "3"))
RATED_GAMES_PER_PAIR = int(env("RATED_GAMES_PER_PAIR", "3"))
RATED_PAIR_DAYS = int(env("RATED_PAIR_DAYS", "7"))

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("da", "Dansk"), ("de", "Deutsch"), ("sv", "Svenska")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG and env_bool("COLLECTSTATIC", True)
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
WHITENOISE_USE_FINDERS = True

EMAIL_BACKEND = env("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
EMAIL_HOST = env("EMAIL_HOST", "localhost")
EMAIL_PORT = int(env("EMAIL_PORT", "25"))
EMAIL_HOST_USER = env("EMAIL_HOST_USER")
EMAIL_HOST_PASSWORD = env("EMAIL_HOST_PASSWORD")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
DEFAULT_FROM_EMAIL = env("DEFAULT_FROM_EMAIL", "Tradewinds <noreply@localhost>")

# Production hardening, switched on by SECURE=1 behind TLS (`manage.py check --deploy` is clean).
if env_bool("SECURE", False):
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(env("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True
SESSION_ENGINE = "accounts.sessions"  # keys as Django makes them, nothing else (accounts/sessions.py)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env("LOG_LEVEL", "INFO")},
    # The sweep runs every few seconds: only its problems are worth a line.
    "loggers": {"django.request": {"level": "ERROR"}, "celery.app.trace": {"level": "WARNING"}},
}

# The worker outlives a broker outage (issue 14): it retries the connection for ever, and a
# late-acknowledged job still running when the connection goes is cancelled rather than left to
# acknowledge on the dead channel, which crashed the worker (AttributeError "'NoneType' object has
# no attribute 'hostname'", celery#8030/kombu#2007). The message comes back to be run again;
# every job is safe to run twice.
CELERY_BROKER_CONNECTION_RETRY = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = True
# The operators' network (Prometheus's, the machine itself): /metrics answers it and signed-in
# staff, 404 to anyone else; /health/ names its failing checks to them and gives anyone else the
# status alone. Matched against the visitor's address (TRUSTED_PROXY_HOPS), not the proxy's; the
# README's nginx refuses /metrics to other addresses itself. In production set
# PROMETHEUS_MULTIPROC_DIR for every process (README, "Metrics").
METRICS_ALLOWED_IPS = env_list("METRICS_ALLOWED_IPS", "127.0.0.1/32,::1/128")

# Kombu's Redis transport with a channel that finishes closing on a dead connection: the cause
# of that crash (issue 29, reproduced under the production layout), see config/broker.py.
CELERY_BROKER_TRANSPORT = "config.broker:Transport" if REDIS_URL else None
CELERY_BROKER_TRANSPORT_OPTIONS = {"socket_connect_timeout": 5, "socket_timeout": 30,
                                   "health_check_interval": 25, "retry_on_timeout": True}

# Content-Security-Policy on every response (django-csp): scripts only from this site (htmx via
# django-htmx's {% htmx_script %} and static/js), no inline script, style or handler; sockets
# back to this site only. htmx's own indicator <style> is switched off in base.html's htmx-config.
from csp.constants import NONE, SELF  # noqa: E402

CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "connect-src": [SELF],
        "font-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}
