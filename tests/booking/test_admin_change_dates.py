"""Staff change a confirmed stay's dates from the reservation's page (issue 34, item 5): the new
dates, a confirmation page with the old and new price and the difference, then the change through
services.date_changes; only with the change_reservation permission."""

from decimal import Decimal

import pytest
from django.contrib.admin.utils import quote
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse

from booking.outbox.models import OutboundEmail
from booking.reservations.models import Reservation
from tests.dates import future
from tests.money.test_date_changes import book_and_pay
from tests.payments.conftest import sandbox  # noqa: F401

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(client, django_user_model):
    client.force_login(django_user_model.objects.create_superuser("giulia", "giulia@example.com", "a-long-test-password"))
    return client


@pytest.fixture
def stay(demo_property, sandbox):  # noqa: F811
    return book_and_pay(Client(), 10)  # paid in full: a dearer stay then owes, a cheaper one is refunded


def url(reservation: Reservation) -> str:
    return reverse("admin:reservations_reservation_change_dates", args=[quote(reservation.pk)])


def test_the_reservation_page_links_to_the_change(staff_client, stay):
    page = staff_client.get(reverse("admin:reservations_reservation_change", args=[quote(stay.pk)])).content.decode()
    assert url(stay) in page


def test_preview_then_confirm_a_dearer_stay(staff_client, stay):
    form = staff_client.get(url(stay))
    assert form.status_code == 200 and 'type="date"' in form.content.decode()
    preview = staff_client.post(url(stay), {"check_in": future(10), "check_out": future(14), "preview": "1"})
    html = preview.content.decode()
    assert preview.status_code == 200 and "data-new-total" in html and "data-difference" in html and "data-owed" in html
    stay.refresh_from_db()
    assert stay.check_out == future(13)  # nothing changed yet
    total = html.split('name="total" value="')[1].split('"')[0]
    done = staff_client.post(url(stay), {"check_in": future(10), "check_out": future(14), "total": total, "apply": "1"})
    assert done.status_code == 302
    stay.refresh_from_db()
    assert stay.check_out == future(14) and stay.total == Decimal(total)
    assert stay.events.get(action="change_dates").actor == "staff giulia"
    assert OutboundEmail.objects.filter(reservation=stay, kind="dates_changed").exists()


def test_a_cheaper_stay_shows_and_makes_the_refund(staff_client, stay):
    preview = staff_client.post(url(stay), {"check_in": future(10), "check_out": future(12), "preview": "1"}).content.decode()
    assert "data-refund" in preview
    total = preview.split('name="total" value="')[1].split('"')[0]
    staff_client.post(url(stay), {"check_in": future(10), "check_out": future(12), "total": total, "apply": "1"})
    stay.refresh_from_db()
    assert stay.amount_refunded == stay.amount_paid - stay.total > 0


def test_taken_dates_are_refused_on_the_page(staff_client, stay):
    other = book_and_pay(Client(), 20)
    page = staff_client.post(url(stay), {"check_in": other.check_in, "check_out": other.check_out, "preview": "1"})
    assert page.status_code == 200 and "errorlist" in page.content.decode()
    applied = staff_client.post(url(stay), {"check_in": other.check_in, "check_out": other.check_out, "total": "1", "apply": "1"})
    assert applied.status_code == 200
    stay.refresh_from_db()
    assert stay.check_in == future(10)


def test_a_price_that_moved_is_refused(staff_client, stay):
    staff_client.post(url(stay), {"check_in": future(10), "check_out": future(14), "total": "1.00", "apply": "1"})
    stay.refresh_from_db()
    assert stay.check_out == future(13)


def test_it_needs_the_change_permission(client, django_user_model, stay):
    viewer = django_user_model.objects.create_user("vera", "vera@example.com", "a-long-test-password", is_staff=True)
    viewer.user_permissions.add(Permission.objects.get(codename="view_reservation"))
    client.force_login(viewer)
    assert client.get(url(stay)).status_code == 403
    assert client.post(url(stay), {"check_in": future(30), "check_out": future(33), "total": "1", "apply": "1"}).status_code == 403
    page = client.get(reverse("admin:reservations_reservation_change", args=[quote(stay.pk)])).content.decode()
    assert url(stay) not in page
