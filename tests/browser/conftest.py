"""A real browser (Debian's Chromium, driven by Playwright) against a real server (granian, as `make run`).

Chromium comes from the system package (`apt-get install chromium`; .ci/run installs it), never from
`playwright install`: nothing outside the machine is reachable. Without it the tests are skipped.

Playwright's sync API runs an event loop in the test's thread, and Django refuses ORM calls from
there; so the database is prepared before the browser starts, and checked through the HTTP API.
"""

from contextlib import contextmanager
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = ROOT / "test-artifacts" / "browser"
TIMEOUT_MS = 15_000

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 900}}


# Applied by each browser test module as its pytestmark.
requires_chromium = pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason=f"{CHROMIUM} is missing: install Debian's chromium package (apt-get install chromium) to run the browser tests",
)


@pytest.fixture(scope="session")
def collected_static():
    """The live server runs as in production (DEBUG off, whitenoise's manifest): collect first,
    into STATIC_ROOT, exactly as `make run` does (once per test process, shared with tests/live.py)."""
    from tests.live import collect_static_once

    collect_static_once()


@pytest.fixture(scope="module")
def browser_server(django_db_setup, django_db_blocker, collected_static):
    """One live server per test module, as for tests/agents: starting the server takes a second or
    more, and these tests only talk to it over HTTP. It serves the test database, which each test
    still gets fresh (live_url below); the server's caches follow the property's rules_version, and
    a fresh demo property has a new id."""
    from tests.live import live_server

    with live_server() as url:
        yield url


@pytest.fixture
def live_url(browser_server, transactional_db, demo_property):
    """Base URL of the module's live server, on a fresh test database with the demo property."""
    return browser_server


@pytest.fixture
def site_url(live_url):
    """A live server with the demo property and the demo website content."""
    from pages import demo

    demo.load()
    return live_url


@contextmanager
def open_browser(**context_options):
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=TIMEOUT_MS)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, timeout=30_000)
        try:
            context = browser.new_context(**context_options)
            context.set_default_timeout(TIMEOUT_MS)
            context.set_default_navigation_timeout(TIMEOUT_MS)
            page = context.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            yield page, errors
        finally:
            browser.close()


def screenshot(page, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    # From the top, so the sticky header is not painted mid-page in the full-page capture.
    page.evaluate("window.scrollTo({top: 0, behavior: 'instant'})")
    page.screenshot(path=str(path), full_page=True)
    return path
