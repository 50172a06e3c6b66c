"""Settings, read once from the environment (django-environ). See README.md "Configuration"."""

import os
from pathlib import Path
from urllib.parse import urlsplit

import environ

from config.secret_key import load_or_create_secret_key
from config.version import VERSION

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()

# --- Where the running service writes: one volume holds its state -------------------------------
DATA_DIR = Path(env.str("DATA_DIR", default=str(BASE_DIR / "var"))).resolve()
DATA_DIR.mkdir(parents=True, exist_ok=True)

# --- Core ---------------------------------------------------------------------------------------
DEBUG = env.bool("DEBUG", default=False)
SECRET_KEY = env.str("SECRET_KEY", default="") or load_or_create_secret_key(DATA_DIR)

_default_port = env.str("PORT", default="8000")
BASE_URL = env.str("BASE_URL", default=f"http://127.0.0.1:{_default_port}").rstrip("/")
_base = urlsplit(BASE_URL)
BASE_URL_IS_HTTPS = _base.scheme == "https"
ALLOWED_HOSTS = env.list(
    "ALLOWED_HOSTS",
    default=[h for h in [_base.hostname, "127.0.0.1", "localhost", "[::1]", "testserver"] if h],
)
# How long a browser or shared cache may keep a public page before revalidating it (pages/caching.py).
PUBLIC_PAGE_MAX_AGE = env.int("PUBLIC_PAGE_MAX_AGE", default=60)
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[f"{_base.scheme}://{_base.netloc}"])

INSTALLED_APPS = [
    "modeltranslation",  # before the admin: translated fields of the owner's texts (see pages/translation.py)
    "config.admin.BookingAdminConfig",  # django.contrib.admin with the dashboard on its home page
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.sitemaps",
    "axes",
    "rest_framework",
    "drf_spectacular",
    "booking",
    # The apps the design card draws (docs/development.md): what is sold, the stays, the money,
    # the emails, and Italy's duties. Each keeps its models' tables under their old booking_ names.
    "booking.catalog.apps.CatalogConfig",
    "booking.reservations.apps.ReservationsConfig",
    "booking.payments.apps.PaymentsConfig",
    "booking.outbox.apps.OutboxConfig",
    "booking.italy.apps.ItalyConfig",  # check-in, police registration, city tax (docs/italy.md)
    "partner_sync",
    "pages",
    "discovery",
]

MIDDLEWARE = [
    "config.observability.RequestIdMiddleware",
    # Outermost after the request id, so it compresses the final body (config/transfer.py); the
    # ETag is taken from the uncompressed body one step in.
    "config.transfer.CompressionMiddleware",
    "django.middleware.http.ConditionalGetMiddleware",
    "booking.api.middleware.ApiErrorMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Sessions, the user and messages: skipped on the stateless JSON API (config/middleware.py).
    "config.middleware.SessionMiddleware",
    "config.middleware.LocaleMiddleware",  # the language comes from the path only (/it/, /de/, /fr/)
    "config.admin.BackOfficeLanguageMiddleware",  # ...except the back office: the browser's language
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",  # the API's views are exempt: it does no work there
    "config.middleware.AuthenticationMiddleware",
    "config.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "axes.middleware.AxesMiddleware",
    "config.middleware.CSPMiddleware",  # django-csp's, with the API's header built once
]

# The back office: brute-force protection (django-axes) locks a username from an address after
# AXES_FAILURE_LIMIT failed logins, for AXES_COOLOFF_HOURS.
AUTHENTICATION_BACKENDS = ["axes.backends.AxesStandaloneBackend", "django.contrib.auth.backends.ModelBackend"]
AXES_FAILURE_LIMIT = env.int("AXES_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = env.float("AXES_COOLOFF_HOURS", default=1.0)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_VERBOSE = False
AXES_IPWARE_META_PRECEDENCE_ORDER = ["REMOTE_ADDR"]  # behind a proxy, config/web.py sets it from TRUSTED_PROXIES

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

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
                "pages.context_processors.site",
            ],
        },
    },
]

