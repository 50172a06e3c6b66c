"""The payments app's part in emails: the receipt attached to the email that reports its payment,
the owner's notice of a payment refunded because it could not become a stay, the guest's email of
each refund staff make, and the refunds made before a cancellation (the cancellation's emails tell
them apart from its own refund)."""

from decimal import Decimal

from django.conf import settings
from django.db import transaction
from django.db.models import Q, Sum
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _

from booking.catalog.breakdown_words import email_money
from booking.formatting import site_path
from booking.outbox import notifications as outbox
from booking.outbox.models import OutboundEmail
from booking.outbox.notifications import email_address, header_safe, queue_notice
from booking.payments.models import ProviderRefund
from booking.payments.money_lines import still_paid
from booking.payments.services.receipts import attach_receipts
from booking.reservations import emails as stay_emails
from booking.reservations.emails import admin_url, test_payment_notice
from booking.reservations.models import Reservation
from booking.reservations.services.owner_alerts import in_owner_language


def queue_refunded_payment_notice(reservation_id: str, note: str) -> OutboundEmail | None:
    """Owe the owner a notice that a payment was refunded because it could not become a stay (nights
    taken, wrong amount or currency, a second payment): the guest may get in touch, and staff should.
    Call after recording the refund, in its transaction: the notice shows the amounts as recorded."""
    reservation = Reservation.objects.select_related("property").get(pk=reservation_id)
    context = {"reservation": reservation, "property": reservation.property, "note": note, "admin_url": admin_url(reservation)}
    prefix = "[TEST] " if reservation.payment_provider == "sandbox" else ""
    with in_owner_language():
        return queue_notice(
            kind=OutboundEmail.Kind.REFUNDED_PAYMENT,
            reservation=reservation,
            subject=f"{prefix}Payment refunded, needs attention: {reservation.reference}",
            body=render_to_string("emails/owner_refunded_payment.txt", context),
            to=settings.OWNER_EMAIL or reservation.property.contact_email,
        )


def register() -> None:
    outbox.register_attachment(attach_receipts)
    stay_emails.register_context(refund_context)


def refunds_before_cancellation(reservation: Reservation) -> Decimal:
    """What was refunded before the stay was cancelled (staff refunds asked before the cancel): the
    cancellation's own refund is the rest of `amount_refunded`."""
    if reservation.cancelled_at is None:
        return reservation.amount_refunded
    earlier = ProviderRefund.objects.filter(
        reservation_id=reservation.pk, status=ProviderRefund.Status.SUCCEEDED, requested_at__lt=reservation.cancelled_at
    ).aggregate(total=Sum("amount"))["total"]
    return min(earlier or Decimal("0.00"), reservation.amount_refunded)


def refund_context(reservation: Reservation) -> dict:
    """The stay emails' words about refunds made before a cancellation (reservations.emails reads it)."""
    earlier = refunds_before_cancellation(reservation) if reservation.cancelled_at else Decimal("0.00")
    return {"refunded_earlier": earlier, "refunded_by_cancellation": max(Decimal("0.00"), reservation.amount_refunded - earlier)}


def queue_refund_made(locked: Reservation, amount: Decimal, reason: str = "") -> OutboundEmail | None:
    """Owe the guest an email about one refund (staff's, from the back office): its amount and what
    stays paid. Call under the reservation's lock, once the refund is recorded."""
    to = email_address(locked.guest_email)
    if not to:
        return None
    prop = locked.property
    with translation.override(locked.language or "en"):
        context = {
            "reservation": locked,
            "property": prop,
            "amount": amount,
            "reason": reason,
            "still_paid": still_paid(locked),
            "refunded_total": locked.amount_refunded,
            "manage_url": f"{settings.BASE_URL}{site_path('/manage/' + locked.manage_token)}" if locked.manage_token else "",
            "test_payment": locked.payment_provider == "sandbox",
            "test_notice": test_payment_notice(),
        }
        prefix = "[TEST] " if context["test_payment"] else ""
        subject = prefix + _("A refund of %(amount)s for your stay at %(name)s") % {"amount": email_money(amount, locked.currency), "name": prop.name}
        body = render_to_string("emails/guest_refund_made.txt", context)
    row = OutboundEmail.objects.create(
        reservation=locked,
        kind=OutboundEmail.Kind.REFUND_MADE,
        recipient=OutboundEmail.Recipient.GUEST,
        subject=header_safe(subject)[:300],
        body=body,
        to_address=to,
        reply_to=email_address(prop.contact_email) or "",
    )
    transaction.on_commit(outbox.deliver_soon)
    return row


def email_when_whole(locked: Reservation, request: ProviderRefund) -> None:
    """Under the lock: once every part of a staff refund is recorded, the guest is emailed its
    amount and what stays paid (one email per refund, however many payments it was spread over)."""
    base = request.idempotency_key.split("-part")[0]
    parts = ProviderRefund.objects.filter(reservation_id=locked.pk, kind=ProviderRefund.Kind.STAFF).filter(
        Q(idempotency_key=base) | Q(idempotency_key__startswith=f"{base}-part")
    )
    if parts.filter(status=ProviderRefund.Status.REQUESTED).exists():
        return
    amount = parts.filter(status=ProviderRefund.Status.SUCCEEDED).aggregate(total=Sum("amount"))["total"] or Decimal("0.00")
    if amount > 0:
        queue_refund_made(locked, amount, request.reason)
