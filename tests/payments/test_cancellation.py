"""Cancelling a confirmed stay (issue 13): one service for the guest's manage link and the back
office. The stay becomes cancelled and its nights free at once; the refund the policy gives is
asked of the provider with a key derived from the reservation, so no retry refunds twice; a
provider outage leaves the refund pending (flagged) and the refund job completes it later.

Demo policy: at least 30 days before arrival 100 %, at least 7 days 50 %, otherwise 0 %; the city
tax is always refunded in full."""

from datetime import datetime, time, timedelta
from decimal import Decimal

import pytest
import time_machine
from django.contrib.admin.utils import quote
from django.urls import reverse
from django.utils import timezone

from booking.outbox.models import OutboundEmail
from booking.payments.selectors import refund_if_cancelled
from booking.payments.services.cancellation import cancel_by_guest, cancel_stay, retry_pending_refunds
from booking.reservations.models import Reservation
from tests.attention import attention
from tests.payments.conftest import stay, stripe_event

pytestmark = pytest.mark.django_db

LINK = "/api/v1/payments/checkout-link"
ARRIVAL_IN_DAYS = 60


def paid_stay(api, fake_stripe, webhook, *, days_ahead: int) -> Reservation:
    body = api.post(LINK, stay(offset=days_ahead, nights=3, guests=2)).json()
    session = fake_stripe.complete(body["session_id"], email="guest@example.com")
    assert webhook(stripe_event("checkout.session.completed", session)).json()["outcome"] == "confirmed"
    return Reservation.objects.get(pk=body["reservation_id"])


@pytest.fixture
def confirmed(api, demo_property, fake_stripe, webhook, settings):
    """A stay 60 days ahead, paid through Stripe (the fake), with the guest's address known."""
    settings.OWNER_EMAIL = "owner@example.com"
    return paid_stay(api, fake_stripe, webhook, days_ahead=ARRIVAL_IN_DAYS)


def city_tax(reservation) -> Decimal:
    return Decimal(str(reservation.price_breakdown["city_tax"]))


def refund_calls(fake_stripe):
    return [call for call in fake_stripe.calls if call.method == "POST" and call.path == "/v1/refunds"]


def at_days_before_arrival(reservation, days: int):
    """Travel to noon, property time, `days` days before check-in."""
    local_noon = timezone.make_aware(datetime.combine(reservation.check_in - timedelta(days=days), time(12, 0)))
    return time_machine.travel(local_noon, tick=False)


class TestTheRefundTheGuestGets:
    @pytest.mark.parametrize(("days", "percent"), [(45, 100), (30, 100), (29, 50), (7, 50), (6, 0), (0, 0)])
    def test_follows_the_tiers_and_always_returns_the_city_tax(self, confirmed, days, percent):
        with at_days_before_arrival(confirmed, days):
            quote = refund_if_cancelled(confirmed)
        tax = city_tax(confirmed)
        expected = (tax + (confirmed.amount_paid - tax) * percent / 100).quantize(Decimal("0.01"))
        assert (quote.amount, quote.currency, quote.days_before_arrival) == (expected, "EUR", days)

    def test_a_stay_that_is_not_confirmed_gets_nothing(self, api, demo_property, fake_stripe):
        held = Reservation.objects.get(pk=api.post(LINK, stay()).json()["reservation_id"])
        assert refund_if_cancelled(held).amount == 0


