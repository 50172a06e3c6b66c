"""Every page passes axe-core with no serious or critical violation, on a phone and on a desktop.

axe-core comes from the npm registry (`make test` fetches it into .venv/axe-core: see the
Makefile); the page's Content-Security-Policy is bypassed for the test only, so that the engine can
be injected. The pages are those the sitemap lists, plus the booking flow and the agent pages."""

import json
import re
from pathlib import Path

import pytest
import requests

from tests.browser.conftest import DESKTOP, PHONE, ROOT, open_browser, requires_chromium

# What axe-core reads is the rendered page, the same from SQLite and PostgreSQL: SQLite run only
# (see same_on_every_database in tests/conftest.py).
pytestmark = [pytest.mark.live, pytest.mark.slow, requires_chromium, pytest.mark.timeout(600), pytest.mark.same_on_every_database]

AXE = ROOT / ".venv" / "axe-core" / "axe.min.js"
SERIOUS = {"serious", "critical"}
NOT_IN_THE_SITEMAP = ["/book", "/api", "/mcp", "/agents", "/thank-you", "/this-page-does-not-exist"]


def pages_of(site_url: str) -> list[str]:
    sitemap = requests.get(site_url + "/sitemap.xml", timeout=30).text
    paths = [re.sub(r"^https?://[^/]+", "", url) for url in re.findall(r"<loc>([^<]+)</loc>", sitemap)]
    return sorted(set(paths) | set(NOT_IN_THE_SITEMAP))


def serious_violations(page) -> list[dict]:
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    return [
        {"rule": v["id"], "impact": v["impact"], "nodes": [n["target"] for n in v["nodes"]][:5], "help": v["help"]}
        for v in result["violations"]
        if v["impact"] in SERIOUS
    ]


@pytest.mark.skipif(not AXE.exists(), reason=f"{AXE} is missing: `make test` fetches axe-core from the npm registry")
@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_no_serious_accessibility_violation_on_any_page(site_url, device):
    found = {}
    options = {**(PHONE if device == "phone" else DESKTOP), "bypass_csp": True}
    with open_browser(**options) as (page, _errors):
        for path in pages_of(site_url):
            page.goto(site_url + path)
            if path == "/book":
                # The booking widget with a stay chosen: the quote, the calendar and the buttons.
                page.wait_for_selector("[data-date]", timeout=15_000)
            violations = serious_violations(page)
            if violations:
                found[path] = violations
    assert not found, json.dumps(found, indent=1)


def test_the_engine_is_the_pinned_release():
    if not AXE.exists():
        pytest.skip("axe-core not fetched")
    assert Path(AXE).read_text()[:200].find("axe v4.14.1") != -1
