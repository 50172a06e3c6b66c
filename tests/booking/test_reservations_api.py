"""POST /api/v1/reservations and GET /api/v1/reservations/{id}: holds block their dates at once,
lookups mask personal data, retries are idempotent and abuse is limited."""

from datetime import timedelta

import pytest
from django.utils import timezone

from booking.reservations.models import Reservation, ReservationEvent
from tests.dates import future

pytestmark = pytest.mark.django_db

RESERVATION_FIELDS = {
    "id",
    "status",
    "check_in",
    "check_out",
    "guests",
    "nights",
    "hold_expires_at",
    "price_breakdown",
    "payment",
    "guest",
    "special_requests",
    "agent_name",
    "created_at",
}


def hold(api, offset=30, nights=3, **extra):
    return api.post("/api/v1/reservations", {"check_in": str(future(offset)), "check_out": str(future(offset + nights)), **extra})


class TestCreatingAHold:
    def test_a_hold_is_201_with_the_reservation_and_payment_information(self, api, demo_property, settings):
        response = hold(
            api,
            guests=3,
            agent_name="trip-planner",
            special_requests="Late arrival",
            guest={"first_name": "Anna", "last_name": "Rossi", "email": "anna@example.com", "phone": "+39 333 1234567"},
        )
        assert response.status_code == 201, response.content
        body = response.json()
        assert RESERVATION_FIELDS <= set(body)
        assert body["status"] == "held" and body["nights"] == 3 and body["guests"] == 3
        assert body["id"].startswith("res_") and len(body["id"]) >= 26
        assert body["agent_name"] == "trip-planner" and body["special_requests"] == "Late arrival"
        payment = body["payment"]
        assert payment["amount_due"] == body["price_breakdown"]["total"] and payment["currency"] == "EUR"
        assert "checkout_url" in payment and "/api/v1/payments/checkout-session" in payment["how_to_pay"]
        expires = timezone.datetime.fromisoformat(body["hold_expires_at"])
        assert timedelta(minutes=settings.HOLD_MINUTES - 1) < expires - timezone.now() <= timedelta(minutes=settings.HOLD_MINUTES)

    def test_guest_details_are_optional(self, api, demo_property):
        body = hold(api).json()
        assert body["guest"] is None and body["guests"] == 2

    def test_the_dates_are_blocked_at_once(self, api, demo_property):
        hold(api, offset=30, nights=3)
        availability = api.get("/api/v1/availability", check_in=future(31), check_out=future(34)).json()
        # Only an unpaid hold is in the way: on_hold, with when it lapses (DESIGN.md).
        assert (availability["available"], availability["unavailable_reason"]) == (False, "on_hold") and availability["held_until"]
        overlapping = hold(api, offset=32, nights=3)
        assert overlapping.status_code == 409
        assert overlapping.json()["code"] == "dates_unavailable"

    def test_the_check_out_day_is_the_next_check_in(self, api, demo_property):
        assert hold(api, offset=30, nights=3).status_code == 201
        assert hold(api, offset=33, nights=3).status_code == 201
        assert hold(api, offset=27, nights=3).status_code == 201

    def test_a_hold_that_breaks_a_stay_rule_is_409_with_the_reason(self, api, demo_property):
        response = hold(api, nights=1)
        assert response.status_code == 409 and response.json()["unavailable_reason"] == "min_stay"

    def test_the_price_is_frozen_at_hold_time(self, api, demo_property):
        body = hold(api, offset=30, nights=3).json()
        demo_property.base_nightly_rate += 100
        demo_property.save()
        for season in demo_property.seasons.all():
            season.nightly_rate += 100
            season.save()
        assert api.get(f"/api/v1/reservations/{body['id']}").json()["price_breakdown"] == body["price_breakdown"]

    def test_every_hold_leaves_an_audit_entry(self, api, demo_property):
        body = hold(api, agent_name="bot").json()
        event = ReservationEvent.objects.get(reservation_id=body["id"])
        assert (event.action, event.to_status, event.actor) == ("hold", "held", "api (bot)")

    @pytest.mark.parametrize(
        "body, loc, type_",
        [
            ({}, ("body", "check_in"), "missing"),
            ({"check_in": "2030-01-05", "check_out": "2030-01-08", "guests": 0}, ("body", "guests"), "greater_than_equal"),
            ({"check_in": "2030-01-05", "check_out": "2030-01-08", "guests": 8}, ("body", "guests"), "less_than_equal"),
            ({"check_in": "2030-01-05", "check_out": "2030-01-08", "guests": "2"}, ("body", "guests"), "value_error"),
            ({"check_in": "2030-01-05", "check_out": "2030-01-08", "guest": {"email": "not-an-email"}}, ("body", "guest", "email"), "value_error"),
            ({"check_in": "2030-01-05", "check_out": "2030-01-08", "guest": {"phone": "1" * 41}}, ("body", "guest", "phone"), "string_too_long"),
            ({"check_in": "2030-01-05", "check_out": "2030-01-08", "guest": "Anna"}, ("body", "guest"), "value_error"),
            ({"check_in": "2030-01-05", "check_out": "2030-01-08", "special_requests": "x" * 2001}, ("body", "special_requests"), "string_too_long"),
            ({"check_in": "2030-01-05", "check_out": "2030-01-08", "agent_name": 42}, ("body", "agent_name"), "value_error"),
            ({"check_in": "2020-01-05", "check_out": "2020-01-08"}, ("body", "check_in"), "date_in_past"),
            ({"check_in": "2030-01-08", "check_out": "2030-01-05"}, ("body", "check_out"), "date_order"),
            ({"check_in": "2030-01-08", "check_out": "9999-01-05"}, ("body", "check_out"), "stay_too_long"),
        ],
    )
    def test_invalid_holds_get_422_and_create_nothing(self, api, demo_property, body, loc, type_):
        response = api.post("/api/v1/reservations", body)
        assert response.status_code == 422, response.content
        items = {tuple(i["loc"]): i["type"] for i in response.json()["detail"]}
        assert items.get(loc) == type_, items
        assert not Reservation.objects.exists()

    def test_null_guest_and_null_texts_are_accepted(self, api, demo_property):
        assert hold(api, guest=None, special_requests=None, agent_name=None).status_code == 201


