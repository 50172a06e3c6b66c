"""Arrival instructions: shown on the manage page and emailed only once check-in is complete and
arrival is at most `arrival_info_days` away (until check-out). They remind the guests that their
identity is checked in person at arrival, as Italian law requires. The emergency information (the
short-let rules, docs/italy.md) is shown from the completed check-in until check-out."""

from datetime import date, timedelta

from django.utils import timezone

from booking.italy.checkin import check_in_for, check_in_open
from booking.italy.models import CheckIn, ItalySettings
from booking.reservations.models import Reservation


def instructions_due(reservation: Reservation, check_in: CheckIn | None, settings: ItalySettings, today: date) -> bool:
    return (
        reservation.status == Reservation.Status.CONFIRMED
        and check_in is not None
        and check_in.is_complete
        and reservation.check_in - timedelta(days=settings.arrival_info_days) <= today < reservation.check_out
    )


def paragraphs(text: str) -> list[str]:
    return [p.strip() for p in (text or "").split("\n\n") if p.strip()]


def manage_page_context(reservation: Reservation, today: date | None = None) -> dict:
    """What the manage page shows about check-in and arrival."""
    today = today or timezone.localdate()
    check_in = check_in_for(reservation)
    settings = ItalySettings.read(reservation.property)
    due = instructions_due(reservation, check_in, settings, today)
    return {
        "check_in_open": check_in_open(reservation, today),
        "check_in_complete": bool(check_in and check_in.is_complete),
        "arrival_info_days": settings.arrival_info_days,
        "arrival_instructions": paragraphs(settings.arrival_instructions) if due else [],
        "arrival_instructions_due": due,
        # Emergency procedures, the 24-hour contact, waste sorting, conduct: once checked in.
        "emergency_info": paragraphs(settings.emergency_info) if emergency_info_shown(reservation, check_in, today) else [],
    }


def emergency_info_shown(reservation: Reservation, check_in: CheckIn | None, today: date) -> bool:
    """From the completed online check-in until check-out, for a confirmed stay."""
    return reservation.status == Reservation.Status.CONFIRMED and check_in is not None and check_in.is_complete and today <= reservation.check_out