class TestCancellingThroughTheProvider:
    def test_the_refund_request_carries_the_amount_and_a_key_of_the_reservation(self, confirmed, fake_stripe):
        with at_days_before_arrival(confirmed, 10):
            cancelled = cancel_by_guest(confirmed.manage_token)
        tax = city_tax(confirmed)
        expected = (tax + (confirmed.amount_paid - tax) / 2).quantize(Decimal("0.01"))
        [call] = refund_calls(fake_stripe)
        assert call.form["payment_intent"] == confirmed.payment_intent_id
        assert call.form["amount"] == str(int(expected * 100))
        assert call.headers["idempotency-key"].startswith(f"cancellation-{confirmed.pk}")
        assert (cancelled.status, cancelled.amount_refunded, cancelled.refund_pending) == ("cancelled", expected, 0)
        assert cancelled.events.filter(action="cancel").exists() and cancelled.events.filter(action="refund").exists()

    def test_the_nights_are_free_at_once(self, api, confirmed):
        cancel_by_guest(confirmed.manage_token)
        assert api.get("/api/v1/availability", **stay(offset=ARRIVAL_IN_DAYS, nights=3)).json()["available"] is True

    def test_a_second_cancel_changes_nothing_and_refunds_nothing(self, confirmed, fake_stripe):
        first = cancel_by_guest(confirmed.manage_token)
        again = cancel_by_guest(confirmed.manage_token)
        assert len(fake_stripe.refunds) == 1 and again.amount_refunded == first.amount_refunded
        assert again.events.filter(action="cancel").count() == 1

    def test_the_guest_and_the_owner_are_owed_a_cancellation_email(self, confirmed):
        cancel_by_guest(confirmed.manage_token)
        kinds = set(OutboundEmail.objects.filter(reservation=confirmed, kind="cancellation").values_list("recipient", flat=True))
        assert kinds == {"guest", "owner"}

    def test_a_provider_outage_leaves_the_stay_cancelled_and_the_refund_pending_until_the_job_makes_it(self, confirmed, fake_stripe):
        fake_stripe.fail_with = 500
        cancelled = cancel_by_guest(confirmed.manage_token)
        assert cancelled.status == "cancelled" and cancelled.refund_pending == confirmed.amount_paid and cancelled.amount_refunded == 0
        assert "pending" in attention(cancelled)
        assert retry_pending_refunds() == 0  # still down: nothing recorded, nothing lost
        fake_stripe.fail_with = None
        assert retry_pending_refunds() == 1
        refunded = Reservation.objects.get(pk=confirmed.pk)
        assert (refunded.amount_refunded, refunded.refund_pending, attention(refunded)) == (confirmed.amount_paid, 0, "")
        assert len(fake_stripe.refunds) == 1
        assert OutboundEmail.objects.filter(reservation=confirmed, kind="refund", recipient="guest").exists()
        assert retry_pending_refunds() == 0

    def test_a_refund_whose_answer_was_lost_is_not_made_twice(self, confirmed, fake_stripe, monkeypatch):
        """The provider made the refund but we never heard back: the retry's key finds it."""
        from booking.payments import providers

        real_refund = providers.StripeProvider.refund
        calls = []

        def answer_lost_once(self, **kwargs):
            result = real_refund(self, **kwargs)
            calls.append(kwargs)
            if len(calls) == 1:
                raise providers.PaymentProviderError("The connection dropped.")
            return result

        monkeypatch.setattr(providers.StripeProvider, "refund", answer_lost_once)
        cancel_by_guest(confirmed.manage_token)
        assert Reservation.objects.get(pk=confirmed.pk).refund_pending > 0
        retry_pending_refunds()
        assert len(fake_stripe.refunds) == 1
        assert calls[0]["idempotency_key"] == calls[1]["idempotency_key"]
        assert Reservation.objects.get(pk=confirmed.pk).amount_refunded == confirmed.amount_paid

    def test_a_hold_is_released_without_any_refund(self, api, demo_property, fake_stripe):
        held = api.post(LINK, stay()).json()["reservation_id"]
        cancelled = cancel_stay(held, actor="staff x")
        assert cancelled.status == "cancelled" and not refund_calls(fake_stripe)


