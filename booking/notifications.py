"""Every email the service sends: a stay's confirmation (HTML and text, with the stay as a
calendar file), cancellation, refund issued and pre-arrival note, to the guest and a copy to the
owner; and the owner's one-off notices (a payment refunded because it could not become a stay, a
website inquiry), written when queued (`queue_notice`).

They go through an outbox. `queue_emails` writes a row per recipient inside the transaction that
makes the change it reports (so a rolled-back change sends nothing, and a committed one is never
forgotten), then asks a Celery worker to deliver after commit. `deliver_due_emails` (the task, also
swept by beat every minute) sends what is due and, when the mail server fails, keeps the row and
tries again later with a growing pause, for two days before giving up and flagging the stay for
staff. An SMTP outage delays an email; it never loses one and never fails the payment or the cancel.
A confirmation or arrival note still owed when the stay is cancelled is dropped (kept as "gave up",
with the reason), not sent after the cancellation. A worker that dies between sending and marking
the row sent makes it due again after the claim expires: at least once, never lost.

Everything placed in a header (subject, addresses, names) is stripped of CR/LF first: guest names
and emails arrive from the payment provider and the property's name from the admin.
"""

import logging
import re
from datetime import timedelta

from celery import current_app
from django.conf import settings
from django.contrib.admin.utils import quote
from django.core.exceptions import ValidationError
from django.core.mail import EmailMultiAlternatives, get_connection
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import F
from django.dispatch import Signal
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from booking import pricing
from booking.breakdown_words import email_money, read_breakdown
from booking.calendar_file import stay_calendar
from booking.formatting import date_range, format_date, site_path, with_elision
from booking.models import OutboundEmail, Reservation
from booking.selectors import accepted_tiers
from booking.services.audit import flag_for_staff, record_event
from booking.services.receipts import attach_receipts
from booking.smtp_delivery import OutcomeUnknown

logger = logging.getLogger(__name__)


def test_payment_notice() -> str:
    """ "TEST PAYMENT" stays in every language (it is what the sandbox shows); the rest is translated."""
    return "TEST PAYMENT — " + _("no money moves")


def stay_dates(reservation: Reservation) -> str:
    if translation.get_language() in (None, "en"):
        return f"{reservation.check_in:%d %b %Y} to {reservation.check_out:%d %b %Y}"
    return date_range(reservation.check_in, reservation.check_out)


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


def queue_emails(reservation: Reservation, kind: str, *, owner_copy: bool = True, guest_copy: bool = True) -> list[OutboundEmail]:
    """Owe the guest (when we know their address) and the owner an email of this kind about the
    reservation. Call inside the transaction that makes the change it reports: the rows commit
    with it, and a Celery task delivers them after commit (retrying until the mail server answers).
    Queueing the same kind twice is harmless: one row per kind and recipient. `guest_copy` False:
    the owner's only (a platform's booking: the platform confirms it to its guest)."""
    rows = []
    recipients = []
    if guest_copy and email_address(reservation.guest_email):
        recipients.append(OutboundEmail.Recipient.GUEST)
    if owner_copy and email_address(settings.OWNER_EMAIL or reservation.property.contact_email):
        recipients.append(OutboundEmail.Recipient.OWNER)
    for recipient in recipients:
        row, _ = OutboundEmail.objects.get_or_create(reservation=reservation, kind=kind, recipient=recipient)
        rows.append(row)
    if rows:
        transaction.on_commit(deliver_soon)
    return rows


# The Celery task that delivers the outbox (booking/tasks.py), looked up by name: the outbox is
# the core and the task its adapter, so the core does not import the adapter.
DELIVERY_TASK = "booking.tasks.deliver_due_emails"


def deliver_soon() -> None:
    """Ask a worker to deliver what is due now; if the broker is down the beat job's sweep does."""
    try:
        current_app.tasks[DELIVERY_TASK].delay()
    except Exception:
        logger.warning("could not queue email delivery; the periodic sweep will send it", exc_info=True)


def queue_notice(*, kind: str, subject: str, body: str, to: str, reply_to: str = "", reservation: Reservation | None = None) -> OutboundEmail | None:
    """Owe a one-off email written now (a refunded payment, a website inquiry): same outbox, same
    retries as the stay's emails. Call inside the transaction that records what it reports."""
    to_address = email_address(to)
    if not to_address:
        return None
    row = OutboundEmail.objects.create(
        reservation=reservation,
        kind=kind,
        recipient=OutboundEmail.Recipient.OWNER,
        subject=header_safe(subject)[:300],
        body=body,
        to_address=to_address,
        reply_to=email_address(reply_to) or "",
    )
    transaction.on_commit(deliver_soon)
    return row


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
            subject=f"{prefix}Payment refunded, needs attention: {reservation.pk}",
            body=render_to_string("emails/owner_refunded_payment.txt", context),
            to=settings.OWNER_EMAIL or reservation.property.contact_email,
        )