class TestLookingUpAReservation:
    def test_lookup_masks_email_and_phone(self, api, demo_property):
        created = hold(api, guest={"first_name": "Anna", "last_name": "Rossi", "email": "anna@example.com", "phone": "+39 333 1234567"}).json()
        assert created["guest"]["email"] == "anna@example.com"  # the caller who created it gets it back
        found = api.get(f"/api/v1/reservations/{created['id']}").json()
        assert RESERVATION_FIELDS <= set(found)
        assert found["guest"] == {"first_name": "Anna", "last_name": "R.", "email": "a***@example.com", "phone": "***4567"}
        assert found["status"] == "held" and found["price_breakdown"] == created["price_breakdown"]

    def test_an_unknown_id_is_404(self, api, db):
        response = api.get("/api/v1/reservations/res_doesnotexist")
        assert response.status_code == 404 and response.json()["code"] == "not_found"

    def test_an_absurd_id_is_422(self, api, db):
        response = api.get("/api/v1/reservations/" + "x" * 201)
        assert response.status_code == 422
        assert response.json()["detail"][0]["loc"] == ["path", "reservation_id"]

    def test_ids_are_random_not_sequential(self, api, demo_property):
        first, second = hold(api, offset=30).json()["id"], hold(api, offset=40).json()["id"]
        assert first != second and first[4:8] != second[4:8]

    def test_lookup_costs_one_query(self, api, demo_property, django_assert_num_queries):
        reservation_id = hold(api).json()["id"]
        with django_assert_num_queries(1):
            api.get(f"/api/v1/reservations/{reservation_id}")


