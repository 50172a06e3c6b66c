"""The guest changes their stay's dates from the manage page, {link}/change-dates (issue 34, item 5):
a form, the new price and the difference, a confirmed POST with CSRF; the rules of
docs/date-changes.md. Stays are booked and paid in the sandbox, as a guest does it."""

from decimal import Decimal
from urllib.parse import urlsplit

import pytest
from django.test import Client

from booking.outbox.models import OutboundEmail
from booking.reservations.models import Reservation
from tests.dates import future
from tests.pages.test_manage import book_and_pay, own_cache, sandbox  # noqa: F401

pytestmark = pytest.mark.django_db


@pytest.fixture
def stay(client, site, sandbox):  # noqa: F811
    return book_and_pay(client, 60)


def change_page(client, reservation, **params):
    return client.get(f"/manage/{reservation.manage_token}/change-dates", params)


def test_the_booking_page_links_to_the_change(client, stay):
    html = client.get(f"/manage/{stay.manage_token}").content.decode()
    assert f'href="/manage/{stay.manage_token}/change-dates"' in html


def test_the_form_then_the_preview_then_the_change(client, stay):
    form = change_page(client, stay)
    assert form.status_code == 200 and 'type="date"' in form.content.decode() and form["Cache-Control"] == "private, no-store"
    preview = change_page(client, stay, check_in=future(70), check_out=future(74))
    html = preview.content.decode()
    assert preview.status_code == 200 and "data-change-preview" in html and "data-difference" in html
    assert 'name="total"' in html and "csrfmiddlewaretoken" in html
    total = html.split('name="total" value="')[1].split('"')[0]
    unticked = client.post(f"/manage/{stay.manage_token}/change-dates", {"check_in": future(70), "check_out": future(74), "total": total})
    assert unticked.status_code == 400
    stay.refresh_from_db()
    assert stay.check_in == future(60)
    done = client.post(f"/manage/{stay.manage_token}/change-dates", {"check_in": future(70), "check_out": future(74), "total": total, "confirm": "yes"})
    assert done.status_code == 303 and done["Location"].endswith("?dates_changed=1")
    stay.refresh_from_db()
    assert (stay.check_in, stay.check_out, str(stay.total)) == (future(70), future(74), total)
    assert "data-dates-changed" in client.get(done["Location"]).content.decode()
    assert OutboundEmail.objects.filter(reservation=stay, kind="dates_changed").exists()


def test_the_post_needs_the_csrf_token(stay):
    strict = Client(enforce_csrf_checks=True)
    response = strict.post(f"/manage/{stay.manage_token}/change-dates", {"check_in": future(70), "check_out": future(73), "confirm": "yes", "total": "1"})
    assert response.status_code == 403
    stay.refresh_from_db()
    assert stay.check_in == future(60)


def test_taken_dates_are_refused_with_a_clear_message_in_the_guests_language(client, stay):
    other = book_and_pay(client, 70)
    preview = client.get(f"/it/manage/{stay.manage_token}/change-dates", {"check_in": other.check_in, "check_out": other.check_out})
    assert preview.status_code == 409 and "data-change-error" in preview.content.decode()
    assert "Alcune di queste notti" in preview.content.decode()
    assert "data-change-preview" not in preview.content.decode()


def test_a_stay_past_the_full_refund_tier_cannot_be_changed_here(client, site, sandbox):  # noqa: F811
    late = book_and_pay(client, 20)
    page = change_page(client, late)
    assert page.status_code == 200 and "data-change-refused" in page.content.decode() and 'type="date"' not in page.content.decode()
    posted = client.post(f"/manage/{late.manage_token}/change-dates", {"check_in": future(40), "check_out": future(43), "confirm": "yes", "total": "1"})
    assert posted.status_code == 409
    late.refresh_from_db()
    assert late.check_in == future(20)


def test_a_dearer_change_leads_to_the_balance_checkout(client, stay):
    preview = change_page(client, stay, check_in=future(60), check_out=future(65)).content.decode()
    total = preview.split('name="total" value="')[1].split('"')[0]
    client.post(f"/manage/{stay.manage_token}/change-dates", {"check_in": future(60), "check_out": future(65), "total": total, "confirm": "yes"})
    page = client.get(f"/manage/{stay.manage_token}").content.decode()
    assert 'id="pay-balance"' in page
    checkout = client.post(f"/manage/{stay.manage_token}/pay-balance")
    assert checkout.status_code == 303 and urlsplit(checkout["Location"]).path.startswith("/")
    assert Reservation.objects.get(pk=stay.pk).total == Decimal(total)


@pytest.mark.parametrize(
    "check_in, check_out",
    [
        (None, "9999-12-30"),  # a stay of three million nights: refused before the calendar is read night by night
        ("9999-12-30", "9999-12-31"),  # the end of the calendar: refused by the rules, not by an OverflowError
        ("0001-01-01", "0001-01-03"),
    ],
)
def test_dates_at_the_ends_of_the_calendar_are_refused_not_a_server_error(client, stay, monkeypatch, check_in, check_out):
    from booking.payments.services import date_changes

    if check_in is None:
        check_in = str(stay.check_in)
        monkeypatch.setattr(date_changes, "_taken_ranges_without", lambda *args: pytest.fail("read the calendar for a stay no rule allows"))
    response = change_page(client, stay, check_in=check_in, check_out=check_out)
    assert response.status_code == 409
