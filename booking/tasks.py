"""Celery tasks: thin adapters over booking services."""

from celery import shared_task

from booking.services import reservations


@shared_task(name="booking.tasks.expire_lapsed_holds")
def expire_lapsed_holds() -> int:
    """Housekeeping: mark holds past their expiry as expired (they already stopped blocking)."""
    return reservations.expire_lapsed_holds(actor="expiry job")
