"""Come back to your own hold on a phone (390×844, issue 34 item 2): a guest leaves the payment page
without paying or cancelling (closes the tab), opens /book again, finds their dates held for them
until a time, continues to the same payment page, then comes back once more and releases them.

Screenshots go to test-artifacts/browser/own-hold-*.png."""

import re

import pytest
import requests

from tests.browser.conftest import PHONE, open_browser, requires_chromium, screenshot
from tests.browser.test_booking_flow import choose_first_free_stay

pytestmark = [pytest.mark.live, pytest.mark.slow, requires_chromium, pytest.mark.timeout(180)]


def test_leave_the_checkout_come_back_continue_and_release(site_url):
    from playwright.sync_api import expect

    with open_browser(**PHONE) as (page, errors):
        page.goto(site_url + "/book")
        expect(page.locator(".day").first).to_be_visible()
        check_in, check_out = choose_first_free_stay(page, expect)
        page.locator("#book-button").click()
        expect(page.locator("#pay-button")).to_be_visible()
        checkout_url = page.url

        # The tab is left (no cancel): the guest comes back to /book another way.
        page.goto(site_url + "/book")
        own = page.locator("[data-own-hold]")
        expect(own).to_be_visible()
        expect(own).to_contain_text(re.compile(r"are held for you until \d\d:\d\d(?: on \d{1,2} \w{3}(?: \d{4})?)?\."))  # with its date after midnight
        assert page.locator("[data-other-holds]").count() == 0
        box = own.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390 + 0.5, "the notice fits the phone"
        screenshot(page, "own-hold-1-back-on-book")

        # Continue to payment: the very same checkout, still open.
        own.get_by_role("link", name="Continue to payment").click()
        expect(page.locator("#pay-button")).to_be_visible()
        assert page.url == checkout_url

        # Back again, and this time let the dates go.
        page.goto(site_url + "/book")
        page.get_by_role("button", name="Release them").click()
        expect(page.locator("[data-own-hold]")).to_have_count(0)
        expect(page.locator(".day").first).to_be_visible()
        screenshot(page, "own-hold-2-released")
        availability = requests.get(f"{site_url}/api/v1/availability", params={"check_in": check_in, "check_out": check_out, "guests": 2}, timeout=10).json()
        assert availability["available"] is True, availability
        assert errors == []