# --- Database -----------------------------------------------------------------------------------
# SQLite by default (under DATA_DIR), PostgreSQL through DATABASE_URL. SQLite is tuned for several
# concurrent writers: WAL, a busy timeout, and IMMEDIATE transactions so that every atomic block
# takes the write lock up front (holds race on it; see booking/reservations/services/holds.py).
SQLITE_OPTIONS = {
    "timeout": 30,
    "transaction_mode": "IMMEDIATE",
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA busy_timeout=30000;",
}
DATABASES = {
    "default": env.db_url("DATABASE_URL", default=f"sqlite:///{DATA_DIR / 'db.sqlite3'}"),
}
# Django runs as WSGI in at most WEB_THREADS threads per web process (granian's, config/web.py), so
# a connection can outlive its request. The ceiling is high
# because a request can wait without working (an idempotent retry polls for up to 12 s for the first
# answer) and must not starve the reads. Connections are Django's own: on SQLite each thread keeps
# one (CONN_MAX_AGE); on PostgreSQL they come from Django's psycopg pool (which requires
# CONN_MAX_AGE = 0). CONN_HEALTH_CHECKS makes Django test a reused connection before a request's
# first query (and the pool test one before handing it out), so a connection the server dropped
# (a restart, pg_terminate_backend, a failover) is replaced instead of failing that request.
WEB_THREADS = max(1, env.int("WEB_THREADS", default=48))
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
DATABASES["default"]["CONN_MAX_AGE"] = 0
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["CONN_MAX_AGE"] = env.int("DATABASE_CONN_MAX_AGE", default=600)
    DATABASES["default"].setdefault("OPTIONS", {}).update(SQLITE_OPTIONS)
    # Tests race threads against the database, which needs a file, not the in-memory default.
    # One file per test process, so parallel runs never share it.
    DATABASES["default"]["TEST"] = {"NAME": str(DATA_DIR / f"test-db-{os.getpid()}.sqlite3")}
else:
    DATABASE_PREPARE_THRESHOLD = env.str("DATABASE_PREPARE_THRESHOLD", default="5")
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "connect_timeout": 5,
            # Parameters bound on the server, and a statement a connection has run this many times
            # prepared there (psycopg, through Django's options): the hot reads' queries skip their
            # parsing and planning. "off" behind a pooler that cannot keep prepared statements
            # (PgBouncer before 1.21 in transaction mode; see docs/deploying.md).
            "server_side_binding": DATABASE_PREPARE_THRESHOLD not in ("off", ""),
            "prepare_threshold": None if DATABASE_PREPARE_THRESHOLD in ("off", "") else int(DATABASE_PREPARE_THRESHOLD),
            "pool": {
                "min_size": env.int("DATABASE_POOL_MIN", default=1),
                "max_size": env.int("DATABASE_POOL_MAX", default=16),
                "timeout": env.float("DATABASE_POOL_TIMEOUT", default=3.0),  # then 503, not a hang
            },
        }
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Cache: shared by every process (rate limits, idempotency waits) ----------------------------
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default="")
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=False)
CACHE_URL = env.str("CACHE_URL", default="")
if not CACHE_URL and CELERY_BROKER_URL.startswith(("redis://", "rediss://")):
    CACHE_URL = CELERY_BROKER_URL
if CACHE_URL:
    CACHES = {"default": env.cache_url_config(CACHE_URL)}
    if CACHES["default"]["BACKEND"].endswith("RedisCache"):
        CACHES["default"]["BACKEND"] = "django.core.cache.backends.redis.RedisCache"
        CACHES["default"].setdefault("OPTIONS", {}).update({"socket_connect_timeout": 0.5, "socket_timeout": 0.5})
