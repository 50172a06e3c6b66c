"""The reminder of an unfinished booking on a phone (390×844, issue 34 item 2): the guest ticks "If I
don't finish, email me once a link…", gives an address, goes to the payment page and leaves it; the
job emails the link once; opened on another device, it shows the dates held for them and continues
to the same payment page.

Screenshots go to test-artifacts/browser/hold-reminder-*.png."""

import re
from datetime import date, timedelta

import pytest
import requests
from django.utils import timezone

from booking.outbox.models import OutboundEmail
from booking.reservations.models import Reservation
from booking.reservations.services.hold_reminders import queue_hold_reminders, resume_token
from tests.browser.conftest import PHONE, open_browser, requires_chromium, screenshot
from tests.browser.test_booking_flow import choose_first_free_stay, euros

pytestmark = [pytest.mark.live, pytest.mark.slow, requires_chromium, pytest.mark.timeout(180)]


def test_tick_the_reminder_leave_the_checkout_and_come_back_by_the_email_link(site_url):
    from playwright.sync_api import expect

    with open_browser(**PHONE) as (page, errors):
        page.goto(site_url + "/book")
        expect(page.locator(".day").first).to_be_visible()
        choose_first_free_stay(page, expect)
        reminder = page.locator("#remind-me")
        expect(reminder).not_to_be_checked()
        reminder.check()
        page.locator("#book-button").click()
        expect(page.locator("[data-error]")).to_contain_text("Please give your email for the reminder, or untick the box.")
        page.locator("#remind-email").fill("anna@example.com")
        box = page.locator("[data-reminder]").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390 + 0.5, "the reminder box fits the phone"
        screenshot(page, "hold-reminder-1-ticked")
        page.locator("#book-button").click()
        expect(page.locator("#pay-button")).to_be_visible()
        checkout_url = page.url
        assert errors == []

    # The tab is left; the beat job runs (the ORM outside Playwright's event loop).
    hold = Reservation.objects.get(reminder_email="anna@example.com")
    assert queue_hold_reminders(now=timezone.now() + timedelta(minutes=16)) == 1
    assert queue_hold_reminders(now=timezone.now() + timedelta(minutes=17)) == 0
    body = OutboundEmail.objects.get(reservation=hold, kind=OutboundEmail.Kind.HOLD_REMINDER).body
    link = re.search(r"https?://\S+(/book/resume/\S+)", body)
    assert link, body

    with open_browser(**PHONE) as (page, errors):  # another device: no cookie of its own
        page.goto(site_url + link.group(1))
        own = page.locator("[data-own-hold]")
        expect(own).to_be_visible()
        expect(own).to_contain_text(re.compile(r"are held for you until \d\d:\d\d(?: on \d{1,2} \w{3}(?: \d{4})?)?\."))  # with its date after midnight
        screenshot(page, "hold-reminder-2-back-by-the-link")
        own.get_by_role("link", name="Continue to payment").click()
        expect(page.locator("#pay-button")).to_be_visible()
        assert page.url == checkout_url, "the same checkout: no second way to pay"
        assert errors == []


def test_a_lapsed_hold_comes_back_with_its_code_and_extras(site_url):
    """The link of a hold that lapsed fills in /book again: dates, party, the promo code and the
    extras, priced again by the page's quote."""
    from playwright.sync_api import expect

    for offset in range(60, 90):  # the first stay of three nights the rules take
        check_in, check_out = date.today() + timedelta(days=offset), date.today() + timedelta(days=offset + 3)
        body = {
            "check_in": str(check_in),
            "check_out": str(check_out),
            "guests": 2,
            "promo_code": "WELCOME10",
            "extras": [{"code": "airport_transfer", "quantity": 2}, {"code": "late_checkout", "quantity": 1}],
        }
        held = requests.post(f"{site_url}/api/v1/reservations", json=body, timeout=10)
        if held.status_code == 201:
            break
    assert held.status_code == 201, held.text
    hold = Reservation.objects.get(pk=held.json()["id"])
    Reservation.objects.filter(pk=hold.pk).update(status=Reservation.Status.EXPIRED, hold_expires_at=timezone.now() - timedelta(seconds=1))

    with open_browser(**PHONE) as (page, errors):
        page.goto(f"{site_url}/book/resume/{resume_token(hold)}")
        expect(page.locator("[data-resumed]")).to_be_visible()
        expect(page.locator("#promo-code")).to_be_visible()
        expect(page.locator("#promo-code")).to_have_value("WELCOME10")
        expect(page.locator("#extra-airport_transfer")).to_have_value("2")
        expect(page.locator("#extra-late_checkout")).to_be_checked()
        lines = page.locator(".quote-lines")
        expect(lines.locator("tr.total td")).to_have_text(euros(hold.total))
        expect(lines).to_contain_text("Promo code WELCOME10")
        expect(lines).to_contain_text("Airport transfer")
        expect(page.locator("[data-promo-status]")).to_contain_text("Code WELCOME10 applied")
        screenshot(page, "hold-reminder-3-lapsed-with-offers")
        assert errors == [], f"JavaScript errors: {errors}"
