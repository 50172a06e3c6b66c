"""Celery tasks: thin adapters over booking services."""

from celery import shared_task

from booking.services import reservations


@shared_task(name="booking.tasks.expire_lapsed_holds")
def expire_lapsed_holds() -> int:
    """Housekeeping: mark holds past their expiry as expired (they already stopped blocking)."""
    return reservations.expire_lapsed_holds(actor="expiry job")


@shared_task(name="booking.tasks.reconcile_open_checkouts")
def reconcile_open_checkouts() -> int:
    """Ask the payment provider about open checkouts and apply what it says (lost webhooks)."""
    from booking.payments.services import reconcile_open_checkouts as reconcile

    return reconcile()


@shared_task(name="booking.tasks.purge_idempotency_records")
def purge_idempotency_records() -> int:
    """Housekeeping: delete Idempotency-Key records past their 24 h replay window."""
    from booking.services.idempotency import purge_expired_records

    return purge_expired_records()