# Sent when an outbox row is delivered (sender=OutboundEmail, row=the row): whoever queued a
# notice can record that it went out without the outbox importing them (pages marks its inquiry).
email_sent = Signal()


def confirmation_context(reservation: Reservation) -> dict:
    prop = reservation.property
    breakdown = reservation.price_breakdown or {}
    test = reservation.payment_provider == "sandbox"
    address_lines = [line for line in [prop.street_address, " ".join(p for p in [prop.postal_code, prop.city] if p), prop.region] if line]
    return {
        "reservation": reservation,
        "property": prop,
        "breakdown": read_breakdown(breakdown, prop, email_money),  # its labels in the guest's language
        "dates": stay_dates(reservation),
        "language": translation.get_language() or "en",
        "guest_label": header_safe(reservation.guest_name) or reservation.guest_email or reservation.pk,
        "address_lines": address_lines,
        "check_in_from": prop.check_in_from.strftime("%H:%M"),
        "check_in_until": prop.check_in_until.strftime("%H:%M"),
        "check_out_until": prop.check_out_until.strftime("%H:%M"),
        "reservation_url": f"{settings.BASE_URL}{site_path('/thank-you')}?reservation_id={reservation.pk}",
        "confirmed_at": timezone.localtime(reservation.confirmed_at) if reservation.confirmed_at else None,
        "cancellation_policy": pricing.policy_text(accepted_tiers(reservation)),
        "cancellation_lines": pricing.policy_lines(accepted_tiers(reservation)),
        "manage_url": f"{settings.BASE_URL}{site_path('/manage/' + reservation.manage_token)}" if reservation.manage_token else "",
        "review_url": f"{settings.BASE_URL}{site_path('/manage/' + reservation.manage_token + '/review')}" if reservation.manage_token else "",
        "admin_url": admin_url(reservation),
        "refunded": reservation.amount_refunded,
        "refund_pending": reservation.refund_pending,
        "pre_arrival_paragraphs": [p.strip() for p in (prop.pre_arrival_message or "").split("\n\n") if p.strip()],
        "test_payment": test,
        "test_notice": test_payment_notice(),
        "test_prefix": "[TEST] " if test else "",
    }


# --- Delivering the outbox ----------------------------------------------------------------------

CLAIM_SECONDS = 120  # a worker that died mid-send leaves the row due again after this
GIVE_UP_AFTER = timedelta(days=2)
Kind = OutboundEmail.Kind


def retry_pause(attempts: int) -> timedelta:
    """1, 2, 4 … minutes after each failure, at most an hour."""
    return timedelta(seconds=min(60 * 2 ** max(attempts - 1, 0), 3600))


def deliver_due_emails(*, now=None, limit: int = 100) -> int:
    """Send the queued emails that are due; return how many were sent. Safe to run in several
    workers at once: each row is claimed by a conditional update before it is sent."""
    now = now or timezone.now()
    due = list(
        OutboundEmail.objects.filter(status=OutboundEmail.Status.PENDING, next_attempt_at__lte=now)
        .order_by("next_attempt_at")
        .values_list("pk", "next_attempt_at")[:limit]
    )
    sent = 0
    for pk, due_at in due:
        claimed = OutboundEmail.objects.filter(pk=pk, status=OutboundEmail.Status.PENDING, next_attempt_at=due_at).update(
            next_attempt_at=now + timedelta(seconds=CLAIM_SECONDS),
            attempts=F("attempts") + 1,
        )
        if claimed:
            sent += _deliver(OutboundEmail.objects.select_related("reservation__property").get(pk=pk), now)
    return sent


# A mail server's refusal often quotes the address (SMTPRecipientsRefused does); last_error is shown
# to staff and kept for as long as the row, so it says what failed without saying to whom.
EMAIL_LIKE = re.compile(r"[^\s<>(){}:,;\[\]]+@[^\s<>(){}:,;\[\]]+")


def failure_note(error: Exception, *addresses: str) -> str:
    """The error in one line without addresses: the known ones first (a quoted local part may hold
    spaces), then anything shaped like one."""
    note = f"{type(error).__name__}: {error}"
    for address in filter(None, addresses):
        note = note.replace(address, "<address>")
    return EMAIL_LIKE.sub("<address>", note)[:300]