else:
    # No Redis: a file cache under DATA_DIR is still shared by all web processes and workers.
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(DATA_DIR / "cache"),
        }
    }

# The public pages once rendered, in each web process's memory: keyed by every input they read,
# the content version included, so no process shows another's stale copy (pages/caching.py). At
# most 200 pages of about 50 KB: query strings (tracking parameters) cannot grow it past ~10 MB.
CACHES["pages"] = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "pages", "OPTIONS": {"MAX_ENTRIES": 200}}

# --- Celery -------------------------------------------------------------------------------------
# With no CELERY_BROKER_URL the jobs still run: kombu's filesystem transport under DATA_DIR.
CELERY_QUEUE_DIR = DATA_DIR / "queue"
if not CELERY_BROKER_URL:
    CELERY_QUEUE_DIR.mkdir(parents=True, exist_ok=True)
CELERY_BEAT_SCHEDULE_FILE = str(DATA_DIR / "celerybeat-schedule")

# --- Booking ------------------------------------------------------------------------------------
HOLD_MINUTES = env.int("HOLD_MINUTES", default=30)
# Tests only: a pause between a hold's availability check and its insert (see booking.reservations.services.holds).
TEST_RACE_WINDOW_SECONDS = 0.0
# How often the job tidies lapsed holds (they stop blocking at expiry regardless).
HOLD_SWEEP_SECONDS = max(1, env.int("HOLD_SWEEP_SECONDS", default=60))
BOOKING_RATE_LIMIT = env.str("BOOKING_RATE_LIMIT", default="60/h")
MAX_UNPAID_HOLDS_PER_CLIENT = env.int("MAX_UNPAID_HOLDS_PER_CLIENT", default=10)
CONTACT_RATE_LIMIT = env.str("CONTACT_RATE_LIMIT", default="5/h")  # contact-form messages per client IP
# Client IPs are read from X-Forwarded-For only when the direct peer is one of these proxies.
TRUSTED_PROXIES = env.list("TRUSTED_PROXIES", default=[])
IDEMPOTENCY_TTL_HOURS = 24

# --- Payments -----------------------------------------------------------------------------------
STRIPE_SECRET_KEY = env.str("STRIPE_SECRET_KEY", default="")
STRIPE_WEBHOOK_SECRET = env.str("STRIPE_WEBHOOK_SECRET", default="")
# Hosts an agent's success_url / cancel_url may send the payer to directly, besides BASE_URL's own
# (comma-separated, exact host names). Any other host is offered as a link on our own page
# (booking/payments/return_hosts.py).
TRUSTED_RETURN_HOSTS = env.list("TRUSTED_RETURN_HOSTS", default=[])
STRIPE_API_BASE = env.str("STRIPE_API_BASE", default="")

# --- Partner (listing platform) sync ------------------------------------------------------------
PARTNER_ICAL_URLS = env.list("PARTNER_ICAL_URLS", default=[])
PARTNER_LISTING_URL = env.str("PARTNER_LISTING_URL", default="")
PARTNER_SYNC_SECONDS = max(1, env.int("PARTNER_SYNC_SECONDS", default=600))

# --- Channel manager (Channex), docs/channex.md ----------------------------------------------------
# Without an API key the connection is off: no dates are marked, no job runs, iCal works as before.
# The others seed the admin-editable connection (partner_sync.models.ChannexConnection).
CHANNEX_API_BASE = env.str("CHANNEX_API_BASE", default="https://app.channex.io/api/v1").rstrip("/")
CHANNEX_API_KEY = env.str("CHANNEX_API_KEY", default="")
CHANNEX_PROPERTY_ID = env.str("CHANNEX_PROPERTY_ID", default="")
CHANNEX_ROOM_TYPE_ID = env.str("CHANNEX_ROOM_TYPE_ID", default="")
CHANNEX_RATE_PLAN_ID = env.str("CHANNEX_RATE_PLAN_ID", default="")
CHANNEX_WEBHOOK_SECRET = env.str("CHANNEX_WEBHOOK_SECRET", default="")

