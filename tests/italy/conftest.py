"""Confirmed stays for the Italian obligations' tests, made directly (the booking flow has its own tests)."""

from datetime import date
from decimal import Decimal

import pytest
from django.core.cache import cache

from booking.reservations.models import Reservation, new_manage_token
from tests.dates import future


@pytest.fixture(autouse=True)
def own_cache(settings, tmp_path):
    settings.CACHES = {**settings.CACHES, "default": {"BACKEND": "django.core.cache.backends.filebased.FileBasedCache", "LOCATION": str(tmp_path / "cache")}}
    cache.clear()


@pytest.fixture
def make_stay(demo_property):
    def make(check_in: date | None = None, nights: int = 3, guests: int = 3, children_ages=None, **fields) -> Reservation:
        check_in = check_in or future(5)
        fields = {"status": Reservation.Status.CONFIRMED, **fields}
        return Reservation.objects.create(
            property=demo_property,
            check_in=check_in,
            check_out=date.fromordinal(check_in.toordinal() + nights),
            guests=guests,
            children_ages=children_ages or [],
            price_breakdown={},
            total=Decimal("900.00"),
            amount_paid=Decimal("900.00"),
            guest_first_name="Giulia",
            guest_last_name="Neri",
            guest_email="giulia@example.com",
            manage_token=new_manage_token(),
            **fields,
        )

    return make


LEAD = {
    "first_name": "Giulia",
    "last_name": "Neri",
    "sex": "F",
    "date_of_birth": "1984-03-09",
    "citizenship": "IT",
    "country_of_birth": "IT",
    "comune_of_birth": "Firenze",
    "province_of_birth": "FI",
    "document": {"type": "identity_card", "number": "CA12345AB", "issued_in": "Firenze"},
}
PARTNER = {"first_name": "Jürgen", "last_name": "Müller", "sex": "M", "date_of_birth": "1982-11-20", "citizenship": "DE", "country_of_birth": "DE"}
CHILD = {
    "first_name": "Sofia",
    "last_name": "Müller",
    "sex": "F",
    "date_of_birth": "2019-05-02",
    "citizenship": "DE",
    "country_of_birth": "IT",
    "comune_of_birth": "Forlì",
    "province_of_birth": "FC",
}


def party(*guests, kind="family") -> dict:
    return {"party": kind, "guests": [dict(g) for g in guests] or [LEAD, PARTNER, CHILD]}


def seen(stay: Reservation, method: str = "in_person") -> None:
    """Staff saw every guest's identity (only verified guests go to the police)."""
    from booking.italy.identity import verify

    verify(stay.pk, method=method, by="front desk")


def checked_in_and_seen(stay: Reservation, body: dict, **options) -> None:
    """The party given, then every guest seen at the door."""
    from booking.italy.checkin import save_check_in

    save_check_in(stay, body, **options)
    seen(stay)
