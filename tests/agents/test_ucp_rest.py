"""UCP lodging booking over the REST binding (/ucp/v1/booking-sessions…), every answer validated
against the pinned UCP schemas (tests/agents/ucp.py): create → get → update → complete → the guest
pays on the continue page (sandbox) → completed with confirmation; cancel; taken dates; retries."""

import re
from decimal import Decimal
from urllib.parse import urlsplit

import pytest

from booking.catalog.models import PromoCode
from booking.reservations.models import Reservation
from tests.agents.ucp import any_body, booking_body, error_body, profile_body, session_request
from tests.dates import future

pytestmark = pytest.mark.django_db
SESSIONS = "/ucp/v1/booking-sessions"
PAYER = {"email": "lucia@example.com", "name": "Lucia Verdi", "phone": "+39 347 1112233"}
LODGING_DRAFT = "0030fd791fecf6ce2877ddc303047744d7d283a6"
PARTY = {
    "guests": [{"id": "gst_01", "first_name": "Jane", "last_name": "Doe", "email": "jane@example.com"}, {"id": "gst_02"}],
    "guest_assignments": [{"guest_id": "gst_01", "role": "primary"}, {"guest_id": "gst_02", "role": "accompanying"}],
}


def with_party(request: dict, party: dict = PARTY) -> dict:
    request = {**request, "guests": party["guests"]}
    request["stays"] = [{**request["stays"][0], "guest_assignments": party["guest_assignments"]}]
    return request


@pytest.fixture
def ucp(client, demo_property, sandbox):
    def checked(response):
        """Every answer of the UCP binding is validated against the pinned schemas as it arrives."""
        if response["Content-Type"].startswith("application/json"):
            any_body(response.json())
        return response

    class Ucp:
        def post(self, path, body=None, **headers):
            return checked(client.post(path, body if body is not None else {}, content_type="application/json", headers=headers))

        def put(self, path, body, **headers):
            return checked(client.put(path, body, content_type="application/json", headers=headers))

        def get(self, path):
            response = client.get(path)
            return checked(response) if path.startswith(SESSIONS) else response

    return Ucp()


@pytest.fixture
def sandbox(settings):
    settings.STRIPE_SECRET_KEY = ""


def test_the_business_profile(client, demo_property):
    body = profile_body(client.get("/.well-known/ucp").json())
    ucp = body["ucp"]
    assert [service["transport"] for service in ucp["services"]["dev.ucp.lodging"]] == ["rest", "mcp"]
    assert ucp["services"]["dev.ucp.lodging"][0]["endpoint"].endswith("/ucp/v1")
    assert set(ucp["capabilities"]) >= {"dev.ucp.lodging.booking", "dev.ucp.lodging.policy.cancellation"}
    assert ucp["payment_handlers"] == {}


def test_the_profile_states_the_release_and_links_the_documents_it_follows(client, demo_property):
    ucp = profile_body(client.get("/.well-known/ucp").json())["ucp"]
    capabilities = ucp["capabilities"]
    assert ucp["version"] == "2026-08-25" and capabilities["dev.ucp.common.payment.terms"][0]["version"] == "2026-08-25"
    docs = "https://github.com/Universal-Commerce-Protocol/ucp/blob/"
    assert capabilities["dev.ucp.lodging.booking"][0]["spec"] == docs + LODGING_DRAFT + "/docs/specification/lodging/booking/index.md"
    assert capabilities["dev.ucp.lodging.policy.cancellation"][0]["spec"].endswith("/docs/specification/lodging/extensions/cancellation-policy.md")
    assert capabilities["dev.ucp.common.payment.terms"][0]["spec"].endswith("/docs/specification/payment/extensions/terms.md")
    services = ucp["services"]["dev.ucp.lodging"]
    assert [service["spec"] for service in services] == [docs + LODGING_DRAFT + f"/docs/specification/lodging/booking/{t}.md" for t in ("rest", "mcp")]
    for entry in [*services, *(entry for entries in capabilities.values() for entry in entries)]:
        assert re.fullmatch(re.escape(docs) + r"[0-9a-f]{40}/docs/specification/[a-z/-]+\.md", entry["spec"]), entry["spec"]