def _deliver(row: OutboundEmail, now) -> int:
    reservation = row.reservation
    if reservation is None:
        return _deliver_notice(row, now)
    # A confirmation or arrival note owed to a stay that is no longer confirmed (it was cancelled
    # while the mail server was down) would contradict the cancellation email the guest gets: it
    # is dropped, kept as "gave up" with the reason, and staff are not flagged, since nothing is
    # missing. Cancellation and refund emails always fit: a cancelled stay stays cancelled.
    if row.kind in OutboundEmail.ONLY_WHILE_CONFIRMED and reservation.status != Reservation.Status.CONFIRMED:
        row.status, row.last_error = OutboundEmail.Status.GAVE_UP, f"not sent: the stay is {reservation.status}"
        row.save(update_fields=["status", "last_error"])
        return 0
    # The reminder of an unfinished booking (services/hold_reminders.py) is only for an unpaid hold.
    if row.kind == Kind.HOLD_REMINDER and reservation.status not in (Reservation.Status.HELD, Reservation.Status.EXPIRED):
        row.status, row.last_error = OutboundEmail.Status.GAVE_UP, f"not sent: the stay is {reservation.status}"
        row.save(update_fields=["status", "last_error"])
        return 0
    try:
        message = build_message(row)
        if message is None:  # no address any more (e.g. the owner address was removed)
            row.status, row.last_error = OutboundEmail.Status.GAVE_UP, "not sent: no valid address"
            row.save(update_fields=["status", "last_error"])
            return 0
        get_connection().send_messages([message])
    except OutcomeUnknown as error:
        _mark_unconfirmed(row, error)
        record_event(
            reservation,
            action="email",
            actor="notifications",
            from_status=reservation.status,
            message="email_unconfirmed",
            params={"email": row.kind, "recipient": row.recipient},
        )
        return 1
    except Exception as error:  # SMTP down, refused, timed out: keep it and try again later
        row.last_error = failure_note(
            error,
            row.to_address,
            header_safe(reservation.guest_email),
            header_safe(settings.OWNER_EMAIL or reservation.property.contact_email),
        )
        if now - row.created_at > GIVE_UP_AFTER:
            row.status = OutboundEmail.Status.GAVE_UP
            row.save(update_fields=["status", "last_error"])
            flag_for_staff(
                reservation.pk,
                actor="notifications",
                message="flag_email_gave_up",
                params={"email": row.kind, "recipient": row.recipient, "reason": row.last_error},
            )
        else:
            row.next_attempt_at = now + retry_pause(row.attempts)
            row.save(update_fields=["next_attempt_at", "last_error"])
        logger.warning("email %s (%s to %s) for %s not sent: %s", row.pk, row.kind, row.recipient, reservation.pk, row.last_error)
        return 0
    _mark_sent(row)
    record_event(
        reservation,
        action="email",
        actor="notifications",
        from_status=reservation.status,
        message="email_sent",
        params={"email": row.kind, "recipient": row.recipient},
    )
    return 1


def _mark_sent(row: OutboundEmail) -> None:
    row.status, row.sent_at, row.last_error = OutboundEmail.Status.SENT, timezone.now(), ""
    row.save(update_fields=["status", "sent_at", "last_error"])
    email_sent.send(sender=OutboundEmail, row=row)


def _mark_unconfirmed(row: OutboundEmail, error: Exception) -> None:
    """Sent, as far as anyone can tell: the server has the message and may have delivered it.
    Sending it again could give a second copy (booking/smtp_delivery.py), so it is not resent."""
    row.status, row.sent_at, row.last_error = OutboundEmail.Status.UNCONFIRMED, timezone.now(), str(error)[:300]
    row.save(update_fields=["status", "sent_at", "last_error"])
    logger.warning("email %s (%s to %s) handed over but not confirmed; not resent: %s", row.pk, row.kind, row.recipient, error)


def _deliver_notice(row: OutboundEmail, now) -> int:
    """A notice about no stay (a website inquiry): the same retries; after two days it is given up
    and logged as an error (the inquiry itself stays in the admin, marked as not emailed)."""
    try:
        get_connection().send_messages([build_message(row)])
    except OutcomeUnknown as error:
        _mark_unconfirmed(row, error)
        return 1
    except Exception as error:
        row.last_error = failure_note(error, row.to_address, row.reply_to)
        if now - row.created_at > GIVE_UP_AFTER:
            row.status = OutboundEmail.Status.GAVE_UP
            row.save(update_fields=["status", "last_error"])
            logger.error("email %s (%s) given up after two days: %s", row.pk, row.kind, row.last_error)
        else:
            row.next_attempt_at = now + retry_pause(row.attempts)
            row.save(update_fields=["next_attempt_at", "last_error"])
            logger.warning("email %s (%s) not sent: %s", row.pk, row.kind, row.last_error)
        return 0
    _mark_sent(row)
    return 1


def build_message(row: OutboundEmail) -> EmailMultiAlternatives | None:
    return attach_receipts(row, _message_for(row))  # with the receipts of the payment the email reports


