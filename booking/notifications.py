"""Emails sent when a reservation is confirmed: the guest's confirmation (HTML and text) and a
note to the owner. Called after the confirming transaction commits (see
booking/services/reservations.py), so a rolled-back confirmation never sends anything.

Everything placed in a header (subject, addresses, names) is stripped of CR/LF first: guest names
and emails arrive from the payment provider and the property's name from the admin.
"""

import logging

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.mail import EmailMultiAlternatives, get_connection
from django.core.validators import validate_email
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone

from booking import pricing
from booking.models import OutboundEmail, Reservation
from booking.selectors import cancellation_tiers
from booking.services.audit import record_event

logger = logging.getLogger(__name__)
TEST_PAYMENT_NOTICE = "TEST PAYMENT — no money moves"


def header_safe(value: str) -> str:
    """One line: CR, LF and other control spacing collapse to single spaces."""
    return " ".join(str(value or "").split())


def email_address(value: str) -> str | None:
    address = header_safe(value)
    if not address:
        return None
    try:
        validate_email(address)
    except ValidationError:
        logger.warning("not emailing an invalid address %r", address[:80])
        return None
    return address


def queue_emails(reservation: Reservation, kind: str) -> list[OutboundEmail]:
    """Owe the guest (when we know their address) and the owner an email of this kind about the
    reservation. Call inside the transaction that makes the change it reports: the rows commit
    with it, and a Celery task delivers them after commit (retrying until the mail server answers).
    Queueing the same kind twice is harmless: one row per kind and recipient."""
    rows = []
    recipients = []
    if email_address(reservation.guest_email):
        recipients.append(OutboundEmail.Recipient.GUEST)
    if email_address(settings.OWNER_EMAIL or reservation.property.contact_email):
        recipients.append(OutboundEmail.Recipient.OWNER)
    for recipient in recipients:
        row, _ = OutboundEmail.objects.get_or_create(reservation=reservation, kind=kind, recipient=recipient)
        rows.append(row)
    if rows:
        transaction.on_commit(deliver_soon)
    return rows


def deliver_soon() -> None:
    """Ask a worker to deliver what is due now; if the broker is down the beat job's sweep does."""
    try:
        from booking.tasks import deliver_due_emails

        deliver_due_emails.delay()
    except Exception:
        logger.warning("could not queue email delivery; the periodic sweep will send it", exc_info=True)


def send_confirmation_emails(reservation_id: str) -> int:
    """Email the guest (when we know their address) and the owner; return how many were sent."""
    reservation = Reservation.objects.select_related("property").filter(pk=reservation_id).first()
    if reservation is None or reservation.status != Reservation.Status.CONFIRMED:
        return 0
    prop = reservation.property
    context = confirmation_context(reservation)
    messages, recipients = [], []
    guest_address = email_address(reservation.guest_email)
    if guest_address:
        message = EmailMultiAlternatives(
            subject=header_safe(f"{context['test_prefix']}Your stay at {prop.name} is confirmed: {context['dates']}"),
            body=render_to_string("emails/guest_confirmation.txt", context),
            from_email=settings.DEFAULT_FROM_EMAIL,
            to=[guest_address],
            reply_to=[a for a in [email_address(prop.contact_email)] if a],
        )
        message.attach_alternative(render_to_string("emails/guest_confirmation.html", context), "text/html")
        messages.append(message)
        recipients.append("guest")
    owner_address = email_address(settings.OWNER_EMAIL or prop.contact_email)
    if owner_address:
        messages.append(
            EmailMultiAlternatives(
                subject=header_safe(f"{context['test_prefix']}New booking: {context['guest_label']}, {context['dates']}"),
                body=render_to_string("emails/owner_notification.txt", context),
                from_email=settings.DEFAULT_FROM_EMAIL,
                to=[owner_address],
                reply_to=[guest_address] if guest_address else [],
            )
        )
        recipients.append("owner")
    if not messages:
        return 0
    sent = get_connection().send_messages(messages) or 0
    record_event(reservation, action="email", actor="notifications", from_status=reservation.status,
                 note="confirmation emailed to " + " and ".join(recipients))
    return sent


def notify_owner_of_refunded_payment(reservation_id: str, note: str) -> int:
    """Tell the owner a payment was refunded because it could not become a stay (nights taken,
    wrong amount or currency, a second payment): the guest may get in touch, and staff should."""
    reservation = Reservation.objects.select_related("property").filter(pk=reservation_id).first()
    owner_address = email_address(settings.OWNER_EMAIL or (reservation.property.contact_email if reservation else ""))
    if reservation is None or not owner_address:
        return 0
    from django.urls import reverse

    context = {
        "reservation": reservation, "property": reservation.property, "note": note,
        "admin_url": settings.BASE_URL + reverse("admin:booking_reservation_change", args=[reservation.pk]),
    }
    prefix = "[TEST] " if reservation.payment_provider == "sandbox" else ""
    message = EmailMultiAlternatives(
        subject=header_safe(f"{prefix}Payment refunded, needs attention: {reservation.pk}"),
        body=render_to_string("emails/owner_refunded_payment.txt", context),
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[owner_address],
    )
    try:
        sent = get_connection().send_messages([message]) or 0
    except Exception:  # the refund is recorded and flagged in the admin; the email is a courtesy
        logger.exception("could not email the owner about the refunded payment of %s", reservation_id)
        return 0
    record_event(reservation, action="email", actor="notifications", from_status=reservation.status, note="owner told of the refunded payment")
    return sent


def confirmation_context(reservation: Reservation) -> dict:
    prop = reservation.property
    breakdown = reservation.price_breakdown or {}
    test = reservation.payment_provider == "sandbox"
    address_lines = [line for line in [prop.street_address, " ".join(p for p in [prop.postal_code, prop.city] if p), prop.region] if line]
    return {
        "reservation": reservation,
        "property": prop,
        "breakdown": breakdown,
        "dates": f"{reservation.check_in:%d %b %Y} to {reservation.check_out:%d %b %Y}",
        "guest_label": header_safe(reservation.guest_name) or reservation.guest_email or reservation.pk,
        "address_lines": address_lines,
        "check_in_from": prop.check_in_from.strftime("%H:%M"),
        "check_in_until": prop.check_in_until.strftime("%H:%M"),
        "check_out_until": prop.check_out_until.strftime("%H:%M"),
        "reservation_url": f"{settings.BASE_URL}/thank-you?reservation_id={reservation.pk}",
        "confirmed_at": timezone.localtime(reservation.confirmed_at) if reservation.confirmed_at else None,
        "cancellation_policy": pricing.policy_text(cancellation_tiers(prop)),
        "cancellation_lines": pricing.policy_lines(cancellation_tiers(prop)),
        "manage_url": f"{settings.BASE_URL}/manage/{reservation.manage_token}" if reservation.manage_token else "",
        "test_payment": test,
        "test_notice": TEST_PAYMENT_NOTICE,
        "test_prefix": "[TEST] " if test else "",
    }
