"""The city-tax return and the tourism statistics (ISTAT "movimento clienti") for a period, as CSV
rows: the management commands print them, the back office shows and offers them. Stays whose city
tax a listing platform collected (Reservation.city_tax_collected_by) are listed apart from the
host's return and left out of its total."""

import csv
import io
from collections import defaultdict
from datetime import date, timedelta
from decimal import Decimal

from django.db.models import Q

from booking.catalog.models import Property
from booking.italy.citytax import StayTax, stay_tax
from booking.italy.models import Guest
from booking.reservations.models import CITY_TAX_BY_HOST, Reservation

CITY_TAX_COLUMNS = ["reservation_id", "check_in", "check_out", "nights_taxed", "guests", "guests_exempt", "exemption_reasons", "rate", "amount"]
ISTAT_COLUMNS = ["citizenship", "arrivals", "nights"]
PLATFORM_SECTION = "COLLECTED BY PLATFORMS (not in TOTAL: the platform pays it over)"
PLATFORM_TOTAL = "TOTAL COLLECTED BY PLATFORMS"


def stays_overlapping(first: date, last: date):
    return (
        Reservation.objects.filter(status=Reservation.Status.CONFIRMED, check_in__lte=last, check_out__gt=first)
        .select_related("property")
        .order_by("check_in", "created_at")
    )


def lead_name(last_name: str, first_name: str) -> str:
    """A stay as staff read it in a report: its lead guest, "Rossi, Mario"."""
    return ", ".join(part for part in (last_name.strip(), first_name.strip()) if part)


def lead_names(stays) -> dict[str, str]:
    """Each stay's lead guest ("Rossi, Mario"): the check-in's lead when given, else the booker's
    name; "" for a stay without either (an iCal block). One query."""
    leads = {
        reservation_id: lead_name(last, first)
        for reservation_id, last, first in Guest.objects.filter(check_in__reservation__in=[s.pk for s in stays], position=0).values_list(
            "check_in__reservation_id", "last_name", "first_name"
        )
    }
    return {stay.pk: leads.get(stay.pk) or lead_name(stay.guest_last_name, stay.guest_first_name) for stay in stays}


def _guests_by_stay(stays) -> dict[str, list[Guest]]:
    found: dict[str, list[Guest]] = defaultdict(list)
    for guest in Guest.objects.filter(check_in__reservation__in=[s.pk for s in stays], check_in__completed_at__isnull=False).select_related("check_in"):
        found[guest.check_in.reservation_id].append(guest)
    return found


def city_tax_rows(first: date, last: date, *, collected_by_platform: bool = False) -> tuple[list[tuple[Reservation, StayTax]], Decimal]:
    """The stays whose city tax the host collects and owes (the return), or with
    `collected_by_platform` those a listing platform collected itself (listed apart: the platform
    pays it over, so it is not in the host's total)."""
    by_host = Q(city_tax_collected_by=CITY_TAX_BY_HOST)
    stays = list(stays_overlapping(first, last).filter(~by_host if collected_by_platform else by_host))
    guests = _guests_by_stay(stays)
    rows = []
    for stay in stays:
        prop: Property = stay.property
        births = [g.date_of_birth for g in guests.get(stay.pk, [])]
        tax = stay_tax(
            check_in=stay.check_in,
            check_out=stay.check_out,
            guests=stay.guests,
            first=first,
            last=last,
            rate=prop.city_tax_per_person_night,
            max_nights=prop.city_tax_max_nights,
            exempt_under_age=prop.city_tax_exempt_under_age,
            dates_of_birth=births if len(births) == stay.guests else None,
            children_ages=stay.children_ages or [],
        )
        rows.append((stay, tax))
    return rows, sum((tax.amount for _stay, tax in rows), Decimal("0.00"))


def _tax_columns(stay: Reservation, tax: StayTax) -> list:
    return [stay.pk, stay.check_in, stay.check_out, tax.nights_taxed, tax.guests, tax.guests_exempt, tax.exemption_reasons, tax.rate, tax.amount]


def _sums(rows: list[tuple[Reservation, StayTax]]) -> list:
    return [sum(t.nights_taxed for _s, t in rows), sum(t.guests for _s, t in rows), sum(t.guests_exempt for _s, t in rows)]


def city_tax_csv(first: date, last: date) -> str:
    """The host's return (DESIGN.md's columns, then TOTAL: what the host owes), and after it, when
    there are any, the stays a platform collected the tax of: a blank line, a title, the same
    columns after `collected_by` (the platform, as Reservation.source), and their own total."""
    rows, total = city_tax_rows(first, last)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CITY_TAX_COLUMNS)
    writer.writerows(_tax_columns(stay, tax) for stay, tax in rows)
    writer.writerow(["TOTAL", "", "", *_sums(rows), "", "", total])
    collected, collected_total = city_tax_rows(first, last, collected_by_platform=True)
    if collected:
        writer.writerow([])
        writer.writerow([PLATFORM_SECTION])
        writer.writerow(["collected_by", *CITY_TAX_COLUMNS])
        writer.writerows([stay.city_tax_collected_by, *_tax_columns(stay, tax)] for stay, tax in collected)
        writer.writerow([PLATFORM_TOTAL, "", "", "", *_sums(collected), "", "", collected_total])
    return out.getvalue()


def istat_rows(first: date, last: date) -> list[tuple[str, int, int]]:
    """Per citizenship: guests arriving in the period, and guest-nights in it ("presenze"). A
    stay whose check-in is not complete counts under an empty citizenship."""
    stays = list(stays_overlapping(first, last))
    guests = _guests_by_stay(stays)
    arrivals: dict[str, int] = defaultdict(int)
    nights: dict[str, int] = defaultdict(int)
    for stay in stays:
        nights_in = (min(stay.check_out, last + timedelta(days=1)) - max(stay.check_in, first)).days
        citizenships = [g.citizenship for g in guests.get(stay.pk, [])]
        if len(citizenships) != stay.guests:
            citizenships = [""] * stay.guests
        for citizenship in citizenships:
            nights[citizenship] += nights_in
            if first <= stay.check_in <= last:
                arrivals[citizenship] += 1
    return sorted(((c, arrivals[c], nights[c]) for c in nights), key=lambda row: (row[0] == "", row[0]))


def istat_csv(first: date, last: date) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(ISTAT_COLUMNS)
    writer.writerows(istat_rows(first, last))
    return out.getvalue()
