"""The JSON answer of checkout-link and checkout-session (REST, MCP and A2A share it)."""

from booking.api.presenters import number, payment_json
from booking.catalog.breakdown_words import english_breakdown
from booking.payments.services.balances import due_at_checkout
from booking.reservations.models import Reservation


def checkout_json(reservation: Reservation) -> dict:
    """docs/contract.md, "Payments": reservation_id, checkout_url, session_id, expires_at, amount, currency; plus the
    provider, the reservation's status and the stay it pays for."""
    return {
        "reservation_id": reservation.pk,
        "status": reservation.status,
        "checkout_url": reservation.checkout_url,
        "session_id": reservation.checkout_session_id,
        "expires_at": reservation.checkout_expires_at.isoformat() if reservation.checkout_expires_at else None,
        "hold_expires_at": reservation.hold_expires_at.isoformat() if reservation.hold_expires_at else None,
        "amount": number(due_at_checkout(reservation)),  # what this checkout charges: the deposit, or the total
        "currency": reservation.currency,
        "provider": reservation.payment_provider,
        # The sandbox takes no money: say so wherever its checkout is handed out.
        "test_mode": reservation.payment_provider == "sandbox",
        "check_in": reservation.check_in.isoformat(),
        "check_out": reservation.check_out.isoformat(),
        "nights": reservation.nights,
        "guests": reservation.guests,
        "price_breakdown": english_breakdown(reservation.price_breakdown or {}, reservation.property),
        "payment_schedule": payment_json(reservation, reservation.status)["payment_schedule"],
    }