def test_the_property_names_the_ids_a_session_needs(client, demo_property):
    document = client.get("/api/v1/property").json()
    assert (document["accommodation_type_id"], document["rate_plan_id"]) == ("whole_home", "standard")


def test_the_whole_flow_up_to_the_guest_paying_on_the_continue_page(ucp, client, django_capture_on_commit_callbacks):
    created = ucp.post(SESSIONS, session_request(40, child_ages=[5]), **{"Idempotency-Key": "flow-1"})
    assert created.status_code == 201
    session = booking_body(created.json())
    assert session["status"] == "requires_escalation" and session["continue_url"].startswith("http")
    assert [m["severity"] for m in session["messages"]] == ["requires_buyer_input"]
    held = Reservation.objects.get(pk=session["id"])
    assert (held.status, held.guests, held.children_ages) == ("held", 3, [5])
    assert session["expires_at"] == held.hold_expires_at.isoformat()
    [total] = [t["amount"] for t in session["totals"] if t["type"] == "total"]
    assert total == int(held.total * 100)
    [subtotal] = [t for t in session["totals"] if t["type"] == "subtotal"]
    assert len(subtotal["lines"]) == 3
    [policy] = session["policies"]
    assert policy["type"] == "dev.ucp.lodging.policy.cancellation" and "city tax" in policy["description"]["plain"].lower()

    assert booking_body(ucp.get(f"{SESSIONS}/{session['id']}").json())["status"] == "requires_escalation"

    moved = ucp.put(f"{SESSIONS}/{session['id']}", session_request(50, 4, adults=2))
    moved_body = booking_body(moved.json())
    assert moved.status_code == 200 and moved_body["id"] == session["id"] and moved_body["status"] == "requires_escalation"
    assert moved_body["stays"][0]["stay_dates"] == {"start_date": str(future(50)), "end_date": str(future(54))}
    held.refresh_from_db()
    assert (held.check_in, held.check_out, held.guests) == (future(50), future(54), 2)

    completed = booking_body(ucp.post(f"{SESSIONS}/{session['id']}/complete", {"payment": {}}).json())
    assert completed["status"] == "requires_escalation" and completed["continue_url"] == session["continue_url"]

    opened = client.get(urlsplit(completed["continue_url"]).path)
    assert opened.status_code == 303
    checkout_path = urlsplit(opened["Location"]).path
    assert checkout_path.startswith("/api/v1/payments/sandbox/")
    assert client.get(urlsplit(completed["continue_url"]).path)["Location"] == opened["Location"]  # reopened, not a second checkout
    with django_capture_on_commit_callbacks(execute=True):
        paid = client.post(checkout_path, {**PAYER, "action": "pay"})
    assert paid.status_code == 303 and urlsplit(paid["Location"]).path == "/thank-you"

    done = booking_body(ucp.get(f"{SESSIONS}/{session['id']}").json())
    assert done["status"] == "completed" and done["confirmation"]["id"] == session["id"]
    assert "continue_url" not in done and "expires_at" not in done
    assert client.get(urlsplit(session["continue_url"]).path)["Location"].startswith("/thank-you?reservation_id=")


def test_cancel_releases_the_hold(ucp):
    session = booking_body(ucp.post(SESSIONS, session_request(40)).json())
    cancelled = booking_body(ucp.post(f"{SESSIONS}/{session['id']}/cancel", {}).json())
    assert cancelled["status"] == "canceled" and "continue_url" not in cancelled
    assert Reservation.objects.get(pk=session["id"]).status == "cancelled"
    assert booking_body(ucp.post(f"{SESSIONS}/{session['id']}/cancel", {}).json())["status"] == "canceled"  # again: no change
    assert ucp.post(SESSIONS, session_request(40)).status_code == 201  # the nights are free again


