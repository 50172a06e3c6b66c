"""On a 390 px phone, in a real browser: a guest with a confirmed stay two months ahead opens their
booking page, chooses later and longer dates, sees the new price and the difference, confirms, and
is back on the booking page with the new dates and the difference to pay; the stay's .ics follows.
Screenshots go to test-artifacts/browser/change-dates-*.png."""

import re
from datetime import timedelta

import pytest
import requests
from django.test import Client
from icalendar import Calendar

from tests.browser.conftest import PHONE, open_browser, requires_chromium, screenshot
from tests.dates import future
from tests.payments.conftest import sandbox  # noqa: F401

pytestmark = [pytest.mark.live, pytest.mark.slow, requires_chromium, pytest.mark.timeout(180)]


@pytest.fixture
def confirmed_stay(site_url, sandbox):  # noqa: F811
    from tests.money.test_date_changes import book_and_pay

    reservation = book_and_pay(Client(), 60)
    return reservation.pk, reservation.manage_token


def test_the_guest_changes_the_dates_on_a_phone(site_url, confirmed_stay):
    from playwright.sync_api import expect

    reservation_id, token = confirmed_stay
    new_in, new_out = future(75), future(79)
    with open_browser(**PHONE) as (page, errors):
        page.goto(f"{site_url}/manage/{token}")
        page.locator("#change-dates").click()
        page.wait_for_url(re.compile(r"/change-dates$"))
        page.fill("#new-check-in", new_in.isoformat())
        page.fill("#new-check-out", new_out.isoformat())
        page.locator("#see-new-price").click()
        preview = page.locator("[data-change-preview]")
        expect(preview).to_be_visible()
        expect(page.locator("[data-difference]")).to_contain_text("+")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, "the page scrolls sideways on a phone"
        screenshot(page, "change-dates-1-preview")
        page.locator("input[name='confirm']").check()
        page.locator("#change-dates-button").click()
        page.wait_for_url(re.compile(r"/manage/[A-Za-z0-9_-]{40,}\?dates_changed=1$"))
        expect(page.locator("[data-dates-changed]")).to_be_visible()
        expect(page.locator("[data-balance-due]")).to_be_visible()
        screenshot(page, "change-dates-2-done")
        assert errors == [], f"JavaScript errors: {errors}"

    stay = requests.get(f"{site_url}/api/v1/reservations/{reservation_id}", timeout=10).json()
    assert (stay["check_in"], stay["check_out"]) == (str(new_in), str(new_out))
    ics = Calendar.from_ical(requests.get(f"{site_url}/manage/{token}/stay.ics", timeout=10).content).walk("VEVENT")[0]
    assert ics.decoded("DTSTART") == new_in and ics.decoded("DTEND") == new_in + timedelta(days=4) and int(ics["SEQUENCE"]) == 1
