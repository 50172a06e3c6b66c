"""Staff changing dates in the back office: a change that would refund part of the payment needs
the refund permission too, as the refund page does (docs/date-changes.md, "Who may change what")."""

from decimal import Decimal

import pytest
from django.contrib.admin.utils import quote
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse

from booking.payments.models import ProviderRefund
from booking.payments.services.date_changes import DateChangeNotAllowed, change_dates
from booking.reservations.models import Reservation
from tests.dates import future
from tests.money.test_date_changes import book_and_pay

pytestmark = pytest.mark.django_db


@pytest.fixture
def stay(demo_property, sandbox):
    return book_and_pay(Client(), 10)  # paid in full: a cheaper stay is refunded


@pytest.fixture
def staff(client, django_user_model):
    def login(*codenames):
        user = django_user_model.objects.create_user("marco", "marco@example.com", "a-long-test-password", is_staff=True)
        user.user_permissions.set(Permission.objects.filter(codename__in=codenames))
        client.force_login(user)
        return client

    return login


def url(reservation: Reservation) -> str:
    return reverse("admin:reservations_reservation_change_dates", args=[quote(reservation.pk)])


def untouched(reservation: Reservation) -> bool:
    before = (reservation.check_in, reservation.check_out, reservation.total, reservation.amount_refunded)
    reservation.refresh_from_db()
    return before == (reservation.check_in, reservation.check_out, reservation.total, reservation.amount_refunded) and not ProviderRefund.objects.exists()


def test_without_the_refund_permission_a_refunding_change_is_refused_in_preview_and_apply(staff, stay):
    client = staff("view_reservation", "change_reservation")
    cheaper = {"check_in": future(10), "check_out": future(12)}
    preview = client.post(url(stay), {**cheaper, "preview": "1"})
    html = preview.content.decode()
    assert preview.status_code == 403 and "may not make refunds" in html and 'name="apply"' not in html
    applied = client.post(url(stay), {**cheaper, "total": "1.00", "apply": "1"})
    assert applied.status_code == 403 and untouched(stay)
    dearer = client.post(url(stay), {"check_in": future(10), "check_out": future(14), "preview": "1"})
    assert dearer.status_code == 200 and 'name="apply"' in dearer.content.decode()  # a change that refunds nothing is allowed


def test_the_refund_permission_allows_it(staff, stay):
    client = staff("view_reservation", "change_reservation", "refund_reservation")
    preview = client.post(url(stay), {"check_in": future(10), "check_out": future(12), "preview": "1"}).content.decode()
    total = preview.split('name="total" value="')[1].split('"')[0]
    assert client.post(url(stay), {"check_in": future(10), "check_out": future(12), "total": total, "apply": "1"}).status_code == 302
    stay.refresh_from_db()
    assert stay.check_out == future(12) and stay.amount_refunded > 0


def test_the_service_checks_it_under_the_lock(stay):
    with pytest.raises(DateChangeNotAllowed) as refused:
        change_dates(stay.pk, future(10), future(12), actor="staff marco", by_guest=False, may_refund=False)
    assert refused.value.reason == "refund_not_allowed" and untouched(stay)


def test_staff_see_the_special_price_kept(staff, demo_property, sandbox):
    from tests.money.test_date_change_money import TestSpecialPrice

    client = staff("view_reservation", "change_reservation", "refund_reservation")
    reservation = TestSpecialPrice().book_at_special_price(Client(), Decimal("400.00"))
    preview = client.post(url(reservation), {"check_in": future(70), "check_out": future(74), "preview": "1"})
    assert preview.status_code == 200 and "data-special-price" in preview.content.decode()
