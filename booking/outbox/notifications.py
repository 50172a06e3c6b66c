"""The outbox: every email the service sends goes through it. It delivers; it does not write. An
email's content is built by the app that owns the event: a stay's emails by
booking/reservations/emails.py (registered by kind with `register_builder`), one-off notices
(a refunded payment, a website inquiry, a balance reminder) when they are queued (`queue_notice`),
and attachments by their owners (`register_attachment`: receipts, booking/payments/emails.py).

An email goes through the outbox. `queue_emails` writes a row per recipient inside the transaction that
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
from collections.abc import Callable
from datetime import timedelta

from celery import current_app
from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.mail import EmailMultiAlternatives, get_connection
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import F
from django.dispatch import Signal
from django.utils import timezone

from booking.formatting import with_elision
from booking.outbox.models import OutboundEmail
from booking.outbox.smtp_delivery import OutcomeUnknown

logger = logging.getLogger(__name__)


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


def queue_emails(reservation, kind: str, *, owner_copy: bool = True, guest_copy: bool = True) -> list[OutboundEmail]:
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


def queue_notice(*, kind: str, subject: str, body: str, to: str, reply_to: str = "", reservation=None) -> OutboundEmail | None:
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


# Sent when an outbox row is delivered (sender=OutboundEmail, row=the row): whoever queued a
# notice can record that it went out without the outbox importing them (pages marks its inquiry).
email_sent = Signal()

# Sent after each attempt at a stay's email (sender=OutboundEmail, row=the row, outcome=SENT,
# UNCONFIRMED or GAVE_UP): the reservations app writes it into the stay's history and flags staff
# when one is given up, without the outbox importing it.
stay_email_outcome = Signal()
SENT, UNCONFIRMED, GAVE_UP = "sent", "unconfirmed", "gave_up"

Builder = Callable[[OutboundEmail], EmailMultiAlternatives | None]
_builders: dict[str, Builder] = {}
_attachments: list[Callable[[OutboundEmail, EmailMultiAlternatives | None], EmailMultiAlternatives | None]] = []
_skip_rules: list[Callable[[OutboundEmail], str | None]] = []


def register_builder(kinds, builder: Builder) -> None:
    """`builder(row)` writes the message of every row of these kinds (None: nobody to send it to).
    Registered by the app that owns the event, in its AppConfig.ready."""
    for kind in kinds:
        _builders[kind] = builder


def register_attachment(attach) -> None:
    """`attach(row, message)` returns the message with what it adds (a receipt), or as it was."""
    if attach not in _attachments:
        _attachments.append(attach)


def register_skip_rule(rule) -> None:
    """`rule(row)` returns why the row must not be sent any more ("not sent: the stay is
    cancelled"), or None."""
    if rule not in _skip_rules:
        _skip_rules.append(rule)


# --- Delivering the outbox ----------------------------------------------------------------------

CLAIM_SECONDS = 120  # a worker that died mid-send leaves the row due again after this
GIVE_UP_AFTER = timedelta(days=2)


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
    # An email that no longer fits its stay (a confirmation owed to a stay cancelled while the mail
    # server was down would contradict the cancellation email) is dropped, kept as "gave up" with
    # the reason; staff are not flagged, since nothing is missing. The owning app says which.
    reason = next((reason for rule in _skip_rules if (reason := rule(row))), None)
    if reason:
        row.status, row.last_error = OutboundEmail.Status.GAVE_UP, reason
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
        stay_email_outcome.send(sender=OutboundEmail, row=row, outcome=UNCONFIRMED)
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
            stay_email_outcome.send(sender=OutboundEmail, row=row, outcome=GAVE_UP)
        else:
            row.next_attempt_at = now + retry_pause(row.attempts)
            row.save(update_fields=["next_attempt_at", "last_error"])
        logger.warning("email %s (%s to %s) for %s not sent: %s", row.pk, row.kind, row.recipient, reservation.pk, row.last_error)
        return 0
    _mark_sent(row)
    stay_email_outcome.send(sender=OutboundEmail, row=row, outcome=SENT)
    return 1


def _mark_sent(row: OutboundEmail) -> None:
    row.status, row.sent_at, row.last_error = OutboundEmail.Status.SENT, timezone.now(), ""
    row.save(update_fields=["status", "sent_at", "last_error"])
    email_sent.send(sender=OutboundEmail, row=row)


def _mark_unconfirmed(row: OutboundEmail, error: Exception) -> None:
    """Sent, as far as anyone can tell: the server has the message and may have delivered it.
    Sending it again could give a second copy (booking/outbox/smtp_delivery.py), so it is not resent."""
    row.status, row.sent_at, row.last_error = OutboundEmail.Status.UNCONFIRMED, timezone.now(), str(error)[:300]
    row.save(update_fields=["status", "sent_at", "last_error"])
    logger.warning("email %s (%s to %s) handed over but not confirmed; not resent: %s", row.pk, row.kind, row.recipient, error)


def _deliver_notice(row: OutboundEmail, now) -> int:
    """A notice about no stay (a website inquiry): the same retries; after two days it is given up
    and logged as an error (the inquiry itself stays in the admin, marked as not emailed)."""
    try:
        message = build_message(row)
        if message is not None:
            get_connection().send_messages([message])
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
    """The message of one row: built by its kind's registered builder (a stay's emails) or from
    what was written when it was queued, then given its owners' attachments. Every attempt at one
    row carries the same Message-ID, so mail clients show a resent copy as one."""
    builder = _builders.get(row.kind)
    message = builder(row) if builder is not None else _written_notice(row)
    for attach in _attachments:
        message = attach(row, message)
    if message is not None:
        message.extra_headers["Message-ID"] = message_id(row)
    return message


def _written_notice(row: OutboundEmail) -> EmailMultiAlternatives:
    """A notice written when queued, in its reader's language: the guest's for a guest, the back
    office's for the owner. Italian elides the article before the 8th and the 11th ("dall’8"),
    whichever template wrote the date."""
    stay = row.reservation
    language = (stay.language if stay is not None and row.recipient == OutboundEmail.Recipient.GUEST else settings.LANGUAGE_CODE) or "en"
    return EmailMultiAlternatives(
        subject=with_elision(row.subject, language),
        body=with_elision(row.body, language),
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[row.to_address],
        reply_to=[row.reply_to] if row.reply_to else [],
    )


def message_id(row: OutboundEmail) -> str:
    domain = settings.DEFAULT_FROM_EMAIL.rpartition("@")[2] or "localhost"
    return f"<outbox-{row.pk}.{int(row.created_at.timestamp())}@{header_safe(domain)}>"
