"""The city-tax return of a fixed month, byte for byte: direct, Booking.com and Airbnb stays in
March 2026 at Florence's rate today (5.50 € per person per night, at most 7 nights from arrival,
under-12s exempt). Booking.com leaves the tax to the host; Airbnb collects it itself, so its stays
are listed apart with who collected them and stay out of the TOTAL the host owes.

The golden file was made by running the report once and checked by hand:

    host's return                      nights × taxed guests × 5.50
    Rossi, direct     03/03 → 06/03    3 × 2 × 5.50 =  33.00
    Müller, direct    10/03 → 20/03    7 × 3 × 5.50 = 115.50  (10 nights capped at 7; the 5-year-old exempt)
    Dubois, Booking   20/03 → 23/03    3 × 2 × 5.50 =  33.00
    Kowalski, Booking 28/03 → 02/04    4 × 3 × 5.50 =  66.00  (the 4 March nights; April's in April's return)
    TOTAL                              17 nights, 11 guests, 1 exempt: 247.50

    collected by Airbnb
    Smith             26/02 → 03/03    2 × 2 × 5.50 =  22.00  (the 2 March nights)
    Tanaka            06/03 → 09/03    3 × 2 × 5.50 =  33.00  (the 8-year-old exempt)
    TOTAL COLLECTED BY PLATFORMS       5 nights, 5 guests, 1 exempt: 55.00

A cancelled Booking.com stay (24/03 → 26/03) is in neither.
"""

import re
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

from booking.reservations.models import Reservation

pytestmark = pytest.mark.django_db
GOLDEN = Path(__file__).parent / "golden" / "city_tax_2026_03.csv"
Source = Reservation.Source


@pytest.fixture
def march(demo_property):
    demo_property.city_tax_per_person_night = Decimal("5.50")  # Florence's rate today
    demo_property.save()

    def stay(pk, source, first, last, check_in, nights, guests, ages=(), collector="host", status=Reservation.Status.CONFIRMED):
        Reservation.objects.create(
            id=pk,
            property=demo_property,
            status=status,
            source=source,
            check_in=check_in,
            check_out=check_in + timedelta(days=nights),
            guests=guests,
            children_ages=list(ages),
            price_breakdown={},
            total=Decimal("900.00"),
            guest_first_name=first,
            guest_last_name=last,
            city_tax_collected_by=collector,
        )

    stay("res_march_airbnb_smith", Source.AIRBNB, "John", "Smith", date(2026, 2, 26), 5, 2, collector="airbnb")
    stay("res_march_direct_rossi", Source.WEB, "Mario", "Rossi", date(2026, 3, 3), 3, 2)
    stay("res_march_airbnb_tanaka", Source.AIRBNB, "Yuki", "Tanaka", date(2026, 3, 6), 3, 3, ages=[8], collector="airbnb")
    stay("res_march_direct_muller", Source.API, "Jürgen", "Müller", date(2026, 3, 10), 10, 4, ages=[5, 14])
    stay("res_march_booking_dubois", Source.BOOKING_COM, "Claire", "Dubois", date(2026, 3, 20), 3, 2)
    stay("res_march_booking_cancel", Source.BOOKING_COM, "Otto", "Weber", date(2026, 3, 24), 2, 2, status=Reservation.Status.CANCELLED)
    stay("res_march_booking_kowalski", Source.BOOKING_COM, "Anna", "Kowalski", date(2026, 3, 28), 5, 3)


def test_the_march_return_is_the_golden_file(march, capsys):
    call_command("city_tax_report", "--month", "2026-03")
    assert capsys.readouterr().out.encode() == GOLDEN.read_bytes()


def test_the_back_office_offers_the_same_file_and_lists_platform_stays_apart_by_name(march, client):
    client.force_login(User.objects.create_superuser("giulia", "giulia@example.com", "a-long-test-password"))
    download = client.get("/admin/italy/checkin/reports/", {"period": "2026-03", "csv": "city_tax"})
    assert download.content == GOLDEN.read_bytes()

    html = client.get("/admin/italy/checkin/reports/", {"period": "2026-03"}).content.decode()
    host, platforms = html.split('id="city-tax-platforms"')
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", platforms))
    assert "Smith, John Airbnb 26/02/2026 03/03/2026 2 2 0 5.50 EUR 22.00 EUR" in text
    assert "Tanaka, Yuki Airbnb 06/03/2026 09/03/2026 3 3 1 1 under 12 (children_ages) 5.50 EUR 33.00 EUR" in text
    assert "Collected by the platforms 55.00 EUR" in text
    assert "Smith" not in host and "Tanaka" not in host and "Weber" not in html
    assert all(name in host for name in ("Rossi, Mario", "Müller, Jürgen", "Dubois, Claire", "Kowalski, Anna"))
    assert re.search(r"data-total>\s*247\.50 EUR", host)