class TestTheBackOfficeUsesTheSamePath:
    def changelist(self):
        return reverse("admin:reservations_reservation_changelist")

    def test_the_confirmation_page_shows_the_policy_refund_then_cancels_with_it(self, admin_client, api, demo_property, fake_stripe, webhook):
        confirmed = paid_stay(api, fake_stripe, webhook, days_ahead=10)  # the 50 % tier
        page = admin_client.post(self.changelist(), {"action": "cancel_selected", "_selected_action": [confirmed.pk]})
        suggested = refund_if_cancelled(confirmed).amount
        assert suggested == (city_tax(confirmed) + (confirmed.amount_paid - city_tax(confirmed)) / 2).quantize(Decimal("0.01"))
        assert page.status_code == 200 and f"{suggested} EUR".encode() in page.content
        assert Reservation.objects.get(pk=confirmed.pk).status == "confirmed"
        admin_client.post(self.changelist(), {"action": "cancel_selected", "_selected_action": [confirmed.pk], "apply": "1", "refund": "policy"})
        cancelled = Reservation.objects.get(pk=confirmed.pk)
        assert cancelled.status == "cancelled" and cancelled.amount_refunded == suggested
        assert cancelled.events.get(action="cancel").actor == "staff admin"
        assert OutboundEmail.objects.filter(reservation=confirmed, kind="cancellation", recipient="guest").exists()

    @pytest.mark.parametrize(("choice", "extra", "expected"), [("full", {}, "paid"), ("none", {}, "0"), ("amount", {"amount": "12.34"}, "12.34")])
    def test_staff_may_refund_in_full_nothing_or_an_amount(self, admin_client, confirmed, fake_stripe, choice, extra, expected):
        admin_client.post(self.changelist(), {"action": "cancel_selected", "_selected_action": [confirmed.pk], "apply": "1", "refund": choice, **extra})
        cancelled = Reservation.objects.get(pk=confirmed.pk)
        assert cancelled.status == "cancelled"
        assert cancelled.amount_refunded == (confirmed.amount_paid if expected == "paid" else Decimal(expected))

    def test_never_more_than_is_left_to_refund(self, admin_client, confirmed, fake_stripe):
        response = admin_client.post(
            self.changelist(),
            {"action": "cancel_selected", "_selected_action": [confirmed.pk], "apply": "1", "refund": "amount", "amount": str(confirmed.amount_paid + 1)},
            follow=True,
        )
        assert b"left to refund" in response.content
        assert Reservation.objects.get(pk=confirmed.pk).status == "confirmed" and not fake_stripe.refunds

    def test_a_user_without_the_change_permission_is_offered_no_cancel(self, client, confirmed, django_user_model):
        from django.contrib.auth.models import Permission

        viewer = django_user_model.objects.create_user("viewer", password="pw-viewer-123", is_staff=True)
        viewer.user_permissions.add(Permission.objects.get(codename="view_reservation"))
        client.force_login(viewer)
        page = client.get(self.changelist())
        assert page.status_code == 200 and b"cancel_selected" not in page.content
        client.post(self.changelist(), {"action": "cancel_selected", "_selected_action": [confirmed.pk], "apply": "1", "refund": "full"})
        assert Reservation.objects.get(pk=confirmed.pk).status == "confirmed"


