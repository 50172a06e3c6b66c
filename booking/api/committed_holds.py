"""What the interfaces share around the write operations: REST (booking/api/views.py,
booking/api/payments.py), MCP and A2A (discovery/operations.py) turn the same validated input into
the same service call, and an idempotent retry gets the same answer whichever interface made the
hold.
"""

from collections.abc import Mapping
from typing import Any

from django.utils import timezone

from booking.api.payment_presenters import checkout_json
from booking.api.presenters import reservation_json
from booking.callers import Caller
from booking.errors import BookingError
from booking.formatting import language_of_site_url
from booking.payments.services import checkouts as payments
from booking.reservations.models import Reservation
from booking.reservations.services.holds import GuestDetails
from booking.reservations.services.idempotency import recover_with
from booking.reservations.services.reservations import release_hold_after_failure


def _stay_arguments(data: Mapping[str, Any], caller: Caller) -> dict[str, Any]:
    """What every way of holding a stay takes: the stay, the party, the offers and who asks."""
    return {
        "check_in": data["check_in"],
        "check_out": data["check_out"],
        "guests": data["guests"],
        "children_ages": data.get("children_ages"),
        "promo_code": data.get("promo_code"),
        "extras": data.get("extras"),
        "special_requests": data.get("special_requests"),
        "agent_name": data.get("agent_name"),
        "caller": caller,
    }


def hold_arguments(data: Mapping[str, Any], caller: Caller) -> dict[str, Any]:
    """hold_stay()'s arguments from a validated validation.ReservationCreate."""
    return {**_stay_arguments(data, caller), "guest": GuestDetails.from_input(data.get("guest"))}


def checkout_link_arguments(data: Mapping[str, Any], caller: Caller) -> dict[str, Any]:
    """create_checkout_link()'s arguments from a validated validation.CheckoutLinkCreate. Booked
    from /it/book, the widget returns the guest to /it/thank-you: the stay's emails are then in
    Italian. Any other return address (an agent's) leaves them in English."""
    success_url = data.get("success_url")
    return {**_stay_arguments(data, caller), "success_url": success_url, "cancel_url": data.get("cancel_url"), "language": language_of_site_url(success_url)}


@recover_with("reservations")
def answer_of_a_committed_hold(reservation: Reservation, payload: object) -> tuple[int, dict[str, Any]]:
    """What creating a reservation answered (or would have) for a hold it made: POST
    /api/v1/reservations and the agents' create_reservation share the scope."""
    return 201, reservation_json(reservation, mask=False)


@recover_with("checkout-link")
def checkout_of_a_committed_hold(reservation: Reservation, payload: object) -> tuple[int, dict[str, Any]] | None:
    """What POST /api/v1/payments/checkout-link answers for a hold its first request made before it
    died: the hold's checkout (opened now if need be), or nothing if the hold is gone."""
    if reservation.status != Reservation.Status.HELD or (reservation.hold_expires_at and reservation.hold_expires_at <= timezone.now()):
        return None
    data = payload if isinstance(payload, dict) else {}
    try:
        reservation = payments.open_checkout(
            reservation.pk, success_url=data.get("success_url"), cancel_url=data.get("cancel_url"), actor="idempotency recovery"
        )
    except BaseException as error:  # as create_checkout_link does: a failed checkout releases its hold
        reason = error.detail if isinstance(error, BookingError) else "the checkout could not be opened"
        release_hold_after_failure(reservation.pk, actor="idempotency recovery", reason=reason)
        raise
    return 200, checkout_json(reservation)
