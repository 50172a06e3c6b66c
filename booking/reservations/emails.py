"""A stay's emails, written when they are sent: the confirmation (HTML and text, with the stay as a
calendar file), cancellation, refund issued, pre-arrival note and review request, to the guest and
a copy to the owner. The outbox (booking/outbox/notifications.py) delivers them; this module tells
it how to write them, which no longer fit their stay, and what to record when one goes out."""

from collections.abc import Callable
from decimal import Decimal

from django.conf import settings
from django.contrib.admin.utils import quote
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from booking.catalog import payment_schedule as schedules
from booking.catalog import pricing
from booking.catalog.breakdown_words import email_money, read_breakdown
from booking.formatting import date_range, format_date, site_path, with_elision
from booking.outbox import notifications as outbox
from booking.outbox.models import OutboundEmail
from booking.outbox.notifications import email_address, header_safe
from booking.reservations.attention import attention_note
from booking.reservations.booking_numbers import with_booking_number
from booking.reservations.calendar_file import stay_calendar
from booking.reservations.models import Reservation
from booking.reservations.selectors import accepted_tiers
from booking.reservations.services.audit import flag_for_staff, record_event

Kind = OutboundEmail.Kind


def test_payment_notice() -> str:
    """The sandbox's warning, in capitals in the reader's language ("TESTZAHLUNG — es wird kein Geld bewegt")."""
    return _("TEST PAYMENT") + " — " + _("no money moves")


def stay_dates(reservation: Reservation) -> str:
    if translation.get_language() in (None, "en"):
        return f"{reservation.check_in:%d %b %Y} to {reservation.check_out:%d %b %Y}"
    return date_range(reservation.check_in, reservation.check_out)


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
        "attention": attention_note(reservation),  # the open flags, in the reader's language
        **money_now(reservation),
        # Online check-in, where the stay has one (an Italian rental: booking/italy/checkin.check_in_open).
        "check_in_url": f"{settings.BASE_URL}{site_path('/manage/' + reservation.manage_token + '/check-in')}"
        if reservation.manage_token and prop.country_code == CHECK_IN_COUNTRY
        else "",
        "refunded": reservation.amount_refunded,
        "refund_pending": reservation.refund_pending,
        "pre_arrival_paragraphs": [p.strip() for p in (prop.pre_arrival_message or "").split("\n\n") if p.strip()],
        "test_payment": test,
        "test_notice": test_payment_notice(),
        "test_prefix": "[TEST] " if test else "",
    } | {key: value for extra in _contexts for key, value in extra(reservation).items()}


# More words for a stay's emails from the apps above this one (payments: the refunds made before a
# cancellation), registered when they are ready.
_contexts: list[Callable[[Reservation], dict]] = []


def register_context(extra: Callable[[Reservation], dict]) -> None:
    if extra not in _contexts:
        _contexts.append(extra)


CHECK_IN_COUNTRY = "IT"  # the law online check-in serves (booking/italy/checkin.py)


def money_now(reservation: Reservation) -> dict:
    """What a confirmed stay still owes and when (its schedule's deferred part), and what the guest
    has paid and not had back."""
    owed = max(Decimal("0.00"), reservation.total - reservation.amount_paid) if reservation.status == Reservation.Status.CONFIRMED else Decimal("0.00")
    balance = schedules.balance_entry(schedules.stored_schedule(reservation.payment_schedule, reservation.total))
    return {
        "balance_due": owed,
        "balance_date": balance.due_date if owed and balance else None,
        "still_paid": max(Decimal("0.00"), reservation.amount_paid - reservation.amount_refunded),
    }


def stay_message(row: OutboundEmail) -> EmailMultiAlternatives | None:
    """The owner's copies in the owner's language (the site's main one, like their other notices);
    the guest's emails in the language they booked in."""
    with translation.override(settings.LANGUAGE_CODE if row.recipient == OutboundEmail.Recipient.OWNER else row.reservation.language or "en"):
        return _stay_message(row)


def _stay_message(row: OutboundEmail) -> EmailMultiAlternatives | None:
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
    return settings.BASE_URL + reverse("admin:reservations_reservation_change", args=[quote(reservation.pk)])


def no_longer_fits(row: OutboundEmail) -> str | None:
    """A confirmation or arrival note owed to a stay that is no longer confirmed, or the reminder of
    an unfinished booking (services/hold_reminders.py) once it was paid or released."""
    status = row.reservation.status
    if row.kind in OutboundEmail.ONLY_WHILE_CONFIRMED and status != Reservation.Status.CONFIRMED:
        return f"not sent: the stay is {status}"
    if row.kind == Kind.HOLD_REMINDER and status not in (Reservation.Status.HELD, Reservation.Status.EXPIRED):
        return f"not sent: the stay is {status}"
    return None


def new_dates_calendar(row: OutboundEmail, message: EmailMultiAlternatives | None) -> EmailMultiAlternatives | None:
    """The guest's "dates changed" email carries the stay's new dates: same UID, higher SEQUENCE."""
    if message is not None and row.kind == Kind.DATES_CHANGED and row.reservation is not None and row.recipient == OutboundEmail.Recipient.GUEST:
        with translation.override(row.reservation.language or "en"):
            message.attach("stay.ics", stay_calendar(row.reservation), "text/calendar; method=PUBLISH; charset=utf-8")
    return message


def numbered_subject(row: OutboundEmail, message: EmailMultiAlternatives | None) -> EmailMultiAlternatives | None:
    """Every email about a stay, to the guest or the owner, names its booking number in the subject."""
    if message is not None and row.reservation is not None:
        message.subject = with_booking_number(message.subject, row.reservation.booking_number)
    return message


def record_outcome(sender, row: OutboundEmail, outcome: str, **kwargs) -> None:
    """Each email of a stay is in its history; one given up after two days flags the stay."""
    reservation = row.reservation
    if outcome == outbox.GAVE_UP:
        flag_for_staff(
            reservation.pk,
            actor="notifications",
            message="flag_email_gave_up",
            params={"email": row.kind, "recipient": row.recipient, "reason": row.last_error},
        )
        return
    message = "email_sent" if outcome == outbox.SENT else "email_unconfirmed"
    record_event(
        reservation,
        action="email",
        actor="notifications",
        from_status=reservation.status,
        message=message,
        params={"email": row.kind, "recipient": row.recipient},
    )


def register() -> None:
    outbox.register_builder(OutboundEmail.STAY_KINDS, stay_message)
    outbox.register_skip_rule(no_longer_fits)
    outbox.register_attachment(new_dates_calendar)
    outbox.register_attachment(numbered_subject)
    outbox.stay_email_outcome.connect(record_outcome, sender=OutboundEmail, dispatch_uid="reservations_email_outcome")
