"""The five booking-session operations, shared by the REST binding (views.py) and the MCP binding
(tools.py). Each answers (HTTP status, UCP body); domain failures that UCP calls business outcomes
come back as bodies with `messages`; anything else (InvalidInput, NotFound, a reused
Idempotency-Key, ...) is raised, and `error_answer` gives both bindings its UCP error envelope.

A session is a hold made by holds.hold_stay, like every REST hold: the same calendar lock, the same
Idempotency-Key service and the same strict input. Create, update, complete and cancel each honour
the key in a scope of their own (the same key and body: the first answer; another body: 409
`idempotency_conflict`).
"""

import re
from typing import Any

from django.utils import translation

from booking.callers import Caller
from booking.errors import BookingError, DatesUnavailable, IdempotencyKeyReused, InvalidInput, NotFound, NotReleasable, Problem, ReservationNotPayable
from booking.payments.services import checkouts as payments
from booking.payments.services.rehold import change_held_stay, keep_agent_party
from booking.reservations.models import Reservation
from booking.reservations.services.holds import hold_stay
from booking.reservations.services.idempotency import InvalidRetryKey, recover_with, run_idempotent
from booking.reservations.services.reservations import get_reservation
from discovery.ucp import requests
from discovery.ucp.present import booking_json, error_json

SCOPE = "ucp-booking-sessions"
SCOPES = {operation: f"{SCOPE}-{operation}" for operation in ("update", "complete", "cancel")}
Answer = tuple[int, dict[str, Any]]
Key = str | None
HEADER = ("header", "Idempotency-Key")  # where a bad key is reported (MCP: its meta argument)


def inventory_exhausted(error: DatesUnavailable, severity: str) -> dict:
    return {"type": "error", "code": "inventory_exhausted", "content": error.detail, "path": "$.stays[0]", "severity": severity}


def create(body: Any, caller: Caller, *, idempotency_key: Key = None, agent_name: str | None = None, key_location: tuple[str, ...] = HEADER) -> Answer:
    data = requests.parse(body)
    stay, problems = requests.hold_input(data)
    if problems:  # no session exists yet to carry them
        return 200, error_json(problems)

    def produce() -> Answer:
        reservation = hold_stay(
            check_in=stay["check_in"],
            check_out=stay["check_out"],
            guests=stay["guests"],
            children_ages=stay.get("children_ages"),
            agent_name=agent_name,
            caller=caller,
            promo_code=stay.get("promo_code"),
            extras=stay.get("extras"),
        )
        if party := requests.party(data):
            reservation = keep_agent_party(reservation.pk, party)
        return 201, present(reservation)

    try:
        return _run_idempotent(key_location, scope=SCOPE, key=idempotency_key, payload=body, produce=produce)
    except DatesUnavailable as error:  # no hold was made: nothing to act on
        return 200, error_json([inventory_exhausted(error, "unrecoverable")])


@recover_with(SCOPE)
def answer_of_a_committed_session(reservation: Reservation, payload: object) -> Answer:
    return 201, present(reservation)


def get(session_id: str) -> Answer:
    return 200, present(get_reservation(session_id))


def update(session_id: str, body: Any, caller: Caller, *, idempotency_key: Key = None, key_location: tuple[str, ...] = HEADER) -> Answer:
    """A full replacement: new dates or party re-hold atomically, or the hold stays as it was and
    the answer says why (`incomplete` with recoverable messages). guests[] and guest_assignments
    are kept as sent; `payment.selected_term_id` may name the one term offered."""
    reservation = get_reservation(session_id)
    data = requests.parse(body)

    def produce() -> Answer:
        stay, problems = requests.hold_input(data)
        if problems:
            return 200, present(reservation, problems, status=_incomplete_unless_final(reservation))
        try:
            changed = change_held_stay(
                session_id,
                check_in=stay["check_in"],
                check_out=stay["check_out"],
                guests=stay["guests"],
                children_ages=stay.get("children_ages"),
                actor=caller.actor(None),
                promo_code=stay.get("promo_code"),
                extras=stay.get("extras"),
            )
        except DatesUnavailable as error:
            return 200, present(get_reservation(session_id), [inventory_exhausted(error, "recoverable")], status="incomplete")
        except (ReservationNotPayable, NotReleasable) as error:
            return 200, present(get_reservation(session_id), [final(error.detail)])
        return 200, present(keep_agent_party(changed.pk, requests.party(data)))

    return _run_idempotent(key_location, scope=SCOPES["update"], key=idempotency_key, payload={"id": session_id, "body": body}, produce=produce)


