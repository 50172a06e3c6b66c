"""The Italian site in a real browser, on a phone and a desktop: the page says it is Italian, reads
Italian, writes money the Italian way, offers the other languages, and fits the screen. The
screenshots are kept in test-artifacts/browser/ (it-home-phone.png, it-home-desktop.png,
it-book-quote-phone.png)."""

import re

import pytest

from tests.browser.conftest import DESKTOP, PHONE, open_browser, requires_chromium, screenshot
from tests.browser.test_booking_flow import choose_first_free_stay

pytestmark = [pytest.mark.live, requires_chromium]

ITALIAN_MONEY = re.compile(r"\d{1,3}(\.\d{3})*,\d{2}\s€")  # "1.128,00 €"


@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_the_italian_home_page(site_url, device):
    from playwright.sync_api import expect

    with open_browser(**(PHONE if device == "phone" else DESKTOP)) as (page, errors):
        page.goto(site_url + "/it/")
        assert page.evaluate("document.documentElement.lang") == "it"
        expect(page.locator("h1")).to_be_visible()
        expect(page.locator("body")).to_contain_text("Prenota")
        hreflangs = page.eval_on_selector_all("link[rel=alternate][hreflang]", "links => links.map(l => l.hreflang).sort()")
        assert hreflangs == ["de", "en", "fr", "it", "x-default"]
        overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, f"the Italian home page is {overflow}px wider than the screen"
        screenshot(page, f"it-home-{device}")
        assert errors == []


def test_booking_in_italian_on_a_phone_writes_money_the_italian_way(site_url):
    from playwright.sync_api import expect

    with open_browser(**PHONE) as (page, errors):
        page.goto(site_url + "/it/book")
        expect(page.locator(".day").first).to_be_visible()
        choose_first_free_stay(page, expect)
        total = page.locator(".quote-lines tr.total td")
        expect(total).to_have_text(ITALIAN_MONEY)
        expect(page.locator("#book-button")).to_have_text("Prenota e paga")
        screenshot(page, "it-book-quote-phone")
        assert errors == []


def test_the_header_fits_every_language_at_every_desktop_width(site_url):
    # Italian and German menu words are longer: the menu wraps, the page never scrolls sideways.
    with open_browser(**DESKTOP) as (page, errors):
        for width in (1024, 1180, 1280, 1366):
            page.set_viewport_size({"width": width, "height": 900})
            for language in ("", "/it", "/de", "/fr"):
                page.goto(f"{site_url}{language}/")
                overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
                assert overflow <= 0, f"{language or '/en'} at {width}px is {overflow}px too wide"