# --- Italy: the police registration web service (Alloggiati Web), docs/italy.md ----------------
# With all three set, each complete stay is sent on its arrival day; without them the back office
# offers the day's file to upload by hand.
ALLOGGIATI_USER = env.str("ALLOGGIATI_USER", default="")
ALLOGGIATI_PASSWORD = env.str("ALLOGGIATI_PASSWORD", default="")
ALLOGGIATI_WSKEY = env.str("ALLOGGIATI_WSKEY", default="")
ALLOGGIATI_URL = env.str("ALLOGGIATI_URL", default="https://alloggiatiweb.poliziadistato.it/service/service.asmx")
# Where refresh_alloggiati_tables reads comuni.csv, stati.csv and documenti.csv (a URL or a folder).
ALLOGGIATI_TABLES_URL = env.str("ALLOGGIATI_TABLES_URL", default="https://alloggiatiweb.poliziadistato.it/PortaleAlloggiati/Download/Tabelle/")

# --- Email --------------------------------------------------------------------------------------
if env.str("EMAIL_URL", default=""):
    vars().update(env.email_url("EMAIL_URL"))
else:
    # Without a mail server, emails are written as files under DATA_DIR/emails (an outbox the owner
    # can read), not printed to the console: the service log must not carry guests' addresses.
    EMAIL_BACKEND = env.str("EMAIL_BACKEND", default="django.core.mail.backends.filebased.EmailBackend")
    EMAIL_HOST = env.str("EMAIL_HOST", default="localhost")
    EMAIL_PORT = env.int("EMAIL_PORT", default=25)
    EMAIL_FILE_PATH = env.str("EMAIL_FILE_PATH", default=str(DATA_DIR / "emails"))  # filebased backend
if EMAIL_BACKEND == "django.core.mail.backends.smtp.EmailBackend":  # noqa: F821 (set by either branch above)
    # The same backend, telling a failure after the message was handed over apart (never resent).
    EMAIL_BACKEND = "booking.outbox.smtp_delivery.EmailBackend"
EMAIL_TIMEOUT = env.int("EMAIL_TIMEOUT", default=10)  # a hung mail server delays the outbox, never a worker for long
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default=f"bookings@{_base.hostname or 'localhost'}")
OWNER_EMAIL = env.str("OWNER_EMAIL", default="")

# --- Security: follows the scheme of BASE_URL ---------------------------------------------------
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=BASE_URL_IS_HTTPS)
SECURE_REDIRECT_EXEMPT = [r"^api/v1/health$"]
SESSION_COOKIE_SECURE = BASE_URL_IS_HTTPS
CSRF_COOKIE_SECURE = BASE_URL_IS_HTTPS
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31536000 if BASE_URL_IS_HTTPS else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = BASE_URL_IS_HTTPS
SECURE_HSTS_PRELOAD = BASE_URL_IS_HTTPS
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "strict-origin-when-cross-origin"
X_FRAME_OPTIONS = "DENY"
DATA_UPLOAD_MAX_MEMORY_SIZE = 1024 * 1024  # 1 MiB: larger bodies get 413 payload_too_large
ADMIN_PATH = env.str("ADMIN_PATH", default="admin/").strip("/") + "/"
# `manage.py load_demo` (run by `make run`/`make prepare`) loads the demo property into an empty database; off in production.
DEMO = env.bool("DEMO", default=True)
# Content-Security-Policy for the pages (django-csp): scripts only from this origin (the
# site's JavaScript lives in static/js; inline <script type="application/ld+json"> is data, not
# code). Inline style attributes are allowed for small templates such as the sandbox checkout.
# form-action includes https: because a payment page redirects the payer to the return URL an
# agent chose, and browsers apply form-action to that redirect.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "frame-ancestors": ["'none'"],
        "base-uri": ["'self'"],
        "object-src": ["'none'"],
        "form-action": ["'self'", "https:", "http://localhost:*", "http://127.0.0.1:*"],
    },
}

