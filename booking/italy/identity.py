"""Identity seen (de visu): Italian law asks the host to identify each guest in person, or by a live
video at entry (Consiglio di Stato, 21 Nov 2025). Staff mark each guest verified on the back
office's arrivals screen (booking/italy/admin_arrivals.py); the police registration sends only
verified guests (booking/italy/police.py).

A stay still unverified 12 hours after its check-in day began (the property's time zone) is flagged
`identity_unverified` and the owner is emailed once: the police's 24 hours run from arrival. The
job claims the email by a conditional update of CheckIn.identity_alert_sent_at under the stay's
lock, so two workers never send it twice; verifying every guest resolves the flag."""

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from django.conf import settings
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from booking.italy.models import CheckIn, Guest, VerificationMethod
from booking.italy.tables import ITALY
from booking.outbox.models import OutboundEmail
from booking.outbox.notifications import queue_notice
from booking.reservations.models import Reservation
from booking.reservations.services.audit import flag, has_open_flag, resolve_flags
from booking.reservations.services.locking import reservation_transaction
from booking.reservations.services.owner_alerts import owner_address

FLAG = "identity_unverified"
GRACE = timedelta(hours=12)
ACTOR = "identity check"


class NothingToVerify(ValueError):
    """No guest of the stay matches (a wrong guest, or a party not given yet)."""


@dataclass(frozen=True)
class ArrivalRow:
    """One stay arriving on the screen: its guests as given, and how many are verified."""

    reservation: Reservation
    check_in: CheckIn | None
    guests: list[Guest]

    @property
    def checked_in(self) -> bool:
        return bool(self.check_in and self.check_in.is_complete and len(self.guests) == self.reservation.guests)

    @property
    def verified(self) -> int:
        return sum(1 for guest in self.guests if guest.identity_method)

    @property
    def all_verified(self) -> bool:
        return self.checked_in and self.verified == len(self.guests)


def arrivals(first: date, last: date) -> list[ArrivalRow]:
    """Confirmed stays arriving from first to last (both included), in arrival order."""
    stays = Reservation.objects.filter(status=Reservation.Status.CONFIRMED, check_in__gte=first, check_in__lte=last).select_related("property")
    stays = stays.order_by("check_in", "created_at")
    check_ins = {c.reservation_id: c for c in CheckIn.objects.filter(reservation__in=stays).prefetch_related("guests")}
    rows = []
    for stay in stays:
        found = check_ins.get(stay.pk)
        rows.append(ArrivalRow(stay, found, list(found.guests.all()) if found else []))
    return rows


def verify(reservation_id: str, *, method: str, by: str, positions: list[int] | None = None, now: datetime | None = None) -> int:
    """Mark the stay's guests (those at `positions`, else all) verified by `method`; guests already
    verified keep their first verification. Returns how many were marked now; resolves the flag
    once every guest of the stay is verified."""
    if method not in VerificationMethod.values:
        raise ValueError(f"method must be one of {', '.join(VerificationMethod.values)}")
    now = now or timezone.now()
    with reservation_transaction(reservation_id) as stay:
        guests = Guest.objects.filter(check_in__reservation=stay)
        if positions is not None:
            guests = guests.filter(position__in=positions)
        if not guests.exists():
            raise NothingToVerify(reservation_id)
        marked = guests.filter(identity_method="").update(identity_method=method, identity_verified_at=now, identity_verified_by=by[:150])
        if all_verified(stay):
            resolve_flags(stay, FLAG, by=by)
    return marked


def all_verified(stay: Reservation) -> bool:
    check_in = CheckIn.objects.filter(reservation=stay).first()
    if check_in is None or not check_in.is_complete:
        return False
    guests = list(check_in.guests.values_list("identity_method", flat=True))
    return len(guests) == stay.guests and all(guests)


def deadline_passed(stay: Reservation, now: datetime) -> bool:
    """12 hours after the check-in day began, on the property's clock."""
    day_began = timezone.make_aware(datetime.combine(stay.check_in, time.min))
    return now >= day_began + GRACE


def flag_unverified_stays(*, now: datetime | None = None) -> int:
    """Flag each stay under way whose guests are not all verified 12 hours into its check-in day,
    and email the owner once per stay. Returns how many emails were queued."""
    now = now or timezone.now()
    today = timezone.localdate(now)
    stays = Reservation.objects.filter(
        property__country_code=ITALY, status=Reservation.Status.CONFIRMED, check_in__lte=today, check_in__gte=today - timedelta(days=1), check_out__gt=today
    )
    queued = 0
    for pk in stays.values_list("pk", flat=True):
        with reservation_transaction(pk) as stay:
            if not deadline_passed(stay, now) or all_verified(stay):
                continue
            if not has_open_flag(stay, FLAG):
                flag(stay, actor=ACTOR, message=FLAG, params={"check_in": stay.check_in})
            check_in, _created = CheckIn.objects.get_or_create(reservation=stay)
            if CheckIn.objects.filter(pk=check_in.pk, identity_alert_sent_at__isnull=True).update(identity_alert_sent_at=now):
                queued += bool(_email_owner(stay))
    return queued


def _email_owner(stay: Reservation) -> OutboundEmail | None:
    with translation.override(settings.LANGUAGE_CODE):
        values = {"name": stay.guest_name or stay.get_source_display(), "date": f"{stay.check_in:%d/%m/%Y}", "guests": stay.guests}
        subject = _("Identity not verified: the stay arriving on %(date)s (%(name)s)") % values
        body = "\n\n".join(
            [
                _(
                    "The guests of the stay arriving on %(date)s (%(name)s, %(guests)s guests) have not all had their identity verified in person or by live video. The police registration is due within 24 hours of arrival and sends only verified guests."
                )
                % values,
                _("Verify them on the arrivals screen:"),
                settings.BASE_URL + reverse("admin:italy_arrival_changelist"),
            ]
        )
    return queue_notice(kind=OutboundEmail.Kind.OWNER_ALERT, subject=subject, body=body, to=owner_address(), reservation=stay)