def test_taken_dates_answer_inventory_exhausted_and_hold_nothing(ucp):
    ucp.post(SESSIONS, session_request(40))
    taken = ucp.post(SESSIONS, session_request(41))
    body = error_body(taken.json())
    assert taken.status_code == 200 and body["ucp"]["status"] == "error"
    assert [(m["code"], m["severity"]) for m in body["messages"]] == [("inventory_exhausted", "unrecoverable")]
    assert Reservation.objects.count() == 1


def test_an_update_onto_taken_dates_keeps_the_old_hold(ucp):
    ucp.post(SESSIONS, session_request(60))
    session = booking_body(ucp.post(SESSIONS, session_request(40)).json())
    refused = booking_body(ucp.put(f"{SESSIONS}/{session['id']}", session_request(59)).json())
    assert refused["status"] == "incomplete" and refused["messages"][0]["code"] == "inventory_exhausted"
    assert refused["stays"][0]["stay_dates"]["start_date"] == str(future(40))
    assert Reservation.objects.get(pk=session["id"]).check_in == future(40)


def test_an_update_overlapping_its_own_nights_is_allowed(ucp):
    session = booking_body(ucp.post(SESSIONS, session_request(40, 3)).json())
    moved = booking_body(ucp.put(f"{SESSIONS}/{session['id']}", session_request(41, 3)).json())
    assert moved["status"] == "requires_escalation" and Reservation.objects.get().check_in == future(41)


def test_the_same_idempotency_key_answers_the_same_session(ucp):
    first = ucp.post(SESSIONS, session_request(40), **{"Idempotency-Key": "same"})
    again = ucp.post(SESSIONS, session_request(40), **{"Idempotency-Key": "same"})
    assert first.json()["id"] == booking_body(again.json())["id"] and Reservation.objects.count() == 1
    other = ucp.post(SESSIONS, session_request(70), **{"Idempotency-Key": "same"})
    assert other.status_code == 409 and error_body(other.json())["messages"][0]["code"] == "idempotency_conflict"


def test_complete_and_cancel_replay_their_first_answer_for_the_same_key(ucp):
    session = booking_body(ucp.post(SESSIONS, session_request(40)).json())
    complete, cancel = f"{SESSIONS}/{session['id']}/complete", f"{SESSIONS}/{session['id']}/cancel"
    completed = booking_body(ucp.post(complete, {"payment": {}}, **{"Idempotency-Key": "done-1"}).json())
    assert ucp.post(complete, {"payment": {}}, **{"Idempotency-Key": "done-1"}).json() == completed
    conflict = ucp.post(complete, {"payment": {}, "signals": {"dev.ucp.buyer_ip": "203.0.113.9"}}, **{"Idempotency-Key": "done-1"})
    assert conflict.status_code == 409 and error_body(conflict.json())["messages"][0]["code"] == "idempotency_conflict"

    cancelled = booking_body(ucp.post(cancel, {}, **{"Idempotency-Key": "stop-1"}).json())
    assert cancelled["status"] == "canceled" and Reservation.objects.get().status == "cancelled"
    assert ucp.post(cancel, {}, **{"Idempotency-Key": "stop-1"}).json() == cancelled  # the first answer, nothing done again
    conflict = ucp.post(complete, {"payment": {}}, **{"Idempotency-Key": "stop-1"})  # another operation's scope: its own key
    assert conflict.status_code == 200
    other_session = booking_body(ucp.post(SESSIONS, session_request(60)).json())
    reused = ucp.post(f"{SESSIONS}/{other_session['id']}/cancel", {}, **{"Idempotency-Key": "stop-1"})
    assert reused.status_code == 409 and error_body(reused.json())["messages"][0]["code"] == "idempotency_conflict"
    assert Reservation.objects.get(pk=other_session["id"]).status == "held"


