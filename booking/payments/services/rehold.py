"""Changing a live hold's stay in place: new dates or a new party for the same reservation id.

A UCP booking session is a hold, and its Update is a full replacement: new dates or party re-hold
atomically or leave the old hold as it was. The new stay is checked under the calendar lock against
every other stay and block (the hold's own nights do not count against it), then the hold is
rewritten with its new price and payment schedule, all in one transaction. Its expiry stays: a change never lengthens
a hold. A checkout opened for the old price is closed at the provider first (as release_hold
does), so nobody can pay the old amount for the new stay.
"""

from datetime import date, datetime
from typing import Any

from django.db.models import Q
from django.utils import timezone

from booking.catalog import accepted_terms, pricing
from booking.catalog.breakdown import stored_breakdown
from booking.catalog.payment_schedule import payment_schedule, schedule_json, terms_of
from booking.catalog.rules import rules_for
from booking.catalog.selectors import today
from booking.errors import DatesUnavailable, NotReleasable, ReservationNotPayable
from booking.payments.providers import get_provider
from booking.reservations.models import Reservation
from booking.reservations.selectors import blocks_between
from booking.reservations.services import offers
from booking.reservations.services.audit import record_event
from booking.reservations.services.holds import expire_lapsed_holds_overlapping
from booking.reservations.services.locking import reservation_transaction
from booking.reservations.services.reservations import get_reservation

Status = Reservation.Status


def change_held_stay(
    reservation_id: str,
    *,
    check_in: date,
    check_out: date,
    guests: int,
    children_ages: list[int] | None,
    actor: str,
    promo_code: str | None = None,
    extras: list[dict[str, Any]] | None = None,
) -> Reservation:
    """The hold with its new stay (and offers: a full replacement, priced as hold_stay prices), or an
    unchanged hold and DatesUnavailable, InvalidInput for a bad code or extra (or
    ReservationNotPayable when there is no live hold to change)."""
    children_ages = list(children_ages or ())
    reservation = get_reservation(reservation_id)
    _ensure_live_hold(reservation)
    asked = (check_in, check_out, guests, children_ages, (promo_code or "").strip().upper(), _extras_key(extras))
    if asked == _current(reservation):
        return reservation
    _close_open_checkout(reservation)
    stay = pricing.Stay(check_in, check_out)
    with reservation_transaction(reservation_id) as locked:
        _ensure_live_hold(locked)
        now = timezone.now()
        rules = rules_for(locked.property)
        expire_lapsed_holds_overlapping(locked.property_id, check_in, check_out, now)
        window = pricing.gap_window(stay)  # the nights either side: a gap may be booked whole
        ranges = _ranges_of_others(locked, *window, now)
        verdict = pricing.check_stay_against_ranges(stay, guests, rules, ranges, today())
        if not verdict.available:
            raise DatesUnavailable(verdict.message, verdict.reason, held_until=verdict.held_until)
        chosen = offers.extras_for(rules, extras, stay)
        # The hold's own use of its code is the one it keeps: never counted against itself.
        promo, promo_id = offers.promo_for(locked.property_id, promo_code, stay, now=now, changing=locked.pk)
        taken = pricing.taken_nights_from_ranges([(start, end) for start, end, _ in ranges], *window)
        quote = pricing.quote(stay, guests, rules, children_ages, today=today(), taken_nights=taken, promo=promo, extras=chosen)
        before = f"{locked.check_in}→{locked.check_out}, {locked.guests} guests"
        locked.check_in, locked.check_out, locked.guests, locked.children_ages = check_in, check_out, guests, children_ages
        locked.price_breakdown = stored_breakdown(quote)  # data, as hold_stay writes it
        locked.total, locked.currency, locked.promo_code_id = quote.total, quote.currency, promo_id
        # The terms in force now, and when the new total is paid (as a new hold would be).
        locked.accepted_terms = accepted_terms.snapshot(rules)
        locked.payment_schedule = schedule_json(payment_schedule(quote.total, check_in=check_in, today=today(), terms=terms_of(rules)))
        locked.payment_provider = locked.checkout_session_id = locked.checkout_url = ""
        locked.checkout_expires_at = None
        locked.save()
        record_event(locked, action="change_stay", actor=actor, from_status=Status.HELD, note=f"was {before}")
    return get_reservation(reservation_id)


def _extras_key(extras: list[dict[str, Any]] | None) -> list[tuple[str, int]]:
    return sorted((item["code"], item["quantity"]) for item in extras or () if item["quantity"])


def _current(reservation: Reservation) -> tuple[Any, ...]:
    code = reservation.promo_code.code.upper() if reservation.promo_code is not None else ""
    lines = (reservation.price_breakdown or {}).get("extras") or []
    return (reservation.check_in, reservation.check_out, reservation.guests, list(reservation.children_ages or ()), code, _extras_key(lines))


def _ensure_live_hold(reservation: Reservation) -> None:
    if reservation.status != Status.HELD or not reservation.is_blocking():
        status = reservation.status if reservation.status != Status.HELD else Status.EXPIRED
        raise ReservationNotPayable(f"This reservation is {status}; only a live hold can be changed.")


def _close_open_checkout(reservation: Reservation) -> None:
    if not reservation.checkout_session_id:
        return
    provider = get_provider(reservation.payment_provider or None)
    session = provider.retrieve_checkout_session(reservation.checkout_session_id)
    if session.status == "complete":
        raise NotReleasable("This hold has just been paid; it is being confirmed and can no longer be changed.")
    if session.status == "open":
        # A PaymentProviderError propagates: the old price would stay payable, so nothing changes.
        provider.expire_checkout_session(session.id)


def _ranges_of_others(reservation: Reservation, start: date, end: date, now: datetime) -> list[tuple[date, date, datetime | None]]:
    """What takes [start, end) apart from this reservation: stays and unpaid holds (with their lapse
    instant, as taken_ranges_and_holds gives them) and blocks."""
    others = (
        Reservation.objects.filter(
            Q(status=Status.CONFIRMED) | Q(status=Status.HELD, hold_expires_at__gt=now),
            property_id=reservation.property_id,
            check_in__lt=end,
            check_out__gt=start,
        )
        .exclude(pk=reservation.pk)
        .values_list("check_in", "check_out", "status", "hold_expires_at")
    )
    ranges: list[tuple[date, date, datetime | None]] = [
        (first, last, held_until if status == Status.HELD else None) for first, last, status, held_until in others
    ]
    return ranges + [(first, last, None) for first, last in blocks_between(reservation.property, start, end).values_list("start", "end")]


def keep_agent_party(reservation_id: str, party: dict[str, Any]) -> Reservation:
    """A UCP session's guests[] and guest assignments, kept on its live hold as the platform sent
    them (ids preserved) and replaced by each update; the stay and its price do not change."""
    Reservation.objects.filter(pk=reservation_id, status=Status.HELD).update(agent_party=party)
    return get_reservation(reservation_id)
