"""One reminder email for an unfinished booking (issue 34 item 2): a guest who ticked the box on
/book ("If I don't finish, email me once a link to come back to these dates") and gave an address
gets, if the hold is still unpaid REMIND_AFTER after it was made, one email with a signed link back.

- Only an unpaid hold: held (live or lapsed) or expired. A paid stay, a hold the guest released, or
  any cancelled one never gets it; nor does a hold whose guest has booked (or holds) a stay since
  under the same address. A hold that ended more than NOT_AFTER_LAPSE ago is not reminded late.
- At most once: the job claims the hold by a conditional update of `reminder_sent_at` in the
  transaction that writes the outbox row, so a second run, or a second worker at the same moment,
  finds nothing to claim.
- The address is kept only for this: it is cleared when the reminder is queued, and from holds that
  end up paid, cancelled or too old to remind.

The resume link (`resume_token` / `reservation_for_token`) is signed with SECRET_KEY and names the
reservation: it cannot be guessed or made for another hold, and works from any device."""

from datetime import datetime, timedelta

from django.conf import settings
from django.core import signing
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import Q
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from booking.formatting import site_path, time_with_date
from booking.outbox.models import OutboundEmail
from booking.outbox.notifications import deliver_soon, email_address, header_safe
from booking.reservations.emails import stay_dates
from booking.reservations.models import Reservation
from booking.reservations.services.audit import record_event

Status = Reservation.Status

# Half of the 30-minute hold: a guest still on the payment page has had time to pay, and one who
# left still has about a quarter of an hour of held dates when the email arrives.
REMIND_AFTER = timedelta(minutes=15)
# A hold that ended longer ago than this (the job was down) is not reminded any more.
NOT_AFTER_LAPSE = timedelta(hours=1)
# How long the link in the email works (after that it is an unknown link: /book as usual).
RESUME_MAX_AGE = timedelta(days=7)
SALT = "booking.hold_reminder"
UNPAID = (Status.HELD, Status.EXPIRED)


class InvalidReminderEmail(ValueError):
    """The address given for the reminder is not an email address."""


def ask_for_reminder(reservation_id: str, email: str) -> bool:
    """Store the address of a guest who ticked the box on a live, unpaid hold made on the website;
    False (nothing stored) for any other hold. InvalidReminderEmail for a bad address."""
    address = header_safe(email)
    try:
        validate_email(address)
    except ValidationError:
        raise InvalidReminderEmail(address) from None
    if len(address) > 254:
        raise InvalidReminderEmail(address)
    return bool(
        Reservation.objects.filter(
            pk=reservation_id, status=Status.HELD, source=Reservation.Source.WEB, hold_expires_at__gt=timezone.now(), reminder_sent_at__isnull=True
        ).update(reminder_email=address)
    )


def queue_hold_reminders(*, now: datetime | None = None) -> int:
    """Queue the reminders that are due (the beat job, every minute); return how many were queued."""
    now = now or timezone.now()
    _forget_addresses(now)
    due = Reservation.objects.filter(
        status__in=UNPAID,
        reminder_sent_at__isnull=True,
        created_at__lte=now - REMIND_AFTER,
        hold_expires_at__gt=now - NOT_AFTER_LAPSE,
    ).exclude(reminder_email="")
    return sum(_claim_and_queue(pk, now) for pk in due.values_list("pk", flat=True))


def _forget_addresses(now: datetime) -> None:
    """Addresses never to be used: of holds paid, cancelled, or ended too long ago to remind."""
    Reservation.objects.exclude(reminder_email="").filter(reminder_sent_at__isnull=True).filter(
        ~Q(status__in=UNPAID) | Q(hold_expires_at__lte=now - NOT_AFTER_LAPSE)
    ).update(reminder_email="")


def _claim_and_queue(reservation_id: str, now: datetime) -> int:
    with transaction.atomic():
        claimed = Reservation.objects.filter(pk=reservation_id, status__in=UNPAID, reminder_sent_at__isnull=True).exclude(reminder_email="")
        if not claimed.update(reminder_sent_at=now):
            return 0  # another worker (or run) claimed it first, or it was paid or released meanwhile
        hold = Reservation.objects.select_related("property").get(pk=reservation_id)
        to = email_address(hold.reminder_email)
        Reservation.objects.filter(pk=reservation_id).update(reminder_email="")
        if not to or booked_again(hold):
            return 0
        OutboundEmail.objects.create(
            reservation=hold,
            kind=OutboundEmail.Kind.HOLD_REMINDER,
            recipient=OutboundEmail.Recipient.GUEST,
            to_address=to,
            **reminder_email(hold, now),
        )
        record_event(hold, action="email", actor="hold reminders", from_status=hold.status, message="hold_reminder_queued")
        transaction.on_commit(deliver_soon)
    return 1


def booked_again(hold: Reservation) -> bool:
    """Whether the guest has paid for (or now holds) a stay made after this hold, under the same address."""
    address = hold.reminder_email
    return (
        Reservation.objects.filter(created_at__gt=hold.created_at, status__in=(Status.HELD, Status.CONFIRMED))
        .filter(Q(guest_email__iexact=address) | Q(reminder_email__iexact=address))
        .exclude(pk=hold.pk)
        .exists()
    )


def reminder_email(hold: Reservation, now: datetime) -> dict[str, str]:
    """The email's subject and body, in the language the guest booked in."""
    with translation.override(hold.language or "en"):
        held = hold.status == Status.HELD and hold.hold_expires_at is not None and hold.hold_expires_at > now
        context = {
            "reservation": hold,
            "property": hold.property,
            "dates": stay_dates(hold),
            "held_until": time_with_date(hold.hold_expires_at) if held and hold.hold_expires_at else "",
            "resume_url": resume_url(hold),
        }
        subject = _("Your unfinished booking at %(name)s: %(dates)s") % {"name": hold.property.name, "dates": context["dates"]}
        body = render_to_string("emails/guest_hold_reminder.txt", context)
    prefix = "[TEST] " if hold.payment_provider == "sandbox" else ""
    return {"subject": header_safe(prefix + subject)[:300], "body": body}


def resume_token(hold: Reservation) -> str:
    return signing.dumps(hold.pk, salt=SALT)


def resume_url(hold: Reservation) -> str:
    return f"{settings.BASE_URL}{site_path('/book/resume/' + resume_token(hold), hold.language)}"


def reservation_for_token(token: str) -> Reservation | None:
    """The hold a resume link names; None for a forged, foreign, old or unknown one."""
    try:
        reservation_id = signing.loads(token, salt=SALT, max_age=RESUME_MAX_AGE)
    except signing.BadSignature:
        return None
    if not isinstance(reservation_id, str):
        return None
    return Reservation.objects.filter(pk=reservation_id).first()
