"""Celery tasks: thin adapters over booking services."""

from celery import shared_task

from booking.outbox import notifications
from booking.payments.services import balance_charges, cancellation, security_deposits
from booking.payments.services import checkouts as payment_services
from booking.reservations.services import hold_reminders, idempotency, reservations, reviews, stays_mail


@shared_task(name="booking.tasks.expire_lapsed_holds")
def expire_lapsed_holds() -> int:
    """Housekeeping: mark holds past their expiry as expired (they already stopped blocking)."""
    return reservations.expire_lapsed_holds(actor="expiry job")


@shared_task(name="booking.tasks.send_hold_reminders")
def send_hold_reminders() -> int:
    """Email once the guests who asked for it a link back to a hold they have not paid (docs/own-holds.md)."""
    return hold_reminders.queue_hold_reminders()


@shared_task(name="booking.tasks.reconcile_open_checkouts")
def reconcile_open_checkouts() -> int:
    """Ask the payment provider about open checkouts and apply what it says (lost webhooks)."""
    return payment_services.reconcile_open_checkouts()


@shared_task(name="booking.tasks.deliver_due_emails")
def deliver_due_emails() -> int:
    """Send the queued emails that are due (queued on commit, and swept every minute by beat)."""
    return notifications.deliver_due_emails()


@shared_task(name="booking.tasks.send_pre_arrival_emails")
def send_pre_arrival_emails() -> int:
    """Queue the arrival email of every confirmed stay that is N days (owner's setting) away."""
    return stays_mail.queue_pre_arrival_emails()


@shared_task(name="booking.tasks.retry_pending_refunds")
def retry_pending_refunds() -> int:
    """Ask the payment provider again for cancellation refunds it failed to make."""
    return cancellation.retry_pending_refunds()


@shared_task(name="booking.tasks.purge_idempotency_records")
def purge_idempotency_records() -> int:
    """Housekeeping: delete Idempotency-Key records past their 24 h replay window."""
    return idempotency.purge_expired_records()


@shared_task(name="booking.tasks.charge_due_balances")
def charge_due_balances() -> dict[str, int]:
    """Charge the balances due today to the saved cards (each stay at most once a day)."""
    return balance_charges.charge_due_balances()


@shared_task(name="booking.tasks.place_security_deposits")
def place_security_deposits() -> dict[str, int]:
    """Hold the security deposits due today on the saved cards, and renew holds about to lapse."""
    return security_deposits.place_security_deposits()


@shared_task(name="booking.tasks.release_security_deposits")
def release_security_deposits() -> dict[str, int]:
    """Release the holds of stays that ended (or were cancelled)."""
    return security_deposits.release_security_deposits()


@shared_task(name="booking.tasks.send_review_requests")
def send_review_requests() -> int:
    """Ask the guests who checked out yesterday for a review (once each)."""
    return reviews.queue_review_requests()
