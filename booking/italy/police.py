"""The police registration of a day's arrivals (art. 109 TULPS: within 24 hours of arrival):
which stays are ready (every guest given and their identity verified), which still miss data, and the Alloggiati Web upload file, for a day or
for any period of at most a year (one file, arrivals in date order)."""

from dataclasses import dataclass, field
from datetime import date, datetime, timedelta

from django.utils import timezone
from django.utils.translation import gettext as _

from booking.italy.models import CheckIn, Guest, PoliceRegistration
from booking.italy.records import GuestRecord, party_records, upload_file
from booking.italy.tables import DOCUMENT_CODES, tables
from booking.reservations.models import Reservation

DEADLINE_HOURS = 24
MAX_PERIOD_DAYS = 366  # "at most a year", a leap year included


class PeriodRefused(ValueError):
    """A period the police file is not built for: reversed, or longer than a year. The message is
    translatable: the command prints it in English, the back office in the reader's language."""


@dataclass
class Arrival:
    reservation: Reservation
    check_in: CheckIn | None
    records: list[str] = field(default_factory=list)
    missing: str = ""  # why the stay cannot be registered yet
    registration: PoliceRegistration | None = None


def guest_record(guest: Guest) -> GuestRecord:
    codes = tables()
    born_in, citizen_of = codes.state_for_iso(guest.country_of_birth), codes.state_for_iso(guest.citizenship)
    if born_in is None or citizen_of is None:
        raise ValueError(f"country code no longer in the tables: {guest.country_of_birth}/{guest.citizenship}")
    return GuestRecord(
        surname=guest.last_name,
        name=guest.first_name,
        sex=guest.sex,
        date_of_birth=guest.date_of_birth,
        comune_of_birth=guest.comune_of_birth_code,
        province_of_birth=guest.province_of_birth if guest.comune_of_birth_code else "",
        state_of_birth=born_in.code,
        citizenship=citizen_of.code,
        document_type=DOCUMENT_CODES.get(guest.document_type, ""),
        document_number=guest.document_number,
        document_place=guest.document_issued_in_code,
    )


def arrival(reservation: Reservation) -> Arrival:
    check_in = CheckIn.objects.filter(reservation=reservation).prefetch_related("guests").first()
    found = Arrival(reservation=reservation, check_in=check_in, registration=PoliceRegistration.objects.filter(reservation=reservation).first())
    guests = list(check_in.guests.all()) if check_in else []
    if not check_in or not check_in.is_complete:
        found.missing = _("check-in not completed")
    elif len(guests) != reservation.guests:
        found.missing = _("%(given)s of %(guests)s guests given") % {"given": len(guests), "guests": reservation.guests}
    elif not guests[0].document_number:
        found.missing = _("the lead guest's document is missing (erased?)")
    elif unseen := [str(g.position + 1) for g in guests if not g.identity_method]:
        # Only guests whose identity staff saw (in person or by live video) are ever sent.
        found.missing = _("identity not verified yet: guest %(guests)s (the arrivals screen)") % {"guests": ", ".join(unseen)}
    else:
        try:
            found.records = party_records([guest_record(g) for g in guests], check_in.party, reservation.check_in, reservation.nights)
        except ValueError as error:
            found.missing = str(error)
    return found


def check_period(first: date, last: date) -> None:
    """Raise PeriodRefused unless first..last (both included) is a period the file is built for."""
    if last < first:
        raise PeriodRefused(_("The period ends before it begins."))
    days = (last - first).days + 1
    if days > MAX_PERIOD_DAYS:
        raise PeriodRefused(_("A period is at most a year (%(max)d days); this one is %(days)d days.") % {"max": MAX_PERIOD_DAYS, "days": days})


def arrivals_between(first: date, last: date) -> list[Arrival]:
    """Every confirmed stay arriving from first to last (both included), in arrival-date order."""
    check_period(first, last)
    stays = (
        Reservation.objects.filter(status=Reservation.Status.CONFIRMED, check_in__gte=first, check_in__lte=last)
        .select_related("property")
        .order_by("check_in", "created_at")
    )
    return [arrival(r) for r in stays]


def arrivals_on(day: date) -> list[Arrival]:
    return arrivals_between(day, day)


def period_file(first: date, last: date) -> tuple[str, list[Arrival]]:
    """The period's upload file (every complete stay in arrival-date order, each party's lead first:
    the days' files joined by CRLF) and the stays missing data. Raises PeriodRefused."""
    found = arrivals_between(first, last)
    records = [record for a in found if not a.missing for record in a.records]
    return upload_file(records), [a for a in found if a.missing]


def day_file(day: date) -> tuple[str, list[Arrival]]:
    """The day's upload file (every complete stay, each party's lead first) and the stays missing data."""
    return period_file(day, day)


def deadline(reservation: Reservation) -> datetime:
    """24 hours after the earliest the guests can arrive (the property's check-in time on the
    arrival day): the law counts from the actual arrival, so this is never later than the law's."""
    arrives = datetime.combine(reservation.check_in, reservation.property.check_in_from)
    return timezone.make_aware(arrives) + timedelta(hours=DEADLINE_HOURS)


def hours_left(reservation: Reservation, now: datetime | None = None) -> float:
    return round((deadline(reservation) - (now or timezone.now())).total_seconds() / 3600, 1)
