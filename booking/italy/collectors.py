"""Who collects a stay's city tax: the host, or the listing platform the guest booked on when the
owner has said that platform collects it here (ItalySettings.city_tax_collecting_channels).

Decided once, when a channel booking first arrives, and kept on the reservation
(Reservation.city_tax_collected_by): a later change of the setting applies to new bookings only,
since the platform's own guest already paid it or not."""

from django.utils.translation import gettext_lazy

from booking.catalog.models import Property
from booking.italy.models import ItalySettings
from booking.reservations.models import CITY_TAX_BY_HOST, Reservation

Source = Reservation.Source
# The sources that are listing platforms (booked there, received through the channel manager).
PLATFORMS = (Source.BOOKING_COM, Source.AIRBNB, Source.EXPEDIA, Source.VRBO, Source.OTHER)
PLATFORM_CHOICES = [(source.value, source.label) for source in PLATFORMS]


def collecting_channels(prop: Property) -> frozenset[str]:
    return frozenset(ItalySettings.read(prop).city_tax_collecting_channels or ())


def collector_for(source: str, collecting: frozenset[str] | set[str]) -> str:
    """`host`, or the platform itself when it is a platform that collects the tax."""
    return source if source in PLATFORMS and source in collecting else CITY_TAX_BY_HOST


def collector_label(collector: str) -> str:
    """As the back office reads it: "Host" or the platform's name."""
    if collector == CITY_TAX_BY_HOST:
        return str(gettext_lazy("Host"))
    if collector == Source.OTHER:
        return str(gettext_lazy("Other channel"))
    return str(Source(collector).label) if collector in Source.values else collector