def test_an_update_honours_its_idempotency_key(ucp):
    session = booking_body(ucp.post(SESSIONS, session_request(40)).json())
    path = f"{SESSIONS}/{session['id']}"
    moved = booking_body(ucp.put(path, session_request(50), **{"Idempotency-Key": "move-1"}).json())
    assert ucp.put(path, session_request(50), **{"Idempotency-Key": "move-1"}).json() == moved
    refused = ucp.put(path, session_request(60), **{"Idempotency-Key": "move-1"})
    assert refused.status_code == 409 and error_body(refused.json())["messages"][0]["code"] == "idempotency_conflict"
    assert Reservation.objects.get().check_in == future(50)


def test_a_bad_idempotency_key_is_refused_in_the_error_envelope(ucp):
    refused = ucp.post(SESSIONS, session_request(40), **{"Idempotency-Key": "k" * 300})
    [message] = error_body(refused.json())["messages"]
    assert refused.status_code == 422 and message["severity"] == "recoverable" and "path" not in message
    assert not Reservation.objects.exists()


def test_complete_requires_payment(ucp):
    session = booking_body(ucp.post(SESSIONS, session_request(40)).json())
    refused = ucp.post(f"{SESSIONS}/{session['id']}/complete", {})
    [message] = error_body(refused.json())["messages"]
    assert refused.status_code == 422 and (message["code"], message["path"]) == ("missing", "$.payment")


def test_guests_and_guest_assignments_are_kept_and_returned_as_sent(ucp):
    created = booking_body(ucp.post(SESSIONS, with_party(session_request(40))).json())
    assert created["guests"] == PARTY["guests"] and created["stays"][0]["guest_assignments"] == PARTY["guest_assignments"]
    assert booking_body(ucp.get(f"{SESSIONS}/{created['id']}").json())["guests"] == PARTY["guests"]
    party = {"guests": [{"id": "p-9", "first_name": "Ada"}], "guest_assignments": [{"guest_id": "p-9", "role": "primary"}]}
    updated = booking_body(ucp.put(f"{SESSIONS}/{created['id']}", with_party(session_request(40), party)).json())
    assert (updated["guests"], updated["stays"][0]["guest_assignments"]) == (party["guests"], party["guest_assignments"])
    dropped = booking_body(ucp.put(f"{SESSIONS}/{created['id']}", session_request(40)).json())  # a full replacement
    assert "guests" not in dropped and "guest_assignments" not in dropped["stays"][0]


def test_an_assignment_must_name_a_guest_of_the_pool(ucp):
    request = with_party(session_request(40), {"guests": [{"id": "a"}], "guest_assignments": [{"guest_id": "b", "role": "primary"}]})
    body = error_body(ucp.post(SESSIONS, request).json())
    assert [(m["code"], m["path"]) for m in body["messages"]] == [("invalid_guest_assignment", "$.stays[0].guest_assignments[0].guest_id")]
    assert not Reservation.objects.exists()


def test_every_answer_selects_the_payment_term_and_an_update_may_select_it(ucp):
    session = booking_body(ucp.post(SESSIONS, session_request(40)).json())
    assert session["payment"]["selected_term_id"] == session["payment"]["terms"][0]["id"] == "standard"
    path = f"{SESSIONS}/{session['id']}"
    chosen = booking_body(ucp.put(path, {**session_request(40), "payment": {"selected_term_id": "standard"}}).json())
    assert chosen["status"] == "requires_escalation" and chosen["payment"]["selected_term_id"] == "standard"
    unknown = booking_body(ucp.put(path, {**session_request(41), "payment": {"selected_term_id": "pay_later"}}).json())
    assert unknown["status"] == "incomplete" and unknown["payment"]["selected_term_id"] == "standard"
    assert [(m["code"], m["path"]) for m in unknown["messages"] if m["severity"] == "recoverable"] == [
        ("invalid_selected_term_id", "$.payment.selected_term_id")
    ]
    assert Reservation.objects.get().check_in == future(40)


