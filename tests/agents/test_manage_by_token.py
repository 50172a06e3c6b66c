"""A paid stay managed by its guest's agent with the manage token (DESIGN "Agents, fourth round"):
REST /api/v1/bookings/{manage_token}, and the MCP tools and A2A skills get_booking, cancel_booking
and change_booking_dates (discovery/operations.py, the table both read), through the services the
manage page uses. A wrong token is a 404 counted by the manage page's limit."""

from decimal import Decimal

import pytest

from booking.callers import Caller
from booking.errors import NotFound, RateLimited
from booking.payments.selectors import refund_if_cancelled
from booking.payments.services.guest_bookings import GUESS_LIMIT
from booking.reservations.models import Reservation
from discovery.operations import run_operation
from tests.payments.conftest import fake_stripe, stay, stripe_event, webhook  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db

LINK = "/api/v1/payments/checkout-link"


@pytest.fixture
def confirmed(api, demo_property, fake_stripe, webhook):  # noqa: F811
    """A stay 60 days ahead, paid through Stripe (the fake): the demo's full-refund tier."""
    body = api.post(LINK, stay(offset=60, nights=3, guests=2)).json()
    session = fake_stripe.complete(body["session_id"], email="guest@example.com")
    assert webhook(stripe_event("checkout.session.completed", session)).json()["outcome"] == "confirmed"
    return Reservation.objects.get(pk=body["reservation_id"])


def refunds_asked(fake_stripe):  # noqa: F811
    return [call for call in fake_stripe.calls if call.method == "POST" and call.path == "/v1/refunds"]


def booking_url(reservation, action: str = "") -> str:
    return f"/api/v1/bookings/{reservation.manage_token}{action}"


class TestOverRest:
    def test_the_booking_says_what_its_guest_may_do_now(self, api, client, confirmed):
        answer = client.get(booking_url(confirmed))
        assert answer.status_code == 200 and answer["Cache-Control"] == "private, no-store"
        body = answer.json()
        assert (body["reservation_id"], body["status"]) == (confirmed.pk, "confirmed")
        assert body["guest"]["email"] == "g***@example.com"  # masked, as the lookup by id
        manage = body["manage"]
        refund = refund_if_cancelled(confirmed).amount
        assert manage["can_cancel"] and manage["can_change_dates"] and manage["change_dates_refusal"] is None
        assert Decimal(str(manage["refund_if_cancelled_now"])) == refund == Decimal(str(body["cancellation"]["refund_if_cancelled_now"]))
        assert manage["manage_url"].endswith(f"/manage/{confirmed.manage_token}")

    def test_cancel_previews_the_refund_then_cancels_once(self, api, confirmed, fake_stripe):  # noqa: F811
        refund = refund_if_cancelled(confirmed).amount
        preview = api.post(booking_url(confirmed, "/cancel"), {"confirm": False})
        assert preview.status_code == 200 and preview.json()["cancelled"] is False
        assert Decimal(str(preview.json()["refund"])) == refund and preview.json()["currency"] == "EUR"
        assert Reservation.objects.get(pk=confirmed.pk).status == "confirmed" and not refunds_asked(fake_stripe)

        done = api.post(booking_url(confirmed, "/cancel"), {"confirm": True})
        assert done.status_code == 200 and done.json()["cancelled"] is True
        assert Decimal(str(done.json()["refund"])) == refund and done.json()["booking"]["status"] == "cancelled"
        again = api.post(booking_url(confirmed, "/cancel"), {"confirm": True})
        assert again.status_code == 200 and again.json()["cancelled"] is False and again.json()["refund"] == 0
        assert len(refunds_asked(fake_stripe)) == 1
        assert Reservation.objects.get(pk=confirmed.pk).amount_refunded == refund

    @pytest.mark.parametrize("body", [{"confirm": "yes"}, {"confirm": 1}, {}, {"confirm": True, "refund": 500}])
    def test_cancel_takes_a_boolean_confirm_and_nothing_else(self, api, confirmed, body):
        refused = api.post(booking_url(confirmed, "/cancel"), body)
        assert refused.status_code == 422 and refused.json()["detail"][0]["loc"][0] == "body"
        assert Reservation.objects.get(pk=confirmed.pk).status == "confirmed"

    def test_change_dates_previews_then_moves_the_stay(self, api, confirmed):
        new = stay(offset=70, nights=3)
        preview = api.post(booking_url(confirmed, "/change-dates"), {**new, "confirm": False})
        assert preview.status_code == 200, preview.json()
        change = preview.json()["change"]
        assert preview.json()["changed"] is False and (change["check_in"], change["check_out"]) == (new["check_in"], new["check_out"])
        assert Reservation.objects.get(pk=confirmed.pk).check_in == confirmed.check_in

        moved = api.post(booking_url(confirmed, "/change-dates"), {**new, "confirm": True, "expected_total": change["total"]})
        assert moved.status_code == 200 and moved.json()["changed"] is True, moved.json()
        assert str(Reservation.objects.get(pk=confirmed.pk).check_in) == new["check_in"]
        assert moved.json()["booking"]["check_in"] == new["check_in"]

    def test_a_price_that_moved_since_the_preview_is_refused(self, api, confirmed):
        new = stay(offset=70, nights=3)
        moved = api.post(booking_url(confirmed, "/change-dates"), {**new, "confirm": True, "expected_total": 1.0})
        assert moved.status_code == 409 and moved.json()["code"] == "date_change_not_allowed"
        assert Reservation.objects.get(pk=confirmed.pk).check_in == confirmed.check_in


