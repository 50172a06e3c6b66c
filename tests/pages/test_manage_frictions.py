"""Two frictions of the guest's pages: the change-dates page has the booking page's calendar of
free nights (not bare date boxes), and a cancelled stay's page offers no "Add to calendar" (nor
its calendar file)."""

import json
import re

import pytest

from booking.payments.services.cancellation import cancel_stay
from tests.dates import future
from tests.pages.test_manage import book_and_pay, own_cache, sandbox  # noqa: F401

pytestmark = pytest.mark.django_db


@pytest.fixture
def stay(client, site, sandbox):  # noqa: F811
    return book_and_pay(client, 60)


def config_of(html: str) -> dict:
    found = re.search(r'<script id="booking-config" type="application/json">(.*?)</script>', html, flags=re.S)
    assert found, "the date picker's configuration is on the page"
    return json.loads(found.group(1))


def test_a_cancelled_stay_offers_no_calendar_file(client, stay):
    page = f"/manage/{stay.manage_token}"
    assert "Add to calendar" in client.get(page).content.decode()
    cancel_stay(stay.pk, actor="staff anna")
    html = client.get(page).content.decode()
    assert 'data-reservation-status="cancelled"' in html
    assert "Add to calendar" not in html and "stay.ics" not in html
    assert client.get(f"{page}/stay.ics").status_code == 404


def test_the_change_dates_page_shows_the_calendar_of_free_nights(client, stay):
    html = client.get(f"/manage/{stay.manage_token}/change-dates").content.decode()
    assert "data-free-nights-calendar" in html and 'data-booking data-mode="change"' in html
    assert 'id="calendar"' in html and "js/booking" in html  # the booking page's own picker and script
    config = config_of(html)
    assert config["endpoints"]["calendar"] == "/api/v1/calendar"
    assert config["ownStay"] == {"from": str(stay.check_in), "to": str(stay.check_out)}  # free to this guest
    assert config["continuePath"] == f"/manage/{stay.manage_token}/change-dates"
    assert config["initial"]["guests"] == str(stay.guests)
    assert 'id="change-dates-form"' in html  # the date boxes stay, for a browser without scripts


def test_dates_chosen_on_the_calendar_come_back_preselected_with_their_price(client, stay):
    html = client.get(f"/manage/{stay.manage_token}/change-dates", {"check_in": str(future(70)), "check_out": str(future(73))}).content.decode()
    config = config_of(html)
    assert (config["initial"]["check_in"], config["initial"]["check_out"]) == (str(future(70)), str(future(73)))
    assert "data-change-preview" in html


def test_the_change_dates_page_in_italian_labels_the_calendar(client, stay):
    html = client.get(f"/it/manage/{stay.manage_token}/change-dates").content.decode()
    assert 'aria-label="Notti libere"' in html and config_of(html)["continuePath"] == f"/it/manage/{stay.manage_token}/change-dates"