def test_the_rate_plan_and_payment_terms_say_what_the_property_terms_say(ucp, client):
    terms = client.get("/api/v1/property").json()["payment_terms"]
    session = booking_body(ucp.post(SESSIONS, session_request(40)).json())  # more than balance_due_days away: a deposit
    rate_plan = session["stays"][0]["rate_plan"]
    assert rate_plan["title"] == f"Standard rate: {terms['deposit_percent']}% deposit, balance {terms['balance_due_days']} days before check-in"
    assert "paid in full when booked" not in rate_plan["title"] and f"deposit of {terms['deposit_percent']}%" in rate_plan["description"]
    [term] = session["payment"]["terms"]
    assert [schedule["type"] for schedule in term["schedules"]] == ["immediate", "deferred"]
    [deposit, _balance] = term["schedules"]
    [total] = [entry["amount"] for entry in session["totals"] if entry["type"] == "total"]
    assert deposit["amount"] == round(total * terms["deposit_percent"] / 100)


def test_too_many_guests_are_refused_with_the_capacity_named(ucp):
    request = session_request(40)
    request["stays"][0]["occupancy"] = {"adults": 9, "total": 9}
    [message] = error_body(ucp.post(SESSIONS, request).json())["messages"]
    assert message["content"] == "The property sleeps at most 7 guests."


@pytest.mark.parametrize(
    ("change", "code", "path"),
    [
        ({"occupancy": {"adults": 9, "total": 9}}, "occupancy_exceeded_capacity", "$.stays[0].occupancy.total"),
        ({"stay_dates": {"start_date": "2020-01-01", "end_date": "2020-01-04"}}, "invalid_check_in", "$.stays[0].stay_dates.start_date"),
        ({"rate_plan": {"id": "nonrefundable"}}, "invalid_rate_plan", "$.stays[0].rate_plan.id"),
        ({"occupancy": {"adults": 2, "total": 3}}, "occupancy_mismatch", "$.stays[0].occupancy"),
    ],
)
def test_a_booking_this_property_cannot_hold_gets_recoverable_messages_and_no_hold(ucp, change, code, path):
    request = session_request(40)
    request["stays"][0] |= change
    body = error_body(ucp.post(SESSIONS, request).json())
    assert (body["messages"][0]["code"], body["messages"][0]["path"], body["messages"][0]["severity"]) == (code, path, "recoverable")
    assert not Reservation.objects.exists()


def test_unknown_fields_are_refused_together_with_their_location(ucp):
    request = session_request(40)
    request["promo"] = "X"
    request["stays"][0]["occupancy"]["pets"] = 1
    response = ucp.post(SESSIONS, request)
    assert response.status_code == 422
    assert [(m["path"], m["code"]) for m in error_body(response.json())["messages"]] == [("$.promo", "extra_forbidden")]
    del request["promo"]
    nested = error_body(ucp.post(SESSIONS, request).json())["messages"]
    assert [(m["path"], m["code"], m["severity"]) for m in nested] == [("$.stays[0].occupancy.pets", "extra_forbidden", "recoverable")]


def test_an_unknown_session_is_a_404_in_the_ucp_error_envelope(ucp):
    response = ucp.get(f"{SESSIONS}/res_nope")
    assert response.status_code == 404 and error_body(response.json())["messages"][0]["code"] == "not_found"
    assert ucp.get("/pay/res_nope").status_code == 404