class TestGivingMoneyBackNeedsTheRefundPermission:
    """A user who may change reservations but not refund (DESIGN "Reliability, fourth round"): the
    cancel screen and the list's bulk cancel offer only "no refund", and a forged refund is refused
    with nothing done (the refund page itself answers 403)."""

    @pytest.fixture
    def clerk(self, client, django_user_model):
        from django.contrib.auth.models import Permission

        user = django_user_model.objects.create_user("clerk", password="pw-clerk-123", is_staff=True)
        user.user_permissions.set(Permission.objects.filter(codename__in=["view_reservation", "change_reservation"]))
        client.force_login(user)
        return client

    @pytest.fixture
    def soon(self, api, demo_property, fake_stripe, webhook):
        return paid_stay(api, fake_stripe, webhook, days_ahead=5)  # the policy still gives back the city tax

    def cancel_page(self, reservation):
        return reverse("admin:reservations_reservation_cancel", args=[quote(reservation.pk)])

    def untouched(self, reservation, fake_stripe) -> bool:
        now = Reservation.objects.get(pk=reservation.pk)
        return now.status == "confirmed" and now.amount_refunded == 0 and now.refund_pending == 0 and not fake_stripe.refunds

    def test_the_refund_page_is_refused(self, clerk, soon):
        assert clerk.get(reverse("admin:reservations_reservation_refund", args=[quote(soon.pk)])).status_code == 403

    def test_the_cancel_screen_offers_only_no_refund(self, clerk, soon):
        page = clerk.get(self.cancel_page(soon))
        html = page.content.decode()
        assert page.status_code == 200 and 'value="none"' in html
        assert 'value="full"' not in html and 'value="policy"' not in html and 'name="amount"' not in html
        assert "You may not make refunds" in html

    @pytest.mark.parametrize(
        ("language", "words"),
        [("it", "Non puoi effettuare rimborsi"), ("de", "Sie dürfen keine Erstattungen vornehmen"), ("fr", "Vous ne pouvez pas effectuer de remboursements")],
    )
    def test_the_screen_says_so_in_the_readers_language(self, clerk, soon, language, words):
        page = clerk.get(self.cancel_page(soon), headers={"Accept-Language": language})
        assert words in page.content.decode()

    @pytest.mark.parametrize("forged", [{"refund": "full"}, {"refund": "policy"}, {"refund": "amount", "amount": "656.00"}])
    def test_a_forged_refund_on_the_cancel_screen_refunds_nothing(self, clerk, soon, fake_stripe, forged):
        response = clerk.post(self.cancel_page(soon), {"apply": "1", **forged})
        assert response.status_code == 403 and "You may not make refunds" in response.content.decode()
        assert self.untouched(soon, fake_stripe)

    @pytest.mark.parametrize("forged", [{"refund": "full"}, {"refund": "policy"}])
    def test_a_forged_refund_through_the_bulk_cancel_refunds_nothing(self, clerk, soon, fake_stripe, forged):
        changelist = reverse("admin:reservations_reservation_changelist")
        response = clerk.post(changelist, {"action": "cancel_selected", "_selected_action": [soon.pk], "apply": "1", **forged})
        assert response.status_code == 403
        assert self.untouched(soon, fake_stripe)

    def test_cancelling_without_a_refund_is_allowed(self, clerk, soon, fake_stripe):
        changelist = reverse("admin:reservations_reservation_changelist")
        clerk.post(changelist, {"action": "cancel_selected", "_selected_action": [soon.pk], "apply": "1", "refund": "none"})
        cancelled = Reservation.objects.get(pk=soon.pk)
        assert (cancelled.status, cancelled.amount_refunded, cancelled.refund_pending) == ("cancelled", 0, 0) and not fake_stripe.refunds


class TestTheLookupSaysWhatCancellingMeans:
    def test_a_confirmed_stay_carries_the_refund_if_cancelled_now(self, api, confirmed):
        body = api.get(f"/api/v1/reservations/{confirmed.pk}").json()
        assert body["cancellation"] == {
            "refund_if_cancelled_now": float(confirmed.amount_paid),  # 60 days ahead: everything
            "currency": "EUR",
            "policy": api.get("/api/v1/property").json()["policies"]["cancellation_policy"],
        }
        assert "refunded_amount" not in body

    def test_a_cancelled_stay_carries_what_was_refunded(self, api, confirmed):
        cancel_by_guest(confirmed.manage_token)
        body = api.get(f"/api/v1/reservations/{confirmed.pk}").json()
        assert body["status"] == "cancelled" and body["refunded_amount"] == float(confirmed.amount_paid)
        assert "cancellation" not in body

    def test_a_hold_carries_neither(self, api, demo_property, fake_stripe):
        body = api.get(f"/api/v1/reservations/{api.post(LINK, stay()).json()['reservation_id']}").json()
        assert "cancellation" not in body and "refunded_amount" not in body
