"""A UCP create or update request → the input of a REST hold, through the same validation.

Two kinds of bad input, as the protocol separates them:
- a request that is not a UCP booking (not an object, a field UCP does not define, a wrong type):
  InvalidInput, the 422 every REST hold gives (strict input, naming the field);
- a well-formed booking this property cannot hold (dates in the past or inverted, too many guests,
  another property, accommodation type or rate plan): UCP `recoverable` error messages whose
  `path` points into the request, so the platform can correct it and try again.

The stay is mapped onto the fields of `booking.api.validation.ReservationCreate` and validated by it,
so whatever the REST hold accepts (and any field it learns later) is judged here the same way.
"""

from typing import Any

from rest_framework import serializers

from booking.api import validation
from booking.catalog.selectors import get_property
from booking.errors import InvalidInput
from discovery.ucp import profile

LOCATION = "body"
TERM_IDS = (profile.PAYMENT_TERM_ID,)


class _Ref(validation.Schema):
    id = validation.StrictCharField(max_length=200)


class _Occupancy(validation.Schema):
    adults = validation.StrictIntegerField(min_value=0, required=False)
    children = validation.StrictIntegerField(min_value=0, required=False)
    child_ages = serializers.ListField(child=validation.StrictIntegerField(min_value=0), required=False, max_length=50)
    total = validation.StrictIntegerField(min_value=1)


class _StayDates(validation.Schema):
    start_date = validation.StrictCharField(max_length=10)
    end_date = validation.StrictCharField(max_length=10)


class _Stay(validation.Schema):
    id = validation.StrictCharField(max_length=200, required=False)
    accommodation_type = _Ref(required=False)
    rate_plan = _Ref(required=False)
    occupancy = _Occupancy()
    stay_dates = _StayDates()
    # Who sleeps where: kept as sent with the root guests[] (Reservation.agent_party) and returned.
    guest_assignments = serializers.ListField(child=serializers.DictField(), required=False, max_length=50)


class BookingRequest(validation.Schema):
    property = _Ref()
    stays = serializers.ListField(child=serializers.DictField(), min_length=1, max_length=10)
    # booker and travel_purpose are accepted, not stored: the payment page collects the payer's own
    # details. guests[] is kept as sent (ids preserved) and returned with every answer.
    booker = serializers.DictField(required=False)
    guests = serializers.ListField(child=serializers.DictField(), required=False, max_length=50)
    travel_purpose = validation.StrictCharField(required=False, max_length=100)
    context = serializers.DictField(required=False)
    signals = serializers.DictField(required=False)
    payment = serializers.DictField(required=False)
    # This property's offers (docs/offers.md), as extension fields of the booking (UCP allows them):
    # the same promo_code and extras every other interface takes.
    promo_code = validation.StrictCharField(required=False, allow_null=True, allow_blank=True, max_length=40)
    extras = serializers.ListField(child=serializers.DictField(), required=False, max_length=20)


class CompleteRequest(validation.Schema):
    # Required by UCP; `{}` while the profile lists no payment handler (the guest pays on continue_url).
    payment = serializers.DictField()
    signals = serializers.DictField(required=False)


def parse(body: Any) -> dict:
    """The UCP request, well-formed, or InvalidInput (422) naming every bad field at once."""
    # Free-form parts (booker, guests, context, ...) are text too: a NUL or a lone surrogate anywhere
    # is a 422 here, never a failure where the text is stored or passed on.
    if errors := validation.unstorable_text(body, [LOCATION]):
        raise InvalidInput.located(errors)
    data = validation.validate(BookingRequest, body, LOCATION)
    problems = []
    for index, stay in enumerate(data["stays"]):
        try:
            data["stays"][index] = validation.validate(_Stay, stay, LOCATION)
        except InvalidInput as error:
            problems += error.within("stays", index).problems
    if problems:
        raise InvalidInput(problems, location=(LOCATION,))
    return data


def parse_complete(body: Any) -> dict:
    if errors := validation.unstorable_text(body, [LOCATION]):
        raise InvalidInput.located(errors)
    return validation.validate(CompleteRequest, {} if body is None else body, LOCATION)


def party(data: dict) -> dict:
    """The platform's guests[] and the stay's guest_assignments, as sent (Reservation.agent_party)."""
    kept = {"guests": data.get("guests") or [], "guest_assignments": data["stays"][0].get("guest_assignments") or []}
    return {name: value for name, value in kept.items() if value}


# Where a ReservationCreate field came from in the UCP request (for the messages' `path`).
PATHS = {
    "check_in": "$.stays[0].stay_dates.start_date",
    "check_out": "$.stays[0].stay_dates.end_date",
    "guests": "$.stays[0].occupancy.total",
    "children_ages": "$.stays[0].occupancy.child_ages",
    "promo_code": "$.promo_code",
    "extras": "$.extras",
}


