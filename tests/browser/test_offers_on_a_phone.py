"""On a 390 px phone a guest applies the code WELCOME10, adds two extras, sees the saving at once
and pays; the stay keeps the code and the extras (docs/offers.md).

Screenshots go to test-artifacts/browser/phone-offers-*.png."""

import re
from datetime import date, timedelta

import pytest
import requests

from tests.browser.conftest import PHONE, open_browser, requires_chromium, screenshot
from tests.browser.test_booking_flow import euros

pytestmark = [pytest.mark.live, pytest.mark.slow, requires_chromium, pytest.mark.timeout(180)]


def test_a_guest_applies_a_code_and_two_extras_and_pays_on_a_phone(site_url):
    from playwright.sync_api import expect

    with open_browser(**PHONE) as (page, errors):
        page.goto(site_url + "/book")
        expect(page.locator(".day").first).to_be_visible()
        page.locator("[data-next]").click()
        arrival = page.locator(".day[aria-disabled='false']").first
        check_in = arrival.get_attribute("data-date")
        check_out = str(date.fromisoformat(check_in) + timedelta(days=3))  # WELCOME10: stays of 3 nights or more
        arrival.click()
        page.locator(f".day[data-date='{check_out}']").click()
        expect(page.locator(f".day[data-date='{check_out}']")).to_have_attribute("aria-pressed", "true")
        expect(page.locator(".quote-lines tr.total")).to_be_visible()

        page.get_by_label(re.compile("Airport transfer")).select_option("1")  # up to two transfers
        page.get_by_label(re.compile("Late check-out")).check()
        page.get_by_text("Have a code?").click()
        page.get_by_placeholder("Promo code").fill("welcome10")
        page.get_by_role("button", name="Apply").click()

        body = {
            "check_in": check_in,
            "check_out": check_out,
            "guests": 2,
            "promo_code": "WELCOME10",
            "extras": [{"code": "airport_transfer", "quantity": 1}, {"code": "late_checkout", "quantity": 1}],
        }
        quote = requests.post(f"{site_url}/api/v1/quote", json=body, timeout=10).json()
        promo = next(d for d in quote["discounts"] if d["code"] == "WELCOME10")
        status = page.locator("[data-promo-status]")
        expect(status).to_have_text(f"Code WELCOME10 applied: you save {euros(-promo['amount'])}.")
        lines = page.locator(".quote-lines")
        expect(lines.locator("tr.total td")).to_have_text(euros(quote["total"]))
        expect(lines).to_contain_text("Promo code WELCOME10")
        expect(lines).to_contain_text("Airport transfer")
        expect(lines).to_contain_text(euros(60))
        expect(lines).to_contain_text("Late check-out")
        # Everything fits the phone's width.
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["viewport"]["width"] + 1
        screenshot(page, "phone-offers-1-quote")

        page.locator("#book-button").scroll_into_view_if_needed()
        page.locator("#book-button").click()
        expect(page.locator("#pay-button")).to_be_visible()
        page.fill("input[name='email']", "offers.guest@example.com")
        page.fill("input[name='name']", "Grace Hopper")
        page.fill("input[name='phone']", "+1 555 0100")
        page.locator("#pay-button").click()
        page.wait_for_url(re.compile(r"/thank-you\?reservation_id=res_"))
        expect(page.locator("[data-reservation-status]")).to_have_attribute("data-reservation-status", "confirmed")
        screenshot(page, "phone-offers-2-thank-you")
        reservation_id = page.url.split("reservation_id=")[1].split("&")[0]
        assert errors == [], f"JavaScript errors: {errors}"

    reservation = requests.get(f"{site_url}/api/v1/reservations/{reservation_id}", timeout=10).json()
    breakdown = reservation["price_breakdown"]
    assert reservation["status"] == "confirmed" and breakdown["total"] == quote["total"]
    assert [e["code"] for e in breakdown["extras"]] == ["airport_transfer", "late_checkout"] and breakdown["extras_total"] == 100.0
    assert any(d["code"] == "WELCOME10" for d in breakdown["discounts"])


def test_a_gap_between_two_stays_is_marked_and_booked_whole(site_url):
    from playwright.sync_api import expect

    # Two stays leave one night free between them, 40 days ahead: shorter than any minimum stay.
    first = date.today() + timedelta(days=40)
    gap, after = first + timedelta(days=3), first + timedelta(days=4)
    for check_in, check_out in ((first, gap), (after, after + timedelta(days=3))):
        held = requests.post(f"{site_url}/api/v1/reservations", json={"check_in": str(check_in), "check_out": str(check_out), "guests": 2}, timeout=10)
        assert held.status_code == 201, held.text

    with open_browser(**PHONE) as (page, errors):
        page.goto(site_url + "/book")
        expect(page.locator(".day").first).to_be_visible()
        for _ in range(3):
            if page.locator(f".day[data-date='{gap}']").count():
                break
            page.locator("[data-next]").click()
        night = page.locator(f".day[data-date='{gap}']")
        expect(night).to_have_class(re.compile("gap-night"))
        night.scroll_into_view_if_needed()
        night.click()
        page.locator(f".day[data-date='{after}']").click()
        expect(page.locator(f".day[data-date='{after}']")).to_have_attribute("aria-pressed", "true")
        lines = page.locator(".quote-lines")
        expect(lines).to_contain_text("Gap-night discount (−15%)")
        expect(page.locator("#book-button")).to_be_enabled()
        screenshot(page, "phone-offers-3-gap-night")
        assert errors == [], f"JavaScript errors: {errors}"
