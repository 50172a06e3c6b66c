"""Services name the field; each interface adds where it read it (issue #39, DESIGN "Services take
and return domain values"). The same bad input: called directly, the service's error names the
field and no location; through REST it is at ["body", …] or ["query", …] (a bad retry key at the
Idempotency-Key header), through MCP at its REST twin's place, through UCP a JSONPath into the
UCP request; the back office and the guest's pages put it beside their own form fields."""

from datetime import timedelta

import pytest

from booking.callers import Caller
from booking.catalog.services import rates
from booking.errors import InvalidInput
from booking.payments.services import checkouts
from booking.payments.services.owner_bookings import Party, book_for_guest
from booking.reservations.models import Reservation
from booking.reservations.services import blocks, stays
from booking.reservations.services.holds import GuestDetails, hold_stay
from booking.reservations.services.idempotency import InvalidRetryKey, run_idempotent
from discovery.operations import run_operation
from tests.agents.ucp import error_body, session_request
from tests.dates import future

pytestmark = pytest.mark.django_db
UNKNOWN_EXTRA = [{"code": "helicopter", "quantity": 1}]


def stay(offset=100, nights=3, **more) -> dict:
    return {"check_in": str(future(offset)), "check_out": str(future(offset + nights)), "guests": 2, **more}


def refused(call) -> InvalidInput:
    with pytest.raises(InvalidInput) as error:
        call()
    return error.value


def locs(response) -> list:
    assert response.status_code == 422, response.content
    return [item["loc"] for item in response.json()["detail"]]


class TestServicesNameTheField:
    def test_a_hold_with_a_bad_code_or_extra(self, demo_property):
        error = refused(lambda: hold_stay(check_in=future(100), check_out=future(103), guests=2, promo_code="NOPE"))
        assert [p.field for p in error.problems] == [("promo_code",)] and error.location is None
        assert error.errors == [{"loc": ["promo_code"], "msg": "Unknown promo code 'NOPE'.", "type": "promo_code_invalid"}]
        error = refused(lambda: hold_stay(check_in=future(100), check_out=future(103), guests=2, extras=UNKNOWN_EXTRA))
        assert [p.field for p in error.problems] == [("extras", 0, "code")] and error.location is None

    def test_a_check_a_quote_and_a_search(self, demo_property):
        check = refused(lambda: stays.check_stay(check_in=future(100), check_out=future(103), guests=2, promo_code="NOPE"))
        quote = refused(lambda: stays.quote_stay(check_in=future(100), check_out=future(103), guests=2, currency="XYZ"))
        search = refused(lambda: stays.find_stays(nights=3, guests=2, promo_code="NOPE"))
        assert [(e.problems[0].field, e.location) for e in (check, quote, search)] == [(("promo_code",), None), (("currency",), None), (("promo_code",), None)]

    def test_blocks_rates_an_owner_booking_and_a_retry_key(self, demo_property):
        day = future(100)
        block = refused(lambda: blocks.block_dates(start=day, end=day, reason="x", actor="test"))
        rate = refused(lambda: rates.set_night_rates(day, day, nightly_rate=100, actor="test"))
        owner = refused(
            lambda: book_for_guest(check_in=day, check_out=day + timedelta(days=3), party=Party(adults=2), guest=GuestDetails(), language="en", staff="anna")
        )
        key = refused(lambda: run_idempotent(scope="reservations", key="x" * 300, payload={}, produce=lambda: (201, {})))
        assert (block.problems[0].field, rate.problems[0].field, owner.problems[0].field) == (("end",), ("end",), ("guest", "email"))
        assert isinstance(key, InvalidRetryKey) and key.problems[0].field == ("idempotency_key",)
        assert all(e.location is None and not str(e).startswith("body") for e in (block, rate, owner, key))


class TestInterfacesAddTheLocation:
    def test_rest_body_and_query(self, api, demo_property):
        assert locs(api.post("/api/v1/reservations", stay(promo_code="NOPE"))) == [["body", "promo_code"]]
        assert locs(api.post("/api/v1/quote", stay(extras=UNKNOWN_EXTRA))) == [["body", "extras", 0, "code"]]
        assert locs(api.post("/api/v1/quote", stay(currency="XYZ"))) == [["body", "currency"]]
        assert locs(api.get("/api/v1/availability", **stay(promo_code="NOPE"))) == [["query", "promo_code"]]
        assert locs(api.get("/api/v1/stays", nights=3, promo_code="NOPE")) == [["query", "promo_code"]]

    def test_rest_a_bad_retry_key_is_at_its_header(self, api, demo_property):
        response = api.post("/api/v1/reservations", stay(), **{"Idempotency-Key": "x" * 300})
        assert locs(response) == [["header", "Idempotency-Key"]]

    def test_mcp_and_a2a_at_the_rest_twin_s_place(self, demo_property):
        caller = Caller(Reservation.Source.MCP)
        hold = refused(lambda: run_operation("create_reservation", stay(offset=150, promo_code="NOPE"), caller))
        check = refused(lambda: run_operation("check_availability", stay(promo_code="NOPE"), caller))
        quote = refused(lambda: run_operation("get_quote", stay(extras=UNKNOWN_EXTRA), caller))
        key = refused(lambda: run_operation("create_reservation", stay(offset=150, idempotency_key="x" * 300), caller))
        assert [e.errors[0]["loc"] for e in (hold, check, quote, key)] == [
            ["body", "promo_code"],
            ["query", "promo_code"],
            ["body", "extras", 0, "code"],
            ["body", "idempotency_key"],
        ]
        assert str(hold).startswith("body.promo_code: Unknown promo code")  # what an agent reads as the message

    def test_ucp_a_json_path_into_its_request(self, client, demo_property, settings):
        settings.STRIPE_SECRET_KEY = ""
        sessions = "/ucp/v1/booking-sessions"
        for offers, path in (({"promo_code": "NOPE"}, "$.promo_code"), ({"extras": UNKNOWN_EXTRA}, "$.extras[0].code")):
            response = client.post(sessions, {**session_request(40, 3), **offers}, content_type="application/json")
            assert response.status_code == 422, response.content
            assert [m.get("path") for m in error_body(response.json())["messages"]] == [path]
        response = client.post(sessions, session_request(40, 3), content_type="application/json", headers={"Idempotency-Key": "x" * 300})
        assert response.status_code == 422 and [m.get("path") for m in error_body(response.json())["messages"]] == [None]


class TestTheGuestsLanguageIsTheInterfaces:
    def test_the_checkout_service_does_not_read_a_language_from_the_return_address(self, demo_property, settings):
        settings.STRIPE_SECRET_KEY = ""
        italian_page = settings.BASE_URL + "/it/thank-you"
        direct = checkouts.create_checkout_link(check_in=future(100), check_out=future(103), guests=2, success_url=italian_page)
        said = checkouts.create_checkout_link(check_in=future(110), check_out=future(113), guests=2, success_url=italian_page, language="it")
        assert (direct.language, said.language) == ("en", "it")

    def test_the_widget_s_italian_return_address_books_in_italian(self, api, demo_property, settings):
        settings.STRIPE_SECRET_KEY = ""
        response = api.post("/api/v1/payments/checkout-link", stay(success_url=settings.BASE_URL + "/it/thank-you"))
        assert response.status_code == 200, response.content
        assert Reservation.objects.get(pk=response.json()["reservation_id"]).language == "it"
