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
    from booking.callers import Caller
    from booking.reservations.models import DateBlock, Reservation
    from booking.reservations.services.holds import GuestDetails, hold_stay
    from booking.reservations.services.reservations import confirm_reservation
    from partner_sync.models import Feed, SyncOutcome

    for offset, name, pay in [(2, "Ada", True), (9, "Bruno", False), (40, "Chiara", True)]:
        held = hold_stay(
            check_in=future(offset), check_out=future(offset + 3), guests=3, guest=GuestDetails(first_name=name, last_name="Rossi"), caller=Caller("web")
        )
        confirm_reservation(held.pk, actor="test", amount_paid=held.total if pay else None)
    hold_stay(check_in=future(60), check_out=future(63), guests=2, agent_name="trip-bot")
    for months_ago in (1, 2, 4):
        check_in = future(-30 * months_ago)
        Reservation.objects.create(
            property=prop,
            status="confirmed",
            source="web",
            check_in=check_in,
            check_out=check_in + timedelta(days=5),
            guests=2,
            total=Decimal("1850.00"),
            amount_paid=Decimal("1850.00"),
            price_breakdown={"accommodation": 1600.0, "discount_amount": 0.0},
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


def test_the_owner_sets_a_price_over_nights_in_the_rate_calendar_and_the_site_quotes_it(site_url, demo_property, django_user_model):
    """Logged in with the Owner role (not a superuser): dashboard → rate calendar → click the first
    and the last night → a price → the quote the site gives for those nights changes."""
    import os

    from django.contrib.auth.models import Group
    from django.core.management import call_command
    from playwright.sync_api import expect

    call_command("setup_roles", stdout=open(os.devnull, "w"))
    owner = django_user_model.objects.create_user("olivia", "olivia@example.com", "a-long-test-password", is_staff=True)
    owner.groups.add(Group.objects.get(name="Owner"))
    first, last = future(150), future(152)
    stay = {"check_in": str(first), "check_out": str(last + timedelta(days=1)), "guests": 2}
    a_busy_calendar(demo_property)
    with open_browser(viewport={"width": 1366, "height": 900}) as (page, errors):
        page.goto(site_url + "/admin/login/?next=/admin/")
        page.fill("#id_username", "olivia")
        page.fill("#id_password", "a-long-test-password")
        page.click("input[type=submit]")
        expect(page.locator("#booking-dashboard")).to_be_visible()
        before = page.request.post(site_url + "/api/v1/quote", data=stay).json()
        page.click("text=Rate calendar")
        page.goto(site_url + f"/admin/catalog/property/rates/?month={first:%Y-%m}")
        page.click(f"button.night[data-night='{first}']")
        page.click(f"button.night[data-night='{last}']")
        expect(page.locator(f"button.night[data-night='{future(151)}']")).to_have_attribute("aria-pressed", "true")
        expect(page.locator("#id_first_night")).to_have_value(str(first))
        expect(page.locator("#id_last_night")).to_have_value(str(last))
        page.check("input[name=what][value=price]")
        page.fill("#id_nightly_rate", "333")
        screenshot(page, "admin-rate-calendar")
        page.click("#rate-form input[type=submit]")
        expect(page.locator(".messagelist")).to_contain_text("price 333.00 EUR a night")
        expect(page.locator(f"button.night[data-night='{first}'] .night-rate")).to_contain_text("333")
        after = page.request.post(site_url + "/api/v1/quote", data=stay).json()
        assert [n["rate"] for n in after["nightly_rates"]] == [333.0] * 3 != [n["rate"] for n in before["nightly_rates"]]
        assert Decimal(str(after["total"])) != Decimal(str(before["total"]))

        # The property form in tabs: the rates tab shows the seasons, the listing tab does not.
        page.goto(site_url + f"/admin/catalog/property/{demo_property.pk}/change/")
        page.click("#property-tabs [data-tab=rates]")
        expect(page.locator("#seasons-group")).to_be_visible()
        expect(page.locator("#photos-group")).to_be_hidden()
        page.click("#property-tabs [data-tab=listing]")
        expect(page.locator("#photos-group")).to_be_visible()
        expect(page.locator("#photos-group img.photo-thumbnail").first).to_be_visible()

        # The reservation list fits a 1366 px screen: no sideways scrolling.
        page.goto(site_url + "/admin/reservations/reservation/")
        expect(page.locator("#result_list")).to_contain_text("Ada Rossi")
        assert page.evaluate("document.documentElement.scrollWidth") <= 1366
        assert (
            page.evaluate(
                "(() => { const r = document.querySelector('#changelist .results'); return r.scrollWidth <= r.clientWidth || [r.scrollWidth, r.clientWidth]; })()"
            )
            is True
        )  # [scroll, client] when it overflows
        screenshot(page, "admin-reservations")
    assert not errors
