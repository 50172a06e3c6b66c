"""The check-in emails to the guest, through the outbox (booking/outbox/notifications.py), written in the
guest's language when queued: reminders to complete check-in 7 and 2 days before arrival while it
is incomplete, and the arrival instructions once it is complete and arrival is `arrival_info_days`
away. Each goes once: the job claims it by a conditional update of its timestamp on the check-in.
Document numbers never appear in them."""

from datetime import date, timedelta

from django.conf import settings
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from booking.catalog.models import Property
from booking.formatting import site_path
from booking.italy.arrival import instructions_due, paragraphs
from booking.italy.channel_checkin import check_in_url, guest_language
from booking.italy.models import CheckIn, ItalySettings
from booking.outbox.models import OutboundEmail
from booking.outbox.notifications import deliver_soon, email_address, header_safe
from booking.reservations.models import Reservation

REMINDER_7, REMINDER_2, ARRIVAL_INFO = OutboundEmail.Kind.CHECK_IN_REMINDER_7, OutboundEmail.Kind.CHECK_IN_REMINDER_2, OutboundEmail.Kind.ARRIVAL_INFO


def queue_check_in_emails(*, today: date | None = None) -> int:
    today = today or timezone.localdate()
    queued = 0
    stays = Reservation.objects.filter(
        property__country_code="IT", status=Reservation.Status.CONFIRMED, check_in__gte=today, check_in__lte=today + timedelta(days=30)
    ).select_related("property")
    for stay in stays:
        check_in, _created = CheckIn.objects.get_or_create(reservation=stay)
        days_left = (stay.check_in - today).days
        italy = ItalySettings.for_property(stay.property)
        if check_in.is_complete:
            if instructions_due(stay, check_in, italy, today) and has_instructions(italy):
                queued += _claim_and_queue(check_in, "arrival_info_sent_at", ARRIVAL_INFO, "emails/guest_arrival_info.txt", italy)
        elif days_left <= 2:
            queued += _claim_and_queue(check_in, "reminder_2_sent_at", REMINDER_2, "emails/guest_check_in_reminder.txt", italy)
        elif days_left <= 7:
            queued += _claim_and_queue(check_in, "reminder_7_sent_at", REMINDER_7, "emails/guest_check_in_reminder.txt", italy)
    return queued


def has_instructions(italy: ItalySettings) -> bool:
    """Arrival instructions or emergency information written in some language (each guest reads
    theirs, or the English)."""
    return any(getattr(italy, f"{field}_{code}", "") for field in ("arrival_instructions", "emergency_info") for code, _name in settings.LANGUAGES)


def _claim_and_queue(check_in: CheckIn, stamp: str, kind: str, template: str, italy: ItalySettings) -> int:
    stay = check_in.reservation
    to = email_address(stay.guest_email)
    if not to:
        return 0
    with transaction.atomic():
        if not CheckIn.objects.filter(pk=check_in.pk, **{f"{stamp}__isnull": True}).update(**{stamp: timezone.now()}):
            return 0
        with translation.override(guest_language(stay)):
            check_in_url(stay)  # a channel stay gets its manage link here
            manage = f"{settings.BASE_URL}{site_path('/manage/' + (stay.manage_token or ''))}"
            context = {
                "reservation": stay,
                "property": stay.property,
                "check_in_url": f"{manage}/check-in",
                "manage_url": manage,
                "paragraphs": paragraphs(italy.arrival_instructions),
                "emergency": paragraphs(italy.emergency_info) if kind == ARRIVAL_INFO else [],
            }
            subject = (_("Arrival instructions for %(name)s") if kind == ARRIVAL_INFO else _("Please check in online for %(name)s")) % {
                "name": stay.property.name
            }
            OutboundEmail.objects.create(
                reservation=stay,
                kind=kind,
                recipient=OutboundEmail.Recipient.GUEST,
                subject=header_safe(subject)[:300],
                body=render_to_string(template, context),
                to_address=to,
            )
        transaction.on_commit(deliver_soon)
    return 1


def erase_documents(*, today: date | None = None) -> int:
    """Blank the identity documents of stays that ended `document_retention_days` ago (cancelled
    stays too); the guests' names stay for the tax and statistics, the police answer is kept.
    Every property with a check-in, whether or not the owner ever saved its Italian settings (the
    default retention then applies)."""
    today = today or timezone.localdate()
    erased = 0
    for prop in Property.objects.filter(reservations__online_check_in__isnull=False).distinct():
        ended_before = today - timedelta(days=ItalySettings.read(prop).document_retention_days)
        due = CheckIn.objects.filter(reservation__property=prop, reservation__check_out__lte=ended_before, documents_erased_at__isnull=True)
        for check_in in due:
            with transaction.atomic():
                check_in.guests.update(document_type="", document_number="", document_issued_in="", document_issued_in_code="")
                erased += CheckIn.objects.filter(pk=check_in.pk, documents_erased_at__isnull=True).update(documents_erased_at=timezone.now())
    return erased
