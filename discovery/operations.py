"""The booking operations offered to agents: one table, read by the MCP server and the A2A agent.

Each operation is the agent-side twin of one REST endpoint: it validates its arguments with the
same booking.api.validation schema (and the same `loc` prefix, so the messages are the REST messages),
calls the same service and answers with the same presenter's body. Domain failures surface as
booking.errors.BookingError for each interface to translate; nothing else is decided here.
"""

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import date, timedelta

from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.db import DatabaseError, InterfaceError, OperationalError, close_old_connections, connections
from rest_framework import serializers

from booking.api import documents, presenters, validation
from booking.api.committed_holds import checkout_link_arguments, hold_arguments
from booking.api.payment_presenters import checkout_json
from booking.api.schemas import payments as payment_schemas
from booking.api.schemas import responses
from booking.callers import Caller
from booking.errors import BookingError, InvalidInput, ServiceUnavailable, fields_at
from booking.payments.services import checkouts as payments
from booking.payments.services import guest_bookings
from booking.reservations.services import stays
from booking.reservations.services.holds import hold_stay
from booking.reservations.services.idempotency import run_idempotent
from booking.reservations.services.reservations import get_reservation

logger = logging.getLogger("discovery.agents")


@dataclass(frozen=True)
class Operation:
    name: str
    title: str
    description: str
    rest: str  # the REST twin, e.g. "GET /api/v1/availability"
    arguments: type[serializers.Serializer] | None  # booking.api.validation schema
    location: str  # loc prefix of validation errors, as in REST: "query", "body" or "path"
    result: type[serializers.Serializer]  # booking.api.schemas.responses shape of the answer
    run: Callable[[dict, Caller], dict]
    read_only: bool
    idempotent: bool
    open_world: bool = False
    example: Mapping = field(default_factory=dict)
    # Creating operations take an `idempotency_key` argument with the REST Idempotency-Key
    # semantics, in the REST endpoint's scope (the same key and body answer the same, whichever
    # interface retried).
    idempotency_scope: str | None = None
    destructive: bool = False

    def validate(self, arguments) -> dict:
        """The REST rules, with the REST `loc` prefix, so the messages are the REST messages."""
        if self.arguments is None:
            if isinstance(arguments, Mapping) and arguments:
                raise InvalidInput.located(
                    [
                        {"loc": [self.location, name], "msg": f"Unknown field {name!r}; this operation takes no arguments.", "type": "extra_forbidden"}
                        for name in arguments
                    ]
                )
            return {}
        return validation.validate(self.arguments, {} if arguments is None else arguments, self.location, forbid_extra=True)


def run_operation(name: str, arguments, caller: Caller) -> dict:
    """Validate, call the service, present. Raises BookingError (InvalidInput for bad input)."""
    operation = OPERATIONS.get(name)
    if operation is None:
        names = ", ".join(OPERATIONS)
        raise InvalidInput.single(["body", "skill"], f"Unknown operation {name!r}; one of: {names}.", "enum")
    try:
        # The services name the fields; they are the arguments of the REST twin's query or body.
        with fields_at(operation.location):
            if operation.idempotency_scope:
                body = _run_with_key(operation, arguments, caller)
            else:
                body = operation.run(operation.validate(arguments), caller)
    except (OperationalError, InterfaceError) as error:
        logger.error("database unavailable during %s: %s", name, error.__class__.__name__)
        raise ServiceUnavailable("The database is unavailable; try again shortly.") from error
    except DatabaseError as error:
        logger.exception("database error during %s", name)
        raise ServiceUnavailable("The request could not be stored; try again.") from error
    return without_duplicates(body) if operation.result is responses.AgentReservationResult else body


def without_duplicates(reservation: dict) -> dict:
    """A reservation for agents: its id once, as reservation_id (the argument name of every tool
    that takes it). Trimmed after the idempotency layer, whose stored answer stays the REST one."""
    return {key: value for key, value in reservation.items() if key != "id"}


EXAMPLE_IDEMPOTENCY_KEY = "0b7e5c2a-9d3f-4c1e-8a6b-2f4d1e9c7a35"
IDEMPOTENCY_KEY_NOTE = "Optional UUID; on retry, reuse it: the first answer comes back."


def _run_with_key(operation: Operation, arguments, caller: Caller) -> dict:
    arguments = dict(arguments) if isinstance(arguments, Mapping) else arguments
    key = arguments.pop("idempotency_key", None) if isinstance(arguments, dict) else None
    if key == "":  # an empty key is a key that is wrong, not one left out
        raise InvalidInput.single([operation.location, "idempotency_key"], "Must be a string of 1 to 255 characters.", "string_type")

    def produce() -> tuple[int, dict]:
        return 201, operation.run(operation.validate(arguments), caller)

    # A bad key is named idempotency_key: the argument's own name, at the operation's location.
    _, body = run_idempotent(scope=operation.idempotency_scope, key=key, payload=arguments, produce=produce)
    return body


