"""A UCP create or update request → the input of a REST hold, through the same validation.

Two kinds of bad input, as the protocol separates them:
- a request that is not a UCP booking (not an object, a field UCP does not define, a wrong type):
  InvalidInput, the 422 every REST hold gives (strict input, `loc` naming the field);
- a well-formed booking this property cannot hold (dates in the past or inverted, too many guests,
  another property, accommodation type or rate plan): UCP `recoverable` error messages whose
  `path` points into the request, so the platform can correct it and try again.

The stay is mapped onto the fields of `booking.validation.ReservationCreate` and validated by it,
so whatever the REST hold accepts (and any field it learns later) is judged here the same way.
"""

from typing import Any

from rest_framework import serializers

from booking import validation
from booking.errors import InvalidInput
from booking.selectors import get_property
from discovery.ucp import profile

LOCATION = "body"


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
    # Who sleeps where: accepted (UCP lets platforms send it early); the payment page names the guest.
    guest_assignments = serializers.ListField(child=serializers.DictField(), required=False, max_length=50)


class BookingRequest(validation.Schema):
    property = _Ref()
    stays = serializers.ListField(child=serializers.DictField(), min_length=1, max_length=10)
    # Accepted as UCP defines them, not stored: the payment page collects the guest's own details.
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
    payment = serializers.DictField(required=False)
    signals = serializers.DictField(required=False)


def parse(body: Any) -> dict:
    """The UCP request, well-formed, or InvalidInput (422) naming every bad field at once."""
    # Free-form parts (booker, guests, context, ...) are text too: a NUL or a lone surrogate anywhere
    # is a 422 here, never a failure where the text is stored or passed on.
    if errors := validation.unstorable_text(body, [LOCATION]):
        raise InvalidInput(errors)
    data = validation.validate(BookingRequest, body, LOCATION)
    errors = []
    for index, stay in enumerate(data["stays"]):
        try:
            data["stays"][index] = validation.validate(_Stay, stay, LOCATION)
        except InvalidInput as error:
            errors += [{**item, "loc": [LOCATION, "stays", index, *item["loc"][1:]]} for item in error.errors]
    if errors:
        raise InvalidInput(errors)
    return data


def parse_complete(body: Any) -> dict:
    if errors := validation.unstorable_text(body, [LOCATION]):
        raise InvalidInput(errors)
    return validation.validate(CompleteRequest, {} if body is None else body, LOCATION)


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
    problems = _identity_problems(data)
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
        for item in error.errors:
            field = item["loc"][1] if len(item["loc"]) > 1 else ""
            code = "occupancy_exceeded_capacity" if field == "guests" and item["type"] == "less_than_equal" else "invalid_" + str(field or "booking")
            problems.append(recoverable(code, item["msg"], PATHS.get(str(field), "$.stays[0]")))
        valid = {}
    return ({}, problems) if problems else (valid, [])


def _identity_problems(data: dict) -> list[dict]:
    problems = []
    if len(data["stays"]) != 1:
        problems.append(recoverable("invalid_stays", "This property is one home: book exactly one stay per session.", "$.stays"))
    prop = get_property()
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
