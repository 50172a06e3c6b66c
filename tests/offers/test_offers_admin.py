"""The owner creates promo codes and extras in the back office and sees each code's bookings and revenue."""

from decimal import Decimal

import pytest
from django.urls import reverse

from booking.catalog import rules
from booking.catalog.models import Extra, PromoCode
from booking.reservations.models import Reservation
from booking.reservations.services.holds import hold_stay
from tests.dates import future

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(client, django_user_model):
    client.force_login(django_user_model.objects.create_superuser("giulia", "giulia@example.com", "a-long-test-password"))
    return client


def test_the_demo_has_its_code_extras_and_automatic_discounts(demo_property):
    built = rules.rules_for(demo_property.__class__.objects.get(pk=demo_property.pk))
    assert PromoCode.objects.get(code="WELCOME10").percent == Decimal("10")
    assert [(e.code, e.price, e.max_quantity) for e in built.extras] == [
        ("airport_transfer", Decimal("60.00"), 2),
        ("late_checkout", Decimal("40.00"), 1),
        ("baby_cot", Decimal("0.00"), 1),
    ]
    assert built.extras[0].name("it") == "Transfer dall'aeroporto"
    assert built.last_minute.days == 7 and built.last_minute.percent == Decimal("10")
    assert built.gap_nights.percent == Decimal("15") and built.early_bird is None


def test_a_code_is_created_once_whatever_its_capitals(staff_client, demo_property):
    add = reverse("admin:catalog_promocode_add")
    form = {"code": "summer15", "percent": "15", "min_nights": "2", "active": "on"}
    assert staff_client.post(add, form).status_code == 302
    assert PromoCode.objects.filter(code="SUMMER15", property=demo_property).exists()
    again = staff_client.post(add, {**form, "code": "Summer15"})
    assert again.status_code == 200 and "exists already" in again.content.decode()
    both = staff_client.post(add, {**form, "code": "BOTH", "amount": "20"})
    assert "either a percent or a fixed amount" in both.content.decode()


def test_an_extra_is_created_with_its_names(staff_client, demo_property):
    add = reverse("admin:catalog_extra_add")
    form = {"code": "bikes", "name_en": "Two bicycles", "name_it": "Due biciclette", "price": "15", "per": "night", "max_quantity": "1", "notice_days": "2"}
    response = staff_client.post(add, {**form, "position": "5", "active": "on"})
    assert response.status_code == 302, response.content.decode()[:2000]
    assert rules.rules_for(demo_property.__class__.objects.get(pk=demo_property.pk)).extra("bikes").name("it") == "Due biciclette"
    assert Extra.objects.get(code="bikes").name == "Two bicycles"


def test_the_code_list_shows_confirmed_bookings_and_revenue(staff_client, demo_property):
    code = PromoCode.objects.get(code="WELCOME10")
    for offset in (40, 50):
        reservation = hold_stay(check_in=future(offset), check_out=future(offset + 3), guests=2)
        Reservation.objects.filter(pk=reservation.pk).update(promo_code=code, total=Decimal("1000.00"))
    Reservation.objects.filter(pk=reservation.pk).update(status=Reservation.Status.CONFIRMED)
    page = staff_client.get(reverse("admin:catalog_promocode_changelist")).content.decode()
    assert "WELCOME10" in page and "1,000.00 EUR" in page
    form = staff_client.get(reverse("admin:catalog_property_change", args=[demo_property.pk])).content.decode()
    assert "Automatic discounts" in form and 'name="last_minute_percent"' in form and 'name="gap_nights"' in form


def test_the_rate_calendar_shows_the_automatic_discounts_night_by_night(staff_client, demo_property):
    from booking.reservations.rate_calendar import rate_month

    hold_stay(check_in=future(40), check_out=future(43), guests=2)
    hold_stay(check_in=future(44), check_out=future(47), guests=2)
    month = rate_month(demo_property, future(43).replace(day=1))
    nights = {n.night: n for week in month.weeks for n in week}
    assert "gap night −15 %" in nights[future(43)].offers
    assert not any("gap" in offer for offer in nights[future(42)].offers)
    this_month = rate_month(demo_property, future(1).replace(day=1))
    nights = {n.night: n for week in this_month.weeks for n in week}
    assert "last-minute −10 %" in nights[future(1)].offers
    page = staff_client.get(reverse("admin:catalog_property_rates"), {"month": f"{future(1):%Y-%m}"}).content.decode()
    assert "last-minute −10 %" in page


def test_the_dashboard_shows_bookings_and_revenue_per_code_and_the_extras_to_prepare(staff_client, demo_property):
    from booking.reservations.services.reservations import Payer, confirm_reservation

    reservation = hold_stay(check_in=future(3), check_out=future(6), guests=2, promo_code="WELCOME10", extras=[{"code": "baby_cot", "quantity": 1}])
    confirm_reservation(reservation.pk, actor="test", payer=Payer(email="a@example.com", name="Anna Rossi"), amount_paid=reservation.total)
    page = staff_client.get(reverse("admin:index")).content.decode()
    promo_block = page.split('id="dashboard-promo-codes"')[1].split("</section>")[0]
    assert "WELCOME10" in promo_block and f"{reservation.total:,.2f}" in promo_block
    movements = page.split('id="dashboard-movements"')[1].split("</section>")[0]
    assert "Baby cot" in movements