class TestWrongTokens:
    def test_an_unknown_token_is_404_and_guessing_is_limited_with_the_manage_page(self, api, client, confirmed):
        assert client.get("/api/v1/bookings/not-a-token-we-issued-at-all").status_code == 404
        for attempt in range(GUESS_LIMIT - 1):  # the manage page and the API count together
            url = f"/manage/unknown-token-{attempt:04d}-xxxxxxxx" if attempt % 2 else f"/api/v1/bookings/unknown-token-{attempt:04d}-xxxxxxxx"
            assert client.get(url).status_code == 404
        limited = api.post("/api/v1/bookings/unknown-token-last-xxxxxxxxxx/cancel", {"confirm": True})
        assert limited.status_code == 429 and limited.json()["code"] == "rate_limited" and int(limited["Retry-After"]) > 0
        assert client.get(booking_url(confirmed)).status_code == 200, "a known token always opens"

    def test_over_the_agent_interfaces_too(self, confirmed):
        caller = Caller("mcp", "203.0.113.9")
        with pytest.raises(NotFound):
            run_operation("cancel_booking", {"manage_token": "unknown-token-of-twenty-chars", "confirm": True}, caller)
        for _ in range(GUESS_LIMIT):
            try:
                run_operation("get_booking", {"manage_token": "unknown-token-of-twenty-chars"}, caller)
            except (NotFound, RateLimited) as refused:
                last = refused
        assert isinstance(last, RateLimited)
        assert Reservation.objects.get(pk=confirmed.pk).status == "confirmed"


class TestOverMcpAndA2a:
    """The operations table both interfaces read (discovery/operations.py)."""

    def test_get_cancel_and_change_through_the_operations(self, confirmed, fake_stripe):  # noqa: F811
        caller, token = Caller("a2a", "198.51.100.7"), confirmed.manage_token
        booking = run_operation("get_booking", {"manage_token": token}, caller)
        assert booking["manage"]["can_change_dates"] is True

        new = stay(offset=70, nights=4)
        preview = run_operation("change_booking_dates", {"manage_token": token, **new, "confirm": False}, caller)
        moved = run_operation("change_booking_dates", {"manage_token": token, **new, "confirm": True}, caller)
        assert preview["changed"] is False and moved["changed"] is True and moved["change"]["total"] == preview["change"]["total"]
        assert moved["booking"]["nights"] == 4

        preview = run_operation("cancel_booking", {"manage_token": token, "confirm": False}, caller)
        cancelled = run_operation("cancel_booking", {"manage_token": token, "confirm": True}, caller)
        assert cancelled["cancelled"] is True and cancelled["refund"] == preview["refund"] > 0
        assert cancelled["booking"]["status"] == "cancelled" and len(refunds_asked(fake_stripe)) >= 1


class TestAStayBookedOnAPlatform:
    """The platform owns a channel booking and its money: no interface cancels or moves it here."""

    def test_it_is_neither_cancelled_nor_moved_through_the_token(self, api, client, confirmed, fake_stripe):  # noqa: F811
        Reservation.objects.filter(pk=confirmed.pk).update(channel_booking_id="chx-booking-1", source="booking_com")
        booking = client.get(booking_url(confirmed)).json()["manage"]
        assert booking["can_cancel"] is False and booking["change_dates_refusal"] == "on_channel"
        cancel = api.post(booking_url(confirmed, "/cancel"), {"confirm": True})
        move = api.post(booking_url(confirmed, "/change-dates"), {**stay(offset=70, nights=3), "confirm": True})
        assert (cancel.status_code, move.status_code) == (409, 409) and move.json()["code"] == "date_change_not_allowed"
        assert Reservation.objects.get(pk=confirmed.pk).status == "confirmed" and not refunds_asked(fake_stripe)