async def run_operation_async(name: str, arguments, caller: Caller) -> dict:
    """run_operation from async code: the ORM runs in a thread of its own for this call (as Django
    gives each request), and that thread's connections are closed when it is done."""
    async with ThreadSensitiveContext():
        return await sync_to_async(_run_with_connections, thread_sensitive=True)(name, arguments, caller)


def _run_with_connections(name: str, arguments, caller: Caller) -> dict:
    close_old_connections()
    try:
        return run_operation(name, arguments, caller)
    finally:
        connections.close_all()  # the thread ends with this call; so do its connections


def error_payload(error: BookingError) -> dict:
    """The REST error answer of `error`, with its HTTP status and code: what agents are told."""
    return {"status": error.status, "code": error.code, "message": error.detail, **error.as_body()}


def example_arguments(operation: Operation, today: date) -> dict:
    """The operation's example, with its dates moved two months ahead, so it never lies in the past."""
    example = dict(operation.example)
    if "check_in" in example:
        nights = (date.fromisoformat(example["check_out"]) - date.fromisoformat(example["check_in"])).days
        check_in = today + timedelta(days=60)
        example |= {"check_in": check_in.isoformat(), "check_out": (check_in + timedelta(days=nights)).isoformat()}
    if "start" in example:
        example["start"] = (today + timedelta(days=60)).replace(day=1).isoformat()
    if "end" in example:
        example["end"] = (today + timedelta(days=120)).isoformat()
    if operation.idempotency_scope:  # show the retry key where a call makes a hold
        example["idempotency_key"] = EXAMPLE_IDEMPOTENCY_KEY
    return example


# --- The operations -------------------------------------------------------------------------------


def _property(data: dict, caller: Caller) -> dict:
    return documents.property_json(stays.describe_property())


def _availability(data: dict, caller: Caller) -> dict:
    return presenters.availability_json(stays.check_stay(**data))


def _calendar(data: dict, caller: Caller) -> dict:
    return presenters.calendar_json(stays.calendar_months(**data))


def _find_stays(data: dict, caller: Caller) -> dict:
    return presenters.stays_json(stays.find_stays(**data))


def _quote(data: dict, caller: Caller) -> dict:
    body = presenters.quote_json(stays.quote_stay(**data))
    return {name: body[name] for name in responses.AgentQuoteResult().fields}  # the breakdown once


def _reservation(data: dict, caller: Caller) -> dict:
    return presenters.reservation_json(hold_stay(**hold_arguments(data, caller)), mask=False)


def _checkout_link(data: dict, caller: Caller) -> dict:
    return checkout_json(payments.create_checkout_link(**checkout_link_arguments(data, caller)))


def _checkout_session(data: dict, caller: Caller) -> dict:
    reservation = payments.open_checkout(
        data["reservation_id"], success_url=data.get("success_url"), cancel_url=data.get("cancel_url"), actor=caller.actor(None)
    )
    return checkout_json(reservation)


def _reservation_status(data: dict, caller: Caller) -> dict:
    return presenters.reservation_json(get_reservation(data["reservation_id"]), mask=True)


def _release_hold(data: dict, caller: Caller) -> dict:
    return presenters.reservation_json(payments.release_hold(data["reservation_id"], actor=caller.actor(None)), mask=True)


def _booking(data: dict, caller: Caller) -> dict:
    booking = guest_bookings.booking_for_token(data["manage_token"], client_ip=caller.client_ip)
    return presenters.guest_booking_json(guest_bookings.guest_booking(booking))


def _cancel_booking(data: dict, caller: Caller) -> dict:
    return presenters.cancellation_answer_json(guest_bookings.cancel_booking(data["manage_token"], client_ip=caller.client_ip, confirm=data["confirm"]))


def _change_booking_dates(data: dict, caller: Caller) -> dict:
    answer = guest_bookings.change_booking_dates(
        data["manage_token"],
        data["check_in"],
        data["check_out"],
        client_ip=caller.client_ip,
        confirm=data["confirm"],
        expected_total=data.get("expected_total"),
    )
    return presenters.date_change_answer_json(answer)


# What an argument means, for the fields whose validation schema carries no help_text.
ARGUMENT_NOTES = {
    "guest": "Optional guest details (first_name, last_name, email, phone). Not needed to book: the payment page collects them.",
    "special_requests": "For the host, up to 2,000 characters.",
    "agent_name": "Name of the calling AI agent, if any.",
    "success_url": "https URL the payer returns to after paying (default: our thank-you page; other hosts are only offered as a link).",
    "cancel_url": "https URL the payer returns to after cancelling (default: our booking page).",
    "reservation_id": "The reservation's id (res_…), as returned when it was created.",
}

