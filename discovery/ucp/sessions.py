"""The five booking-session operations, shared by the REST binding (views.py) and the MCP binding
(tools.py). Each answers (HTTP status, UCP body); domain failures that UCP calls business outcomes
come back as bodies with `messages`, anything else (InvalidInput, NotFound, ...) is raised for the
binding to translate.

A session is a hold made by holds.hold_stay, like every REST hold: the same calendar lock, the same
Idempotency-Key service (scope "ucp-booking-sessions") and the same strict input.
"""

from typing import Any

from django.utils import translation

from booking.callers import Caller
from booking.errors import DatesUnavailable, NotReleasable, ReservationNotPayable
from booking.models import Reservation
from booking.services import payments
from booking.services.holds import hold_stay
from booking.services.idempotency import recover_with, run_idempotent
from booking.services.rehold import change_held_stay
from booking.services.reservations import get_reservation
from discovery.ucp import requests
from discovery.ucp.present import booking_json, error_json

SCOPE = "ucp-booking-sessions"
Answer = tuple[int, dict[str, Any]]


def inventory_exhausted(error: DatesUnavailable, severity: str) -> dict:
    return {"type": "error", "code": "inventory_exhausted", "content": error.detail, "path": "$.stays[0]", "severity": severity}


def create(body: Any, caller: Caller, *, idempotency_key: str | None = None, agent_name: str | None = None) -> Answer:
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
        return 201, present(reservation)

    try:
        return run_idempotent(scope=SCOPE, key=idempotency_key, payload=body, produce=produce)
    except DatesUnavailable as error:  # no hold was made: nothing to act on
        return 200, error_json([inventory_exhausted(error, "unrecoverable")])


@recover_with(SCOPE)
def answer_of_a_committed_session(reservation: Reservation, payload: object) -> Answer:
    return 201, present(reservation)


def get(session_id: str) -> Answer:
    return 200, present(get_reservation(session_id))


def update(session_id: str, body: Any, caller: Caller) -> Answer:
    """A full replacement: new dates or party re-hold atomically, or the hold stays as it was and
    the answer says why (`incomplete` with recoverable messages)."""
    reservation = get_reservation(session_id)
    data = requests.parse(body)
    stay, problems = requests.hold_input(data)
    if problems:
        return 200, present(reservation, problems, status=_incomplete_unless_final(reservation))
    try:
        reservation = change_held_stay(
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
    return 200, present(reservation)


def complete(session_id: str, body: Any) -> Answer:
    """No payment handler: completing hands the payment to the guest (requires_escalation with
    continue_url) until the payment event confirms the stay; then it reads `completed`."""
    requests.parse_complete(body)
    return 200, present(get_reservation(session_id))


def cancel(session_id: str, caller: Caller) -> Answer:
    """Release the hold (its checkout closed at the provider). Cancelling a canceled session
    changes nothing; a completed booking is cancelled by the guest from their confirmation email."""
    reservation = get_reservation(session_id)
    if reservation.status == Reservation.Status.HELD and reservation.is_blocking():
        try:
            reservation = payments.release_hold(session_id, actor=caller.actor(None))
        except NotReleasable as error:  # paid a moment ago
            return 200, present(get_reservation(session_id), [final(error.detail)])
    elif reservation.status == Reservation.Status.CONFIRMED:
        message = "This booking is completed; the guest can cancel the stay from the link in their confirmation email."
        return 200, present(reservation, [final(message)])
    return 200, present(reservation)


def final(content: str) -> dict:
    return {"type": "error", "code": "session_final", "content": content, "severity": "unrecoverable"}


def _incomplete_unless_final(reservation: Reservation) -> str | None:
    return "incomplete" if reservation.status == Reservation.Status.HELD and reservation.is_blocking() else None


def present(reservation: Reservation, messages: list[dict] | None = None, *, status: str | None = None) -> dict:
    with translation.override("en"):  # agents read English, whatever language a request activates
        return booking_json(reservation, messages, status=status)
