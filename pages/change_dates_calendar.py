"""The calendar of free nights on the change-dates page: the booking page's own date picker
(templates/pages/_booking_widget.html and static/js/booking.js, fed by /api/v1/calendar) in its
"change" mode. The guest's own nights show as free to them (the service checks the new dates
against every other stay); the party is the stay's and cannot be changed here; choosing dates leads
to the page's own new price (GET {link}/change-dates?check_in=…&check_out=…)."""

from datetime import date

from django.http import HttpRequest

from booking.api import presenters
from booking.catalog.rules import rules_for
from booking.reservations.models import Reservation
from pages.i18n import lang_path
from pages.views import booking_config


def free_nights_calendar(request: HttpRequest, reservation: Reservation, chosen: tuple[date, date] | None) -> dict:
    prop = reservation.property
    listing = presenters.property_json(prop, rules_for(prop))
    config = booking_config(listing, request)
    config["initial"] = {
        **config["initial"],
        "check_in": chosen[0].isoformat() if chosen else "",
        "check_out": chosen[1].isoformat() if chosen else "",
        "guests": str(reservation.guests),
        "children_ages": ",".join(str(age) for age in reservation.children_ages or []),
    }
    config["ownStay"] = {"from": reservation.check_in.isoformat(), "to": reservation.check_out.isoformat()}
    config["continuePath"] = lang_path(f"/manage/{reservation.manage_token}/change-dates")
    return {
        "listing": listing,
        "rules": listing["pricing_rules"],
        "booking_config": config,
        "guest_choices": range(1, listing["capacity"]["max_guests"] + 1),
        "child_choices": range(0, listing["capacity"]["max_guests"]),
        "picker_mode": "change",
    }