def hold_input(data: dict) -> tuple[dict, list[dict]]:
    """(ReservationCreate's validated input, []) or ({}, recoverable UCP error messages)."""
    prop = get_property()
    problems = _identity_problems(data, prop) + _party_problems(data) + _term_problems(data)
    stay = data["stays"][0]
    occupancy = stay["occupancy"]
    ages = occupancy.get("child_ages")
    if "adults" in occupancy and occupancy["adults"] + occupancy.get("children", len(ages or ())) != occupancy["total"]:
        problems.append(recoverable("occupancy_mismatch", "occupancy.total must equal adults + children.", "$.stays[0].occupancy"))
    if ages is not None and "children" in occupancy and len(ages) != occupancy["children"]:
        problems.append(recoverable("occupancy_mismatch", "child_ages must list one age per child.", "$.stays[0].occupancy.child_ages"))
    rest = {"check_in": stay["stay_dates"]["start_date"], "check_out": stay["stay_dates"]["end_date"], "guests": occupancy["total"]}
    if ages:
        rest["children_ages"] = ages
    for offer in ("promo_code", "extras"):
        if data.get(offer):
            rest[offer] = data[offer]
    try:
        valid = validation.validate(validation.ReservationCreate, rest, LOCATION)
    except InvalidInput as error:
        for problem in error.problems:
            field = problem.field[0] if problem.field else ""
            if field == "guests" and problem.type == "less_than_equal":
                problems.append(recoverable("occupancy_exceeded_capacity", f"The property sleeps at most {prop.max_guests} guests.", PATHS["guests"]))
                continue
            problems.append(recoverable("invalid_" + str(field or "booking"), problem.msg, PATHS.get(str(field), "$.stays[0]")))
        valid = {}
    return ({}, problems) if problems else (valid, [])


def _party_problems(data: dict) -> list[dict]:
    """Every guest has an id, unique; every assignment names one of them (booking/index.md, Business)."""
    problems, ids = [], []
    for index, guest in enumerate(data.get("guests") or []):
        guest_id = guest.get("id")
        if not isinstance(guest_id, str) or not guest_id or guest_id in ids:
            problems.append(recoverable("invalid_guest", "Each guest needs its own id (a string).", f"$.guests[{index}].id"))
        ids.append(guest_id)
    for index, assignment in enumerate(data["stays"][0].get("guest_assignments") or []):
        if assignment.get("guest_id") not in ids or not isinstance(assignment.get("guest_id"), str):
            path = f"$.stays[0].guest_assignments[{index}].guest_id"
            problems.append(recoverable("invalid_guest_assignment", "guest_id must be the id of an entry in guests[].", path))
    return problems


def _term_problems(data: dict) -> list[dict]:
    payment = data.get("payment") or {}
    if "selected_term_id" in payment and payment["selected_term_id"] not in TERM_IDS:
        content = f"Unknown payment term; the terms offered are {', '.join(map(repr, TERM_IDS))}."
        return [recoverable("invalid_selected_term_id", content, "$.payment.selected_term_id")]
    return []


def _identity_problems(data: dict, prop) -> list[dict]:
    problems = []
    if len(data["stays"]) != 1:
        problems.append(recoverable("invalid_stays", "This property is one home: book exactly one stay per session.", "$.stays"))
    if data["property"]["id"] != prop.slug:
        problems.append(recoverable("invalid_property", f"Unknown property; this business offers {prop.slug!r}.", "$.property.id"))
    stay = data["stays"][0]
    at, rp = stay.get("accommodation_type"), stay.get("rate_plan")
    if "id" in stay and stay["id"] != profile.STAY_ID and not (at and rp):
        problems.append(recoverable("invalid_stay", f"Unknown stay id; the one stay offered is {profile.STAY_ID!r}.", "$.stays[0].id"))
    if at is None and rp is None and "id" not in stay:
        problems.append(recoverable("invalid_stay", "Give stays[].id, or accommodation_type.id and rate_plan.id.", "$.stays[0]"))
    if at is not None and at["id"] != profile.ACCOMMODATION_TYPE_ID:
        problems.append(
            recoverable("invalid_accommodation_type", f"The one accommodation type is {profile.ACCOMMODATION_TYPE_ID!r}.", "$.stays[0].accommodation_type.id")
        )
    if rp is not None and rp["id"] != profile.RATE_PLAN_ID:
        problems.append(recoverable("invalid_rate_plan", f"The one rate plan is {profile.RATE_PLAN_ID!r}.", "$.stays[0].rate_plan.id"))
    return problems


def recoverable(code: str, content: str, path: str) -> dict:
    return {"type": "error", "code": code, "content": content, "path": path, "severity": "recoverable"}
