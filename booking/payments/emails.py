"""The payments app's part in emails: the receipt attached to the email that reports its payment,
and the owner's notice of a payment refunded because it could not become a stay."""

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation

from booking.outbox import notifications as outbox
from booking.outbox.models import OutboundEmail
from booking.outbox.notifications import queue_notice
from booking.payments.services.receipts import attach_receipts
from booking.reservations.emails import admin_url
from booking.reservations.models import Reservation


def queue_refunded_payment_notice(reservation_id: str, note: str) -> OutboundEmail | None:
    """Owe the owner a notice that a payment was refunded because it could not become a stay (nights
    taken, wrong amount or currency, a second payment): the guest may get in touch, and staff should.
    Call after recording the refund, in its transaction: the notice shows the amounts as recorded."""
    reservation = Reservation.objects.select_related("property").get(pk=reservation_id)
    context = {"reservation": reservation, "property": reservation.property, "note": note, "admin_url": admin_url(reservation)}
    prefix = "[TEST] " if reservation.payment_provider == "sandbox" else ""
    with translation.override("en"):
        return queue_notice(
            kind=OutboundEmail.Kind.REFUNDED_PAYMENT,
            reservation=reservation,
            subject=f"{prefix}Payment refunded, needs attention: {reservation.reference}",
            body=render_to_string("emails/owner_refunded_payment.txt", context),
            to=settings.OWNER_EMAIL or reservation.property.contact_email,
        )


def register() -> None:
    outbox.register_attachment(attach_receipts)
