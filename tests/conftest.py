"""Shared fixtures. The suite runs on SQLite (a file, so threads can race on it) and, when
DATABASE_URL points at PostgreSQL, on PostgreSQL (see Makefile: `make test` runs both)."""

import asyncio
import email
import email.policy

import pytest
from django.core.cache import cache
from django.db import connection
from django.utils import translation

from booking import demo
from config.caches import forget_process_caches
from tests.dates import future  # noqa: F401 (tests/pages and tests/browser import it from here)


def pytest_collection_modifyitems(config, items):
    """`make test` runs the suite on SQLite, then on PostgreSQL. A test marked same_on_every_database
    checks what the browser gets (HTML, CSS, accessibility under axe-core), which is rendered the same
    from either database and takes a minute in a real browser: it runs on the SQLite run only, and
    is reported as skipped on the PostgreSQL run."""
    if connection.vendor != "postgresql":
        return
    skip = pytest.mark.skip(reason="same on every database (HTML, CSS, accessibility): checked on the SQLite run")
    for item in items:
        if item.get_closest_marker("same_on_every_database"):
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def _test_settings(settings, tmp_path, request):
    # Tests render without collectstatic; limits are off unless a test turns them on.
    settings.STORAGES = {**settings.STORAGES, "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}
    settings.BOOKING_RATE_LIMIT = "off"
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.MEDIA_ROOT = str(tmp_path / "media")
    if not {"live_url", "live_url_factory", "site_url"} & set(request.fixturenames):
        # A fast hash for the users tests create (PBKDF2 is slow by design). Not where a live
        # server in another process, with the real settings, has to check the password.
        settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    forget_process_caches()
    cache.clear()
    # Tasks queued on commit (the email outbox) run in the test's process, as a worker would run them.
    from config.celery import app

    app.conf.task_always_eager = True
    translation.activate(settings.LANGUAGE_CODE)  # a request to /it/… leaves Italian active in the thread
    yield
    forget_process_caches()
    translation.deactivate()


@pytest.fixture
def demo_property(db):
    demo.load()
    from booking.catalog.models import Property

    return Property.objects.get(slug=demo.SLUG)


@pytest.fixture
def api(client):
    """The Django test client, speaking JSON."""

    class Api:
        def get(self, url, **params):
            return client.get(url, params)

        def post(self, url, body=None, **headers):
            return client.post(url, body if body is not None else {}, content_type="application/json", headers=headers)

    return Api()


def is_postgresql() -> bool:
    return connection.vendor == "postgresql"


@pytest.fixture
def live_url(transactional_db, demo_property):
    """Base URL of a live server (one worker) on the test database, with the demo property."""
    from tests.live import live_server

    with live_server() as url:
        yield url


@pytest.fixture
def live_url_factory(transactional_db, demo_property):
    """live_server() with extra environment (and workers), on the test database with the demo property."""
    from tests.live import live_server

    return live_server


class Inbox:
    """What a real SMTP server (aiosmtpd) received; addresses in `refuse` get a 550."""

    def __init__(self):
        self.messages = []
        self.refuse = set()
        # Seconds to wait before answering RCPT, or the end of DATA (a slow server).
        self.rcpt_delay = self.data_delay = 0.0

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        await asyncio.sleep(self.rcpt_delay)
        if address in self.refuse:
            return f"550 5.1.1 <{address}>: mailbox unavailable"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        self.messages.append(email.message_from_bytes(envelope.content, policy=email.policy.default))
        await asyncio.sleep(self.data_delay)  # received, then slow to say so
        return "250 OK"


@pytest.fixture
def smtp(settings):
    """Django's SMTP backend pointed at a port; `start()` puts a real SMTP server (aiosmtpd) there."""
    from aiosmtpd.controller import Controller

    from tests.live import free_port

    port = free_port()
    settings.EMAIL_BACKEND = "booking.outbox.smtp_delivery.EmailBackend"  # what settings.py makes of Django's SMTP backend
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = "127.0.0.1", port, 3
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    inbox.start, inbox.stop = controller.start, controller.stop
    yield inbox
    try:
        controller.stop()
    except Exception:
        pass