class TestIdempotency:
    def test_a_retry_with_the_same_key_replays_the_first_answer(self, api, demo_property):
        body = {"check_in": str(future(30)), "check_out": str(future(33))}
        first = api.post("/api/v1/reservations", body, **{"Idempotency-Key": "k-1"})
        again = api.post("/api/v1/reservations", body, **{"Idempotency-Key": "k-1"})
        assert first.status_code == again.status_code == 201
        assert first.json() == again.json()
        assert Reservation.objects.count() == 1

    def test_the_same_key_with_another_body_is_409(self, api, demo_property):
        api.post("/api/v1/reservations", {"check_in": str(future(30)), "check_out": str(future(33))}, **{"Idempotency-Key": "k-2"})
        response = api.post("/api/v1/reservations", {"check_in": str(future(40)), "check_out": str(future(43))}, **{"Idempotency-Key": "k-2"})
        assert response.status_code == 409 and response.json()["code"] == "idempotency_key_reused"
        assert Reservation.objects.count() == 1

    def test_a_failed_call_releases_its_key(self, api, demo_property):
        api.post("/api/v1/reservations", {"check_in": str(future(30)), "check_out": str(future(33))})
        body = {"check_in": str(future(31)), "check_out": str(future(34))}
        assert api.post("/api/v1/reservations", body, **{"Idempotency-Key": "k-3"}).status_code == 409
        Reservation.objects.update(status="cancelled")
        assert api.post("/api/v1/reservations", body, **{"Idempotency-Key": "k-3"}).status_code == 201

    def test_keys_expire_after_24_hours(self, api, demo_property):
        from booking.reservations.models import IdempotencyRecord

        body = {"check_in": str(future(30)), "check_out": str(future(33))}
        api.post("/api/v1/reservations", body, **{"Idempotency-Key": "k-4"})
        IdempotencyRecord.objects.update(created_at=timezone.now() - timedelta(hours=25))
        Reservation.objects.update(status="expired")
        second = api.post("/api/v1/reservations", body, **{"Idempotency-Key": "k-4"})
        assert second.status_code == 201 and Reservation.objects.count() == 2


class TestAbuseLimits:
    def test_holds_per_client_are_rate_limited_with_retry_after(self, api, demo_property, settings):
        settings.BOOKING_RATE_LIMIT = "3/h"
        settings.MAX_UNPAID_HOLDS_PER_CLIENT = 100
        statuses = [hold(api, offset=30 + 5 * i).status_code for i in range(4)]
        assert statuses == [201, 201, 201, 429]
        response = hold(api, offset=60)
        assert response.json()["code"] == "rate_limited"
        assert 0 < int(response["Retry-After"]) <= 3600

    def test_unpaid_holds_per_client_are_capped(self, api, demo_property, settings):
        settings.BOOKING_RATE_LIMIT = "100/h"
        settings.MAX_UNPAID_HOLDS_PER_CLIENT = 2
        assert [hold(api, offset=30 + 5 * i).status_code for i in range(3)] == [201, 201, 429]
        Reservation.objects.filter(status="held").update(status="confirmed")
        assert hold(api, offset=60).status_code == 201

    def test_off_switches_every_limit_off(self, api, demo_property, settings):
        settings.BOOKING_RATE_LIMIT = "off"
        settings.MAX_UNPAID_HOLDS_PER_CLIENT = 1
        assert [hold(api, offset=30 + 5 * i).status_code for i in range(3)] == [201, 201, 201]

    def test_forwarded_addresses_count_only_behind_a_trusted_proxy(self, client, demo_property, settings):
        settings.BOOKING_RATE_LIMIT = "1/h"
        settings.TRUSTED_PROXIES = ["127.0.0.1"]

        def post(offset, forwarded, remote="127.0.0.1"):
            return client.post(
                "/api/v1/reservations",
                {"check_in": str(future(offset)), "check_out": str(future(offset + 3))},
                content_type="application/json",
                HTTP_X_FORWARDED_FOR=forwarded,
                REMOTE_ADDR=remote,
            ).status_code

        assert post(30, "203.0.113.1") == 201
        assert post(40, "203.0.113.2") == 201  # another client behind the same proxy
        assert post(50, "203.0.113.1") == 429
        assert post(60, "203.0.113.9", remote="198.51.100.7") == 201  # untrusted peer: its own address counts
        assert post(70, "203.0.113.10", remote="198.51.100.7") == 429