def complete(session_id: str, body: Any, *, idempotency_key: Key = None, key_location: tuple[str, ...] = HEADER) -> Answer:
    """`payment` is required (`{}` while no payment handler is offered). No payment handler:
    completing hands the payment to the guest (requires_escalation with continue_url) until the
    payment event confirms the stay; then it reads `completed`."""
    requests.parse_complete(body)
    reservation = get_reservation(session_id)
    return _run_idempotent(
        key_location,
        scope=SCOPES["complete"],
        key=idempotency_key,
        payload={"id": session_id, "body": body},
        produce=lambda: (200, present(reservation)),
    )


def cancel(session_id: str, caller: Caller, body: Any = None, *, idempotency_key: Key = None, key_location: tuple[str, ...] = HEADER) -> Answer:
    """Release the hold (its checkout closed at the provider). Cancelling a canceled session
    changes nothing; a completed booking is cancelled by the guest from their confirmation email."""
    reservation = get_reservation(session_id)

    def produce() -> Answer:
        if reservation.status == Reservation.Status.HELD and reservation.is_blocking():
            try:
                return 200, present(payments.release_hold(session_id, actor=caller.actor(None)))
            except NotReleasable as error:  # paid a moment ago
                return 200, present(get_reservation(session_id), [final(error.detail)])
        if reservation.status == Reservation.Status.CONFIRMED:
            message = "This booking is completed; the guest can cancel the stay from the link in their confirmation email."
            return 200, present(reservation, [final(message)])
        return 200, present(reservation)

    return _run_idempotent(key_location, scope=SCOPES["cancel"], key=idempotency_key, payload={"id": session_id, "body": body or {}}, produce=produce)


def _run_idempotent(key_location: tuple[str, ...], **arguments: Any) -> Answer:
    """run_idempotent, a bad key said where this binding took it from (`key_location`)."""
    try:
        return run_idempotent(**arguments)
    except InvalidRetryKey as error:
        raise error.renamed(key_location) from None


def error_answer(error: BookingError) -> Answer:
    """A failure no session can carry, as UCP's error envelope for either binding: the HTTP status
    stays the JSON API's (404, 409, 422, ...); each invalid field is a message whose `path` points
    into the request."""
    if isinstance(error, InvalidInput):
        messages = [message(problem.type, problem.msg, "recoverable", path=_path(error, problem)) for problem in error.problems]
    elif isinstance(error, IdempotencyKeyReused):
        messages = [message("idempotency_conflict", error.detail, "recoverable")]
    elif isinstance(error, NotFound):
        messages = [message("not_found", error.detail, "unrecoverable")]
    else:
        messages = [message(error.code, error.detail, "recoverable" if error.status in (409, 429, 503) else "unrecoverable")]
    return error.status, error_json(messages)


def message(code: str, content: str, severity: str, *, path: str | None = None) -> dict:
    return {"type": "error", "code": code, "content": content, **({"path": path} if path else {}), "severity": severity}


def _path(error: InvalidInput, problem: Problem) -> str | None:
    """A field this binding located (its body, a header) → JSONPath of that place. A field the
    services name (of the stay this request asked for: ("promo_code",), ("extras", 0, "code"))
    → where the request has it (requests.PATHS), then the rest of the field."""
    if error.location is not None:
        return json_path([*error.location, *problem.field])
    field = problem.field
    if not field:
        return "$"
    start = requests.PATHS.get(str(field[0])) or json_path(["body", field[0]]) or "$"
    return start + (json_path(["body", *field[1:]]) or "$")[1:]


def json_path(loc: list) -> str | None:
    """["body", "stays", 0, "occupancy"] → "$.stays[0].occupancy" (RFC 9535); a header has none."""
    if not loc or loc[0] != "body":
        return None
    path = "$"
    for part in loc[1:]:
        if isinstance(part, int):
            path += f"[{part}]"
        elif re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", str(part)):
            path += f".{part}"
        else:
            path += "['" + str(part).replace("\\", "\\\\").replace("'", "\\'") + "']"
    return path


def final(content: str) -> dict:
    return {"type": "error", "code": "session_final", "content": content, "severity": "unrecoverable"}


def _incomplete_unless_final(reservation: Reservation) -> str | None:
    return "incomplete" if reservation.status == Reservation.Status.HELD and reservation.is_blocking() else None


def present(reservation: Reservation, messages: list[dict] | None = None, *, status: str | None = None) -> dict:
    with translation.override("en"):  # agents read English, whatever language a request activates
        return booking_json(reservation, messages, status=status)
