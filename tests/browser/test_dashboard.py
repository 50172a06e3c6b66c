"""The owner logs in to the back office and sees the dashboard: charts drawn without a script, and
nothing the Content-Security-Policy blocks. A screenshot goes to test-artifacts/browser/.
"""

from datetime import timedelta
from decimal import Decimal

import pytest

from tests.browser.conftest import DESKTOP, open_browser, requires_chromium, screenshot
from tests.conftest import future

pytestmark = [pytest.mark.live, pytest.mark.slow, requires_chromium, pytest.mark.timeout(180)]


def a_busy_calendar(prop) -> None:
    """Stays past and future, a hold, a partner feed and an owner's block, and something to look at."""
    from booking.models import DateBlock, Reservation
    from booking.services.holds import GuestDetails, hold_stay
    from booking.services.reservations import confirm_reservation
    from partner_sync.models import Feed, SyncOutcome

    for offset, name, pay in [(2, "Ada", True), (9, "Bruno", False), (40, "Chiara", True)]:
        held = hold_stay(check_in=future(offset), check_out=future(offset + 3), guests=3, guest=GuestDetails(first_name=name, last_name="Rossi"), source="web")
        confirm_reservation(held.pk, actor="test", amount_paid=held.total if pay else None)
    hold_stay(check_in=future(60), check_out=future(63), guests=2, agent_name="trip-bot")
    for months_ago in (1, 2, 4):
        check_in = future(-30 * months_ago)
        Reservation.objects.create(
            property=prop, status="confirmed", source="web", check_in=check_in, check_out=check_in + timedelta(days=5), guests=2,
            total=Decimal("1850.00"), amount_paid=Decimal("1850.00"), price_breakdown={"accommodation": 1600.0, "discount_amount": 0.0},
        )
    airbnb = Feed.objects.create(name="Airbnb", url="https://airbnb.example/ical/1.ics", last_outcome=SyncOutcome.FAILED, last_error="HTTP 503")
    DateBlock.objects.create(property=prop, start=future(20), end=future(25), source="partner", feed_key=airbnb.block_key)
    DateBlock.objects.create(property=prop, start=future(70), end=future(75), source="staff", reason="painting the terrace")


def test_the_owner_sees_the_dashboard_with_its_charts(site_url, demo_property, django_user_model):
    from playwright.sync_api import expect

    a_busy_calendar(demo_property)
    django_user_model.objects.create_superuser("giulia", "giulia@example.com", "a-long-test-password")
    with open_browser(**DESKTOP) as (page, errors):
        console_errors: list[str] = []
        page.on("console", lambda message: message.type == "error" and console_errors.append(message.text))
        page.goto(site_url + "/admin/login/?next=/admin/")
        page.fill("#id_username", "giulia")
        page.fill("#id_password", "a-long-test-password")
        page.click("input[type=submit]")
        expect(page.locator("#booking-dashboard")).to_be_visible()
        expect(page.locator("#dashboard-movements")).to_contain_text("Ada Rossi")
        expect(page.locator("#dashboard-attention")).to_contain_text("HTTP 503")
        assert page.locator("#booking-dashboard svg.dashboard-chart").count() == 2
        assert page.locator("#booking-dashboard svg rect").count() > 0
        screenshot(page, "admin-dashboard")
    assert not errors
    assert not [text for text in console_errors if "Content Security Policy" in text], console_errors
