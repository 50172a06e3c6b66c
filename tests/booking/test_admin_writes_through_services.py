"""The back office writes reservations only through the services (issue 28): saving a reservation's
form writes the fields staff changed, under the lock, so a payment confirmed while the form was
being saved is not undone; staff "Cancel…" on an unpaid hold closes its checkout at the provider."""

from decimal import Decimal

import pytest
from django.contrib.admin.utils import quote
from django.urls import reverse

from booking.payments.events import apply_payment_event
from booking.reservations.admin.reservations import ReservationAdmin
from booking.reservations.models import Reservation
from tests.payments.conftest import fake_stripe, stay, stripe_event  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db
LINK = "/api/v1/payments/checkout-link"


def change_page(reservation_id: str) -> str:
    return reverse("admin:reservations_reservation_change", args=[quote(reservation_id)])


def as_posted(value):
    if value is None or value is False:
        return None
    return "on" if value is True else str(value)


def change_form(client, reservation_id: str, **changes) -> dict:
    """The reservation's change form as staff would send it, with `changes` typed in."""
    page = client.get(change_page(reservation_id))
    assert page.status_code == 200
    data: dict = {}

    def add(form):
        for name in form.fields:
            value = as_posted(form[name].value())
            if value is not None:
                data[form.add_prefix(name)] = value
                if form.fields[name].show_hidden_initial:  # the values the page showed, as it sends them
                    data[form.add_initial_prefix(name)] = value

    add(page.context["adminform"].form)
    for inline in page.context["inline_admin_formsets"]:
        add(inline.formset.management_form)
        for form in inline.formset.forms:
            add(form)
    return data | {f"{name}": value for name, value in changes.items()} | {"_continue": "Save and continue editing"}


@pytest.fixture
def held(api, demo_property, fake_stripe):  # noqa: F811
    """A hold with an open Stripe checkout: (reservation id, session id)."""
    body = api.post(LINK, stay()).json()
    return body["reservation_id"], body["session_id"]


class TestSavingTheForm:
    def test_a_payment_confirmed_while_staff_save_the_form_is_not_undone(self, admin_client, held, fake_stripe, monkeypatch):  # noqa: F811
        reservation_id, session_id = held
        form = change_form(admin_client, reservation_id, guest_phone="+39 333 1234567")
        validated = ReservationAdmin.save_form

        def the_webhook_confirms_meanwhile(self, request, form, change):
            obj = validated(self, request, form, change)  # read and validated; saved next
            session = fake_stripe.complete(session_id, email="payer@example.com")
            assert apply_payment_event(stripe_event("checkout.session.completed", session), source="stripe webhook").summary == "confirmed"
            return obj

        monkeypatch.setattr(ReservationAdmin, "save_form", the_webhook_confirms_meanwhile)
        assert admin_client.post(change_page(reservation_id), form).status_code == 302
        saved = Reservation.objects.get(pk=reservation_id)
        due_now = sum(Decimal(str(entry["amount"])) for entry in saved.payment_schedule if entry["type"] == "immediate")  # the deposit, or the total
        assert (saved.status, saved.amount_paid, saved.guest_phone) == ("confirmed", due_now, "+39 333 1234567")
        assert saved.payment_intent_id and saved.manage_token and saved.guest_email == "payer@example.com"
        edit = saved.events.get(action="edit")
        assert edit.note == "changed: guest_phone" and edit.actor == "staff admin"

    def test_only_the_changed_fields_are_written_and_recorded(self, admin_client, held):
        reservation_id, _ = held
        admin_client.post(change_page(reservation_id), change_form(admin_client, reservation_id, special_requests="late arrival"))
        assert Reservation.objects.get(pk=reservation_id).special_requests == "late arrival"
        assert Reservation.objects.get(pk=reservation_id).events.get(action="edit").note == "changed: special_requests"

    def test_an_unchanged_form_writes_nothing(self, admin_client, held):
        reservation_id, _ = held
        before = Reservation.objects.get(pk=reservation_id).updated_at
        admin_client.post(change_page(reservation_id), change_form(admin_client, reservation_id))
        assert Reservation.objects.get(pk=reservation_id).updated_at == before
        assert not Reservation.objects.get(pk=reservation_id).events.filter(action="edit").exists()

    def test_the_form_offers_exactly_what_the_service_lets_staff_edit(self, admin_client, held):
        from booking.reservations.services.reservations import STAFF_EDITABLE

        page = admin_client.get(change_page(held[0]))
        assert set(page.context["adminform"].form.fields) == STAFF_EDITABLE


class TestCancellingAnUnpaidHold:
    def test_staff_cancel_closes_its_checkout_so_nobody_can_pay_it(self, admin_client, held, fake_stripe):  # noqa: F811
        reservation_id, session_id = held
        cancel_page = reverse("admin:reservations_reservation_cancel", args=[quote(reservation_id)])
        admin_client.post(cancel_page, {"apply": "1", "refund": "none"})
        assert Reservation.objects.get(pk=reservation_id).status == "cancelled"
        assert fake_stripe.sessions[session_id]["status"] == "expired"

    def test_a_hold_paid_a_moment_ago_is_not_cancelled(self, admin_client, held, fake_stripe):  # noqa: F811
        reservation_id, session_id = held
        fake_stripe.complete(session_id)
        cancel_page = reverse("admin:reservations_reservation_cancel", args=[quote(reservation_id)])
        response = admin_client.post(cancel_page, {"apply": "1", "refund": "none"}, follow=True)
        assert b"just been paid" in response.content
        assert Reservation.objects.get(pk=reservation_id).status == "held"
