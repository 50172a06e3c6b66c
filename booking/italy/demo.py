"""Demo arrivals for the arrivals screen (`manage.py load_demo`, so `make run` shows something):
a Booking.com family arriving today for a night, checked in, the lead guest's identity seen and the rest not;
an Airbnb guest arriving tomorrow who has not checked in. Made through the channel-booking path,
only on nights still free, once per day (keyed by the day); the demo property's tests never load it."""

from datetime import date, timedelta

from django.utils import timezone

from booking.catalog.models import Property
from booking.demo import SLUG
from booking.italy.checkin import save_check_in
from booking.italy.identity import verify
from booking.reservations.models import Reservation
from booking.reservations.selectors import blocking_reservations, blocks_between
from booking.reservations.services.channel_bookings import ChannelStay, apply_channel_booking

FAMILY = [
    {
        "first_name": "Anna",
        "last_name": "Schmidt",
        "sex": "F",
        "date_of_birth": "1986-04-12",
        "citizenship": "DE",
        "country_of_birth": "DE",
        "document": {"type": "passport", "number": "C01X00T47", "issued_in": "DE"},
    },
    {"first_name": "Lukas", "last_name": "Schmidt", "sex": "M", "date_of_birth": "1984-09-30", "citizenship": "DE", "country_of_birth": "DE"},
]


def _free(prop: Property, first: date, last: date) -> bool:
    return not blocking_reservations(prop, first, last, timezone.now()).exists() and not blocks_between(prop, first, last).exists()


def _stay(
    prop: Property, key: str, source: str, arrival: date, nights: int, guests: int, first: str, last: str, email: str, language: str
) -> Reservation | None:
    booking_id = f"demo-{key}-{arrival:%Y%m%d}"
    existing = Reservation.objects.filter(channel_booking_id=booking_id).first()
    if existing is not None or not _free(prop, arrival, arrival + timedelta(days=nights)):
        return None
    stay = ChannelStay(
        booking_id=booking_id,
        source=source,
        code=f"DEMO{arrival:%m%d}",
        cancelled=False,
        check_in=arrival,
        check_out=arrival + timedelta(days=nights),
        revision_at=timezone.now(),
        adults=guests,
        first_name=first,
        last_name=last,
        email=email,
        language=language,
    )
    return apply_channel_booking(stay).reservation


def load() -> bool:
    prop = Property.objects.filter(slug=SLUG).first()
    if prop is None:
        return False
    today = timezone.localdate()
    family = _stay(prop, "family", Reservation.Source.BOOKING_COM, today, 1, 2, "Anna", "Schmidt", "anna.schmidt@example.com", "de")
    if family is not None:
        save_check_in(family, {"party": "family", "guests": FAMILY}, actor="demo")
        verify(family.pk, method="in_person", by="demo", positions=[0])
    single = _stay(prop, "single", Reservation.Source.AIRBNB, today + timedelta(days=1), 3, 1, "James", "Carter", "", "en")
    return family is not None or single is not None
