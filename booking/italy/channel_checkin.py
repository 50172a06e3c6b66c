"""Check-in for stays booked on a listing platform (booking/reservations/services/channel_bookings.py):
the same online check-in as a direct stay. When the channel gives the guest's email, the guest is
sent the check-in link once, in the language the channel gives (else English); staff can send it
again, print it, or enter the party themselves (booking/italy/admin_arrivals.py). The platform
confirms the booking to its guest, so the link is the first email the guest has from us.

A channel stay gets its manage link (the check-in's credential) when the link is first needed."""

from datetime import date

from django.conf import settings
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from booking.formatting import site_path
from booking.italy.models import CheckIn
from booking.italy.tables import ITALY
from booking.outbox.models import OutboundEmail
from booking.outbox.notifications import deliver_soon, email_address, header_safe
from booking.reservations.models import Reservation, new_manage_token

INVITATION = OutboundEmail.Kind.CHECK_IN_INVITATION


def guest_language(stay: Reservation) -> str:
    """The channel's language when the site has it ("de-DE" is German), else English."""
    code = (stay.language or "").replace("_", "-").split("-")[0].lower()
    return code if code in {c for c, _name in settings.LANGUAGES} else "en"


def check_in_url(stay: Reservation, language: str | None = None) -> str:
    """The guest's check-in link, giving the stay its manage token first if it has none."""
    if not stay.manage_token:
        Reservation.objects.filter(pk=stay.pk, manage_token__isnull=True).update(manage_token=new_manage_token())
        stay.manage_token = Reservation.objects.values_list("manage_token", flat=True).get(pk=stay.pk)
    path = site_path(f"/manage/{stay.manage_token}/check-in", language or guest_language(stay))
    return f"{settings.BASE_URL}{path}"


def invite_channel_guests(*, today: date | None = None) -> int:
    """Send the check-in link once to each channel stay's guest who has an email and has not
    checked in, from booking until check-out. Returns how many were queued."""
    today = today or timezone.localdate()
    stays = Reservation.objects.filter(
        channel_booking_id__isnull=False, property__country_code=ITALY, status=Reservation.Status.CONFIRMED, check_out__gt=today
    ).exclude(guest_email="")
    stays = stays.exclude(online_check_in__invitation_sent_at__isnull=False).exclude(online_check_in__completed_at__isnull=False)
    queued = 0
    for stay in stays.select_related("property"):
        check_in, _created = CheckIn.objects.get_or_create(reservation=stay)
        with transaction.atomic():
            if CheckIn.objects.filter(pk=check_in.pk, invitation_sent_at__isnull=True).update(invitation_sent_at=timezone.now()):
                queued += bool(queue_invitation(stay))
    return queued


def send_check_in_link(stay: Reservation) -> OutboundEmail | None:
    """Staff send the link (again): None when the stay has no usable email address."""
    if not email_address(stay.guest_email):
        return None
    with transaction.atomic():
        check_in, _created = CheckIn.objects.get_or_create(reservation=stay)
        CheckIn.objects.filter(pk=check_in.pk).update(invitation_sent_at=timezone.now())
        return queue_invitation(stay)


def queue_invitation(stay: Reservation) -> OutboundEmail | None:
    to = email_address(stay.guest_email)
    if not to:
        return None
    language = guest_language(stay)
    with translation.override(language):
        context = {"reservation": stay, "property": stay.property, "channel": stay.get_source_display(), "check_in_url": check_in_url(stay, language)}
        subject = _("Please check in online for %(name)s") % {"name": stay.property.name}
        row = OutboundEmail.objects.create(
            reservation=stay,
            kind=INVITATION,
            recipient=OutboundEmail.Recipient.GUEST,
            subject=header_safe(subject)[:300],
            body=render_to_string("emails/guest_check_in_invitation.txt", context),
            to_address=to,
        )
    transaction.on_commit(deliver_soon)
    return row
