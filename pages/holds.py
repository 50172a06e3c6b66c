"""What /book says about unpaid holds: the ones this browser made (continue to payment, or release
them) and other guests' (on hold until a time, said with its date when not today, so the dates may free up). Times are the property's
(settings.TIME_ZONE); which holds are this browser's comes from its signed cookie (booking/api/own_holds.py)."""

from dataclasses import dataclass
from datetime import date, datetime, timedelta

from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _

from booking.api import own_holds
from booking.catalog.models import Property
from booking.catalog.selectors import today
from booking.formatting import format_date, time_with_date
from booking.reservations.models import Reservation
from booking.reservations.selectors import live_holds, taken_ranges_and_holds


@dataclass(frozen=True)
class HeldStay:
    check_in: date
    check_out: date
    until: datetime  # local time
    reservation_id: str = ""  # only for this browser's own holds
    continue_url: str = ""

    def for_script(self) -> dict:
        """For static/js/booking.js: why a held night cannot be chosen, and until when."""
        return {"from": self.check_in.isoformat(), "to": self.check_out.isoformat(), "until": time_with_date(self.until), "mine": bool(self.reservation_id)}

    @property
    def text(self) -> str:
        dates = {"check_in": format_date(self.check_in, "D j M Y"), "check_out": format_date(self.check_out, "D j M Y"), "time": time_with_date(self.until)}
        if self.reservation_id:
            return _("Your dates, %(check_in)s to %(check_out)s, are held for you until %(time)s.") % dates
        return _("%(check_in)s to %(check_out)s: on hold for another guest until %(time)s; the dates may free up then.") % dates


def holds_on_book(request, prop: Property, *, window_days: int, not_mine: str | None = None) -> tuple[list[HeldStay], list[HeldStay]]:
    """(this browser's live holds, other guests' holds) within the booking window. `not_mine`: a
    hold the page is releasing anyway (back from a cancelled payment), shown as neither."""
    mine = [r for r in live_holds(own_holds.remembered(request)) if r.pk != not_mine]
    own = [_held(r.check_in, r.check_out, r.hold_expires_at, r) for r in mine]
    taken_by_me = {(r.check_in, r.check_out) for r in mine}
    if not_mine:
        taken_by_me |= {(r.check_in, r.check_out) for r in Reservation.objects.filter(pk=not_mine)}
    first = today()
    others = [
        _held(check_in, check_out, held_until)
        for check_in, check_out, held_until in sorted(taken_ranges_and_holds(prop, first, first + timedelta(days=window_days)))
        if held_until is not None and (check_in, check_out) not in taken_by_me
    ]
    return own, others


def keep_cookie(request, response, own: list[HeldStay]) -> None:
    """Forget holds that were released, paid or lapsed; a page naming this browser's holds is
    never kept by a shared cache."""
    ids = [held.reservation_id for held in own]
    if set(ids) != set(own_holds.remembered(request)):
        own_holds.keep(response, ids)
    if own:
        patch_cache_control(response, private=True, no_store=True)


def _held(check_in: date, check_out: date, until: datetime, reservation: Reservation | None = None) -> HeldStay:
    if reservation is None:
        return HeldStay(check_in, check_out, timezone.localtime(until))
    return HeldStay(
        check_in,
        check_out,
        timezone.localtime(until),
        reservation_id=reservation.pk,
        continue_url=reverse("discovery:ucp-continue", args=[reservation.pk]),
    )