def _message_for(row: OutboundEmail) -> EmailMultiAlternatives | None:
    """The owner's copies are in English; the guest's emails in the language they booked in. Every
    attempt at one row carries the same Message-ID, so mail clients show a resent copy as one."""
    if row.kind not in OutboundEmail.STAY_KINDS:  # written when queued
        # In the reader's language: the guest's for a guest, the back office's for the owner. Italian
        # elides the article before the 8th and the 11th ("dall’8"), whichever template wrote the date.
        for_guest = row.recipient == OutboundEmail.Recipient.GUEST and row.reservation is not None
        language = (row.reservation.language if for_guest else settings.LANGUAGE_CODE) or "en"
        notice = EmailMultiAlternatives(
            subject=with_elision(row.subject, language),
            body=with_elision(row.body, language),
            from_email=settings.DEFAULT_FROM_EMAIL,
            to=[row.to_address],
            reply_to=[row.reply_to] if row.reply_to else [],
        )
        if row.kind == OutboundEmail.Kind.DATES_CHANGED and row.reservation is not None and row.recipient == OutboundEmail.Recipient.GUEST:
            with translation.override(row.reservation.language or "en"):  # the stay's new dates, same UID, higher SEQUENCE
                notice.attach("stay.ics", stay_calendar(row.reservation), "text/calendar; method=PUBLISH; charset=utf-8")
        message: EmailMultiAlternatives | None = notice
    else:
        with translation.override("en" if row.recipient == OutboundEmail.Recipient.OWNER else row.reservation.language or "en"):
            message = _build_message(row)
    if message is not None:
        message.extra_headers["Message-ID"] = message_id(row)
    return message


def message_id(row: OutboundEmail) -> str:
    domain = settings.DEFAULT_FROM_EMAIL.rpartition("@")[2] or "localhost"
    return f"<outbox-{row.pk}.{int(row.created_at.timestamp())}@{header_safe(domain)}>"


def _build_message(row: OutboundEmail) -> EmailMultiAlternatives | None:
    reservation = row.reservation
    prop = reservation.property
    context = confirmation_context(reservation)
    guest_address = email_address(reservation.guest_email)
    owner_address = email_address(settings.OWNER_EMAIL or prop.contact_email)
    prefix = context["test_prefix"]
    if row.recipient == OutboundEmail.Recipient.OWNER:
        if not owner_address:
            return None
        subjects = {
            Kind.CONFIRMATION: f"New booking: {context['guest_label']}, {context['dates']}",
            Kind.CANCELLATION: f"Cancelled: {context['guest_label']}, {context['dates']}",
            Kind.REFUND: f"Refund issued: {context['guest_label']}, {context['dates']}",
            Kind.PRE_ARRIVAL: f"Arriving soon: {context['guest_label']}, {context['dates']}",
        }
        template = "emails/owner_notification.txt" if row.kind == Kind.CONFIRMATION else "emails/owner_copy.txt"
        return EmailMultiAlternatives(
            subject=header_safe(prefix + subjects[row.kind]),
            body=render_to_string(template, {**context, "kind": row.get_kind_display()}),
            from_email=settings.DEFAULT_FROM_EMAIL,
            to=[owner_address],
            reply_to=[guest_address] if guest_address else [],
        )
    if not guest_address:
        return None
    names = {"name": prop.name, "dates": context["dates"]}
    arrival = f"{reservation.check_in:%d %b %Y}" if context["language"] == "en" else format_date(reservation.check_in, "j M Y")
    subjects = {
        Kind.CONFIRMATION: _("Your stay at %(name)s is confirmed: %(dates)s") % names,
        Kind.CANCELLATION: _("Your stay at %(name)s is cancelled: %(dates)s") % names,
        Kind.REFUND: _("Your refund for %(name)s has been issued") % names,
        Kind.PRE_ARRIVAL: with_elision(_("See you soon at %(name)s: arrival on %(arrival)s") % {"name": prop.name, "arrival": arrival}),
        Kind.REVIEW_REQUEST: _("How was your stay at %(name)s?") % names,
    }
    message = EmailMultiAlternatives(
        subject=header_safe(prefix + subjects[row.kind]),
        body=render_to_string(f"emails/guest_{row.kind}.txt", context),
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[guest_address],
        reply_to=[a for a in [email_address(prop.contact_email)] if a],
    )
    if row.kind == Kind.CONFIRMATION:
        message.attach_alternative(render_to_string("emails/guest_confirmation.html", context), "text/html")
        message.attach("stay.ics", stay_calendar(reservation), "text/calendar; method=PUBLISH; charset=utf-8")
    return message


def admin_url(reservation: Reservation) -> str:
    return settings.BASE_URL + reverse("admin:booking_reservation_change", args=[quote(reservation.pk)])
