"""In a real browser: the change-dates page has the booking page's calendar of free nights. It opens
on the month of the stay, the stay's own nights are free to its guest, and two clicks on the
calendar lead to the new price. Screenshot: test-artifacts/browser/change-dates-calendar.png."""

import re

import pytest
from django.test import Client

from tests.browser.conftest import DESKTOP, open_browser, requires_chromium, screenshot
from tests.dates import future
from tests.payments.conftest import sandbox  # noqa: F401

pytestmark = [pytest.mark.live, pytest.mark.slow, requires_chromium, pytest.mark.timeout(180)]


@pytest.fixture
def confirmed_stay(site_url, sandbox):  # noqa: F811
    from tests.money.test_date_changes import book_and_pay

    return book_and_pay(Client(), 60)


def test_two_clicks_on_the_calendar_lead_to_the_new_price(site_url, confirmed_stay):
    from playwright.sync_api import expect

    new_in, new_out = future(61), future(65)  # a day later and longer: over the stay's own nights
    with open_browser(**DESKTOP) as (page, errors):
        page.goto(f"{site_url}/manage/{confirmed_stay.manage_token}/change-dates")
        own_night = page.locator(f'[data-free-nights-calendar] .day[data-date="{future(61).isoformat()}"]')
        expect(own_night).to_be_visible()
        assert "is-taken" not in (own_night.get_attribute("class") or ""), "the stay's own nights are free to its guest"
        own_night.click()
        page.locator(f'[data-free-nights-calendar] .day[data-date="{new_out.isoformat()}"]').click()
        go = page.locator("[data-free-nights-calendar] [data-continue]")
        expect(go).to_have_attribute("aria-disabled", "false")
        screenshot(page, "change-dates-calendar")
        go.click()
        page.wait_for_url(re.compile(rf"/change-dates\?check_in={new_in.isoformat()}&check_out={new_out.isoformat()}"))
        expect(page.locator("[data-change-preview]")).to_be_visible()
        assert errors == [], f"JavaScript errors: {errors}"