# --- Internationalisation -----------------------------------------------------------------------
LANGUAGE_CODE = "en"
# English at the unprefixed paths, the others under /it/, /de/, /fr/ (pages/urls.py). The JSON API,
# MCP and A2A stay English.
LANGUAGES = [("en", "English"), ("it", "Italiano"), ("de", "Deutsch"), ("fr", "Français")]
LOCALE_PATHS = [BASE_DIR / "locale", BASE_DIR / "locale" / "back-office"]  # the back office's own catalogs
FORMAT_MODULE_PATH = ["config.formats"]  # one date format in the back office for every language (config/formats/__init__.py)
MODELTRANSLATION_DEFAULT_LANGUAGE = "en"
MODELTRANSLATION_FALLBACK_LANGUAGES = ("en",)  # an empty translation shows the English text
TIME_ZONE = "Europe/Rome"  # the property's time zone: dates of stays are plain dates here
USE_I18N = True
USE_TZ = True

# --- Static and media files ---------------------------------------------------------------------
STATIC_URL = "/static/"
STATIC_ROOT = Path(env.str("STATIC_ROOT", default=str(BASE_DIR / "staticfiles")))
STATIC_ROOT.mkdir(parents=True, exist_ok=True)  # whitenoise warns on every start when it is missing
STATICFILES_DIRS = [BASE_DIR / "static"]
MEDIA_URL = "/media/"
MEDIA_ROOT = DATA_DIR / "media"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = False

# --- REST framework and OpenAPI -----------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["booking.api.parsers.SafeJSONParser"],
    "DEFAULT_AUTHENTICATION_CLASSES": [],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "UNAUTHENTICATED_USER": None,
    "EXCEPTION_HANDLER": "booking.api.errors.exception_handler",
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "booking.api.negotiation.AlwaysFirstRenderer",
    "URL_FORMAT_OVERRIDE": None,
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "COERCE_DECIMAL_TO_STRING": False,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Direct Booking API",
    "DESCRIPTION": (
        "Direct-booking interface for one short-stay rental. Agent quick start: property, "
        "availability, then reservations or (recommended) payments/checkout-link. "
        "Do not collect guest details before payment."
    ),
    "VERSION": VERSION,
    "SERVE_INCLUDE_SCHEMA": False,
    # OpenAPI 3.1 (JSON Schema 2020-12): nullable fields are `type: [t, "null"]`; the hook
    # nullable_as_json_schema below rewrites the hand-written 3.0-style `nullable`s.
    "OAS_VERSION": "3.1.0",
    "SERVERS": [{"url": BASE_URL, "description": "This service"}],
    "COMPONENT_SPLIT_REQUEST": False,
    "ENFORCE_NON_BLANK_FIELDS": True,
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "booking.api.openapi.add_links",
        "booking.api.openapi.add_common_responses",
        "booking.api.openapi.closed_request_bodies",
        "booking.api.openapi.live_examples",
        "booking.api.openapi.nullable_as_json_schema",
    ],
    # The reservation status is answered by two bodies (a reservation, a guest's booking): one enum.
    "ENUM_NAME_OVERRIDES": {"ReservationStatusEnum": ["held", "confirmed", "expired", "cancelled"]},
}

# --- Logging: JSON lines with the request id (LOG_FORMAT=plain for a terminal) ------------------
LOG_LEVEL = env.str("LOG_LEVEL", default="INFO")
LOG_FORMAT = env.str("LOG_FORMAT", default="json")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"request_id": {"()": "config.observability.RequestIdFilter"}},
    "formatters": {
        "json": {"()": "config.observability.JsonFormatter"},
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"},
    },
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": LOG_FORMAT, "filters": ["request_id"]}},
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {"django.request": {"level": "ERROR"}},
}
