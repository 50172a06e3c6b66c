"""Online check-in on a 390 px phone, in Italian, for a party of three (issue 30): the manage page
leads to the form, the comune typeahead fills the province, the form is sent, and the manage page
then shows the arrival instructions. Screenshots go to test-artifacts/browser/check-in-*.png."""

from datetime import timedelta
from decimal import Decimal

import pytest

from tests.browser.conftest import PHONE, open_browser, requires_chromium, screenshot

pytestmark = [pytest.mark.live, pytest.mark.slow, requires_chromium, pytest.mark.timeout(180)]

GUESTS = [
    {
        "first_name": "Giulia",
        "last_name": "Neri",
        "sex": "F",
        "date_of_birth": "1984-03-09",
        "citizenship": "IT",
        "country_of_birth": "IT",
        "comune": "Firenze (FI)",
    },
    {"first_name": "Jürgen", "last_name": "Müller", "sex": "M", "date_of_birth": "1982-11-20", "citizenship": "DE", "country_of_birth": "DE"},
    {
        "first_name": "Sofia",
        "last_name": "Müller",
        "sex": "F",
        "date_of_birth": "2019-05-02",
        "citizenship": "DE",
        "country_of_birth": "IT",
        "comune": "Forlì (FC)",
    },
]
NAMES = {"IT": "Italia", "DE": "Germania"}


@pytest.fixture
def stay_tomorrow(live_url, demo_property):
    from booking.italy.models import ItalySettings
    from booking.reservations.models import Reservation, new_manage_token
    from tests.dates import future

    italy = ItalySettings.for_property(demo_property)
    italy.arrival_instructions_en = "The door code is 4321."
    italy.arrival_instructions_it = "Il codice del portone è 4321. Wi-Fi: AtticoSantaCroce."
    italy.save()
    return Reservation.objects.create(
        property=demo_property,
        status=Reservation.Status.CONFIRMED,
        check_in=future(1),
        check_out=future(1) + timedelta(days=3),
        guests=3,
        price_breakdown={},
        total=Decimal("900.00"),
        amount_paid=Decimal("900.00"),
        guest_first_name="Giulia",
        guest_email="giulia@example.com",
        language="it",
        manage_token=new_manage_token(),
    )


def test_a_party_of_three_checks_in_on_a_phone_in_italian(live_url, stay_tomorrow):
    from playwright.sync_api import expect

    manage = f"{live_url}/it/manage/{stay_tomorrow.manage_token}"
    with open_browser(**PHONE) as (page, errors):
        page.goto(manage)
        expect(page.locator("[data-arrival-instructions]")).to_have_count(0)
        page.locator("[data-check-in-link]").click()
        expect(page.locator("h1")).to_have_text("Check-in online")
        for index, guest in enumerate(GUESTS):
            page.fill(f"#g{index}-first_name", guest["first_name"])
            page.fill(f"#g{index}-last_name", guest["last_name"])
            page.select_option(f"#g{index}-sex", guest["sex"])
            page.fill(f"#g{index}-date_of_birth", guest["date_of_birth"])
            page.select_option(f"#g{index}-citizenship", label=NAMES[guest["citizenship"]])  # chosen by its Italian name
            page.select_option(f"#g{index}-country_of_birth", label=NAMES[guest["country_of_birth"]])
            if "comune" in guest:
                page.fill(f"#g{index}-comune_of_birth", guest["comune"])  # as picked from the typeahead
                name, province = guest["comune"][:-5], guest["comune"][-3:-1]
                expect(page.locator(f"#g{index}-comune_of_birth")).to_have_value(name)
                expect(page.locator(f"#g{index}-province_of_birth")).to_have_value(province)
        page.locator("#g0-comune_of_birth").fill("Firen")  # the typeahead asks the server for comuni
        expect(page.locator("#comuni option[value='Firenze (FI)']")).to_have_count(1)
        page.locator("#g0-comune_of_birth").fill("Firenze (FI)")
        page.select_option("#g0-document_type", "identity_card")
        page.fill("#g0-document_number", "CA12345AB")
        page.fill("#g0-document_issued_in", "Firenze")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, "the form fits the phone"
        screenshot(page, "check-in-1-form")
        page.get_by_role("button", name="Completa il check-in").click()
        expect(page.locator("[data-arrival-instructions]")).to_contain_text("Il codice del portone è 4321.")
        expect(page.locator("[data-check-in-status]")).to_have_attribute("data-check-in-status", "complete")
        assert "CA12345AB" not in page.content()
        screenshot(page, "check-in-2-arrival-instructions")
        assert errors == []


@pytest.mark.same_on_every_database
def test_the_check_in_pages_pass_axe(live_url, stay_tomorrow):
    from tests.browser.test_accessibility import AXE, serious_violations

    if not AXE.exists():
        pytest.skip("axe-core not fetched")
    with open_browser(**PHONE, bypass_csp=True) as (page, _errors):
        found = {}
        page.goto(f"{live_url}/it/manage/{stay_tomorrow.manage_token}/check-in")
        found["form"] = serious_violations(page)
        page.get_by_role("button", name="Completa il check-in").click()  # empty: every field in error
        page.wait_for_selector("[data-check-in-errors]")
        found["errors"] = serious_violations(page)
        page.goto(f"{live_url}/it/manage/{stay_tomorrow.manage_token}")
        found["manage"] = serious_violations(page)
    assert not any(found.values()), found
