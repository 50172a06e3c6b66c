"""`on_hold` (DESIGN.md "Stays and money"): when the only thing in the way is another guest's unpaid
hold, the answer says so with `held_until`, so an agent can offer to try again then; a confirmed
stay or a block anywhere in the stay is still `booked`."""

from datetime import UTC, date, datetime, timedelta

import pytest

from booking.catalog import pricing
from booking.reservations.models import DateBlock, Reservation
from booking.reservations.services.holds import hold_stay
from tests.dates import future

NOON = datetime(2027, 1, 1, 12, 0, tzinfo=UTC)


def test_nights_taken_only_by_holds_carry_when_the_last_hold_lapses():
    ranges = [
        (date(2027, 5, 1), date(2027, 5, 4), NOON),
        (date(2027, 5, 3), date(2027, 5, 5), NOON + timedelta(minutes=10)),
        (date(2027, 5, 4), date(2027, 5, 6), None),
    ]
    held = pricing.held_only_nights(ranges, date(2027, 5, 1), date(2027, 5, 10))
    assert held == {date(2027, 5, 1): NOON, date(2027, 5, 2): NOON, date(2027, 5, 3): NOON + timedelta(minutes=10)}


@pytest.mark.django_db
class TestThroughTheApi:
    def stay(self, offset=40, nights=3):
        return {"check_in": str(future(offset)), "check_out": str(future(offset + nights)), "guests": 2}

    def test_only_an_unpaid_hold_in_the_way_is_on_hold_with_held_until(self, api, demo_property):
        hold = hold_stay(check_in=future(40), check_out=future(43), guests=2)
        body = api.get("/api/v1/availability", **self.stay(41, 3)).json()
        assert (body["available"], body["unavailable_reason"]) == (False, "on_hold")
        assert datetime.fromisoformat(body["held_until"]) == hold.hold_expires_at
        assert body["price_breakdown"]["total"] > 0

    def test_a_hold_attempt_is_refused_with_the_same_reason(self, api, demo_property):
        hold_stay(check_in=future(40), check_out=future(43), guests=2)
        refused = api.post("/api/v1/reservations", self.stay(40))
        assert refused.status_code == 409 and refused.json()["unavailable_reason"] == "on_hold" and refused.json()["held_until"]
        # An agent that retried without its key meets its own hold: the answer says how to go on.
        assert all(step in refused.json()["detail"] for step in ("same idempotency_key", "create_checkout_session", "release_hold"))

    def test_a_confirmed_stay_or_a_block_is_booked(self, api, demo_property):
        hold = hold_stay(check_in=future(40), check_out=future(43), guests=2)
        DateBlock.objects.create(property=demo_property, start=future(43), end=future(44), reason="painting")
        body = api.get("/api/v1/availability", **self.stay(41, 3)).json()
        assert body["unavailable_reason"] == "booked" and body["held_until"] is None
        Reservation.objects.filter(pk=hold.pk).update(status="confirmed")
        assert api.get("/api/v1/availability", **self.stay(40)).json()["unavailable_reason"] == "booked"

    def test_a_free_stay_has_no_held_until(self, api, demo_property):
        body = api.get("/api/v1/availability", **self.stay(80)).json()
        assert body["available"] is True and body["held_until"] is None