def test_a_week_carries_its_discount_as_a_negative_entry_and_the_policy_its_tiers(ucp):
    session = booking_body(ucp.post(SESSIONS, session_request(40, 7)).json())
    kinds = [entry["type"] for entry in session["totals"]]
    assert kinds == ["subtotal", "discount", "fee", "tax", "total"]
    [discount] = [entry for entry in session["totals"] if entry["type"] == "discount"]
    assert discount["amount"] < 0
    held = Reservation.objects.get(pk=session["id"])
    assert discount["amount"] == round(float(held.price_breakdown["discount_amount"]) * 100)
    schedule = session["policies"][0]["schedule"]
    # "At least N days before arrival", on the property's local dates: counted back from the end of the arrival day.
    assert schedule["anchor"].startswith(f"{future(41)}T00:00:00+")
    assert [tier["until"] for tier in schedule["tiers"]] == ["P30D", "P7D", "P0D"]
    assert [tier["outcome"]["buyer_bps"] for tier in schedule["tiers"]] == [10000, 5000, 0]
    assert session["payment"]["terms"][0]["schedules"][0]["type"] == "immediate"


def test_promo_code_and_extras_are_taken_as_every_interface_takes_them(ucp):
    offers = {"promo_code": "welcome10", "extras": [{"code": "airport_transfer", "quantity": 1}, {"code": "late_checkout", "quantity": 1}]}
    session = booking_body(ucp.post(SESSIONS, {**session_request(40, 3), **offers}).json())
    held = Reservation.objects.get(pk=session["id"])
    breakdown = held.price_breakdown
    assert held.promo_code.code == "WELCOME10" and breakdown["extras_total"] == 100.0
    assert [d["code"] for d in breakdown["discounts"]] == ["WELCOME10"]
    assert sum(entry["amount"] for entry in session["totals"] if entry["type"] != "total") == next(
        entry["amount"] for entry in session["totals"] if entry["type"] == "total"
    )
    assert next(entry["amount"] for entry in session["totals"] if entry["type"] == "total") == round(float(held.total) * 100)
    # An update is a full replacement: the same stay without the offers is priced without them.
    plain = booking_body(ucp.put(f"{SESSIONS}/{session['id']}", session_request(40, 3)).json())
    held.refresh_from_db()
    assert held.promo_code is None and "extras_total" in held.price_breakdown and held.price_breakdown["extras_total"] == 0
    assert plain["status"] == "requires_escalation"
    # And with them again, on new dates.
    booking_body(ucp.put(f"{SESSIONS}/{session['id']}", {**session_request(41, 3), **offers}).json())
    held.refresh_from_db()
    assert (held.check_in, held.promo_code.code, held.price_breakdown["extras_total"]) == (future(41), "WELCOME10", 100.0)


def test_an_update_keeps_the_last_use_of_a_code_its_own_hold_took(ucp, demo_property):
    """A one-use code taken by this session's hold: the update (one more night) is priced with it,
    never refused as used up by its own use; another session still cannot take it."""
    PromoCode.objects.create(property=demo_property, code="ONCE", percent=Decimal("5"), max_uses=1)
    session = booking_body(ucp.post(SESSIONS, {**session_request(40, 3), "promo_code": "ONCE"}).json())
    updated = ucp.put(f"{SESSIONS}/{session['id']}", {**session_request(40, 4), "promo_code": "ONCE"})
    assert updated.status_code == 200, updated.content
    held = Reservation.objects.get(pk=session["id"])
    assert (held.check_out, held.promo_code.code) == (future(44), "ONCE")
    assert [discount["code"] for discount in held.price_breakdown["discounts"]] == ["ONCE"]
    other = ucp.post(SESSIONS, {**session_request(60, 3), "promo_code": "ONCE"})
    assert other.status_code == 422 and "used up" in other.content.decode()


def test_an_unknown_promo_code_holds_nothing_and_says_why(ucp):
    answer = ucp.post(SESSIONS, {**session_request(40, 3), "promo_code": "NOPE"})
    assert answer.status_code == 422
    [message] = error_body(answer.json())["messages"]
    assert (message["path"], message["code"]) == ("$.promo_code", "promo_code_invalid")
    assert not Reservation.objects.exists()