STAY_EXAMPLE = {"check_in": "2027-05-10", "check_out": "2027-05-14", "guests": 2}

OPERATIONS: dict[str, Operation] = {
    operation.name: operation
    for operation in [
        Operation(
            name="get_property",
            title="Property details",
            description=(
                "The property: address, capacity (max_guests), amenities, photos, pricing rules "
                "(rates, seasons, stay limits, discounts, extras, fees, city tax), policies "
                "(times, house rules, cancellation, payment, hold length), reviews. Start here. Read-only."
            ),
            rest="GET /api/v1/property",
            arguments=None,
            location="query",
            result=responses.PropertyResult,
            run=_property,
            read_only=True,
            idempotent=True,
        ),
        Operation(
            name="check_availability",
            title="Check availability and price",
            description=(
                "Whether a stay can be booked, with its price breakdown in EUR either way. check_in is "
                "the arrival day, check_out the departure day. When available is false, "
                "unavailable_reason says why (booked, on_hold, min_stay, max_stay, closed_to_arrival, "
                "closed_to_departure, beyond_booking_window); on_hold: another guest's unpaid hold is "
                "in the way until held_until. Nothing is held. Read-only."
            ),
            rest="GET /api/v1/availability",
            arguments=validation.AvailabilityQuery,
            location="query",
            result=responses.AvailabilityResult,
            run=_availability,
            read_only=True,
            idempotent=True,
            example={"check_in": "2027-05-10", "check_out": "2027-05-17", "guests": 2},
        ),
        Operation(
            name="get_calendar",
            title="Availability calendar",
            description=(
                "Day-by-day availability from the month of start (default this month) for months "
                "months (1 to 18): each night free or not, arrival and departure allowed, the "
                "minimum stay and the nightly rate. Then check_availability for the price. Read-only."
            ),
            rest="GET /api/v1/calendar",
            arguments=validation.CalendarQuery,
            location="query",
            result=responses.CalendarResult,
            run=_calendar,
            read_only=True,
            idempotent=True,
            example={"start": "2027-05-01", "months": 2},
        ),
        Operation(
            name="find_stays",
            title="Find stays",
            description=(
                "Up to 10 bookable stays of exactly nights nights arriving between start (default "
                "today) and end (default start + 60 days), cheapest first, with their totals. For "
                "guests flexible on dates. Read-only."
            ),
            rest="GET /api/v1/stays",
            arguments=validation.StaysQuery,
            location="query",
            result=responses.StaysResult,
            run=_find_stays,
            read_only=True,
            idempotent=True,
            example={"nights": 3, "guests": 2, "start": "2027-05-01"},
        ),
        Operation(
            name="get_quote",
            title="Price quote",
            description=(
                "A stay's price line by line: nightly rates, discounts (negative), cleaning fee, city "
                "tax, extras; total = accommodation + discount_amount + cleaning_fee + city_tax + "
                "extras_total. currency converts the shown amounts; the charge is in EUR "
                "(charge_total). Nothing is held. Read-only."
            ),
            rest="POST /api/v1/quote",
            arguments=validation.QuoteRequest,
            location="body",
            result=responses.AgentQuoteResult,
            run=_quote,
            read_only=True,
            idempotent=True,
            example={"check_in": "2027-05-10", "check_out": "2027-05-17", "guests": 4, "currency": "EUR"},
        ),
        Operation(
            name="create_reservation",
            title="Hold the dates",
            description=(
                "Hold a stay: the dates are blocked at once for policies.hold_minutes; the answer is "
                "held, with payment.amount_due and payment.pay_url (or create_checkout_session). Prefer "
                "create_checkout_link (hold and payment link in one step); do not collect guest "
                "details before payment. Reuse idempotency_key when retrying; dates_unavailable when the stay cannot be booked."
            ),
            rest="POST /api/v1/reservations",
            arguments=validation.ReservationCreate,
            location="body",
            result=responses.AgentReservationResult,
            run=_reservation,
            read_only=False,
            idempotent=False,
            idempotency_scope="reservations",
            example={**STAY_EXAMPLE, "agent_name": "example-agent"},
        ),
        Operation(
            name="create_checkout_link",
            title="Hold the dates and get a payment link (recommended)",
            description=(
                "The recommended way to book: holds the dates and opens a checkout in one step. Give "
                "checkout_url to the guest: the payment page collects their name, email and phone, "
                "so do not ask first. Confirmed only when the payment succeeds, before expires_at "
                "(follow it with get_reservation). Reuse idempotency_key when retrying (without it a "
                "retry finds your own hold); dates_unavailable when the stay cannot be booked."
            ),
            rest="POST /api/v1/payments/checkout-link",
            arguments=validation.CheckoutLinkCreate,
            location="body",
            result=payment_schemas.CheckoutResult,
            run=_checkout_link,
            read_only=False,
            idempotent=False,
            idempotency_scope="checkout-link",
            open_world=True,  # it creates a session at the payment provider
            example={**STAY_EXAMPLE, "agent_name": "example-agent"},
        ),
        Operation(
            name="create_checkout_session",
            title="Payment link for a hold you have",
            description=(
                "Opens (or reopens) the checkout of a held reservation, e.g. one made with "
                "create_reservation: give checkout_url to the guest. Fails with "
                "reservation_not_payable once the hold is paid, released or lapsed."
            ),
            rest="POST /api/v1/payments/checkout-session",
            arguments=validation.CheckoutSessionCreate,
            location="body",
            result=payment_schemas.CheckoutResult,
            run=_checkout_session,
            read_only=False,
            idempotent=False,
            idempotency_scope="checkout-session",
            open_world=True,  # it creates a session at the payment provider
            example={"reservation_id": "res_…"},
        ),
        Operation(
            name="get_reservation",
            title="Reservation status",
            description=(
                "A reservation by its id (res_…): status (held, confirmed, expired or cancelled), "
                "dates, guests, price breakdown, payment status and, while held, hold_expires_at. "
                "The guest's email and phone are masked: the id is the only credential. Read-only."
            ),
            rest="GET /api/v1/reservations/{reservation_id}",
            arguments=validation.ReservationPath,
            location="path",
            result=responses.AgentReservationResult,
            run=_reservation_status,
            read_only=True,
            idempotent=True,
            example={"reservation_id": "res_…"},
        ),
        Operation(
            name="release_hold",
            title="Release an unpaid hold",
            description=(
                "Let go of a hold you will not pay: it is cancelled at once, its checkout closed and "
                "the dates freed. Anything but a live unpaid hold fails with not_releasable."
            ),
            rest="DELETE /api/v1/reservations/{reservation_id}",
            arguments=validation.ReservationPath,
            location="path",
            result=responses.AgentReservationResult,
            run=_release_hold,
            read_only=False,
            idempotent=False,
            destructive=True,
            open_world=True,  # it closes the session at the payment provider
            example={"reservation_id": "res_…"},
        ),
        Operation(
            name="get_booking",
            title="A paid stay, by the guest's manage token",
            description=(
                "A confirmed stay by the manage token from the guest's confirmation email: the "
                "reservation, its cancellation policy and what the guest may do now (manage: "
                "can_cancel, refund_if_cancelled_now, can_change_dates, balance owed). Read-only."
            ),
            rest="GET /api/v1/bookings/{manage_token}",
            arguments=validation.BookingPath,
            location="path",
            result=responses.GuestBookingResult,
            run=_booking,
            read_only=True,
            idempotent=True,
            example={"manage_token": "k3Jd8sQ2vX9bL0pR7tW4yZ1aC6eF5gH8iJ2kL3mN4oP"},
        ),
        Operation(
            name="cancel_booking",
            title="Cancel a paid stay",
            description=(
                "Cancel the stay by the policy the guest accepted. confirm=false answers the refund "
                "and changes nothing: show it to the guest first; confirm=true cancels and refunds."
            ),
            rest="POST /api/v1/bookings/{manage_token}/cancel",
            arguments=validation.BookingCancelArguments,
            location="body",
            result=responses.CancelBookingResult,
            run=_cancel_booking,
            read_only=False,
            idempotent=True,  # a second cancel changes nothing and refunds nothing
            destructive=True,
            open_world=True,  # the refund is made at the payment provider
            example={"manage_token": "k3Jd8sQ2vX9bL0pR7tW4yZ1aC6eF5gH8iJ2kL3mN4oP", "confirm": False},
        ),
        Operation(
            name="change_booking_dates",
            title="Move a paid stay to other dates",
            description=(
                "confirm=false: the new price and what it means (refund of the difference, or a "
                "balance owed and when it is charged), nothing changed; confirm=true: the change. "
                "Only while cancelling would refund everything (get_booking: can_change_dates)."
            ),
            rest="POST /api/v1/bookings/{manage_token}/change-dates",
            arguments=validation.BookingChangeDatesArguments,
            location="body",
            result=responses.ChangeBookingDatesResult,
            run=_change_booking_dates,
            read_only=False,
            idempotent=False,
            open_world=True,  # a cheaper stay is refunded at the payment provider
            example={"manage_token": "k3Jd8sQ2vX9bL0pR7tW4yZ1aC6eF5gH8iJ2kL3mN4oP", "check_in": "2027-05-17", "check_out": "2027-05-20", "confirm": False},
        ),
    ]
}
