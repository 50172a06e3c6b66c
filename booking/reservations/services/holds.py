"""Holds: the write that must never double-book.

The availability check and the insert happen in one transaction under the property lock (see
locking.py), so two requests for overlapping nights are serialised: the second sees the first's
hold and gets DatesUnavailable. Holds past hold_expires_at stop blocking at that instant; the
hold path marks such overlapping holds `expired` before it inserts, so the PostgreSQL exclusion
constraint (active reservations may not overlap) never trips over a lapsed hold.
"""

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.db import IntegrityError
from django.utils import timezone

from booking.callers import Caller
from booking.catalog import accepted_terms, pricing
from booking.catalog.breakdown import stored_breakdown
from booking.catalog.host_price import HostPriceRefused, at_host_price
from booking.catalog.models import Property
from booking.catalog.payment_schedule import payment_schedule, schedule_json, terms_of
from booking.catalog.rules import rules_for_version
from booking.catalog.selectors import today
from booking.errors import DatesUnavailable, InvalidInput
from booking.reservations.models import Reservation
from booking.reservations.selectors import blocking_reservations, blocks_between, taken_ranges_and_holds, version_and_taken_ranges
from booking.reservations.services import offers, transitions
from booking.reservations.services.audit import record_event
from booking.reservations.services.limits import check_hold_rate, check_unpaid_holds
from booking.reservations.services.locking import calendar_lock
from booking.reservations.services.numbers import save_with_number

logger = logging.getLogger(__name__)

# Run before every hold, outside the calendar lock: apps that bring outside calendars up to date
# register here (partner_sync refreshes stale listing-platform feeds, so a night sold there minutes
# ago is not sold again here). The booking core does not import them; they import it.
_before_hold: list[Callable[[], None]] = []


def before_every_hold(hook: Callable[[], None]) -> None:
    if hook not in _before_hold:
        _before_hold.append(hook)


def _run_before_hold_hooks() -> None:
    for hook in _before_hold:
        try:
            hook()
        except Exception:  # best effort: a hook never blocks a booking
            logger.warning("%s failed before a hold; holding on the data already stored", getattr(hook, "__qualname__", hook), exc_info=True)


@dataclass(frozen=True)
class GuestDetails:
    first_name: str = ""
    last_name: str = ""
    email: str = ""
    phone: str = ""

    @classmethod
    def from_input(cls, data: dict[str, Any] | None) -> "GuestDetails":
        data = data or {}
        return cls(**{field: (data.get(field) or "").strip() for field in ("first_name", "last_name", "email", "phone")})


def hold_stay(
    *,
    check_in: date,
    check_out: date,
    guests: int,
    guest: GuestDetails | None = None,
    special_requests: str | None = None,
    staff_note: str = "",
    agent_name: str | None = None,
    caller: Caller | None = None,
    children_ages: list[int] | None = None,
    language: str = "en",
    promo_code: str | None = None,
    extras: list[dict[str, Any]] | None = None,
    hold_minutes: int | None = None,
    host_price: Decimal | None = None,
) -> Reservation:
    """Hold the stay's nights for HOLD_MINUTES, or raise DatesUnavailable (or RateLimited).

    `language` is the site language the guest booked in: their emails are written in it.

    Every interface holds through here (REST reservations and checkout links, MCP, A2A, the site),
    so each sees the same calendar: the before-hold hooks run first, then the check and the insert
    under the lock. A promo code's maximum uses are counted under the same lock (live holds
    included), so concurrent holds cannot take more uses than the code has; `extras` are
    validation.ExtrasField items. Bad offers are InvalidInput naming the field promo_code or extras.

    A booking the owner makes for a guest (services/owner_bookings.py) holds here too, with its own
    `hold_minutes` and, optionally, the host's special price (host_price.py: one breakdown line in
    place of the discounts; InvalidInput naming special_price when it cannot be one)."""
    if host_price is not None and promo_code:
        raise InvalidInput.field("promo_code", "A special price replaces every discount: no promo code with it.", "promo_code_invalid")
    caller = caller or Caller(Reservation.Source.API)
    client_ip = caller.client_ip
    check_hold_rate(client_ip)
    _run_before_hold_hooks()
    guest = guest or GuestDetails()
    stay = pricing.Stay(check_in, check_out)
    # First without the lock, in one query: nights already taken (or rules that refuse the stay)
    # are refused at once, as the availability endpoint would answer. Only a stay that looks free
    # queues for the lock, where the check is made again and is the one that counts. In a burst on
    # the same nights every request that arrives after the winner's commit leaves without waiting.
    # The nights either side are read too: a gap between two taken nights may be booked whole.
    window = pricing.gap_window(stay)
    prop_id, version, ranges = version_and_taken_ranges(*window)
    rules = rules_for_version(prop_id, version)
    offers.extras_for(rules, extras, stay)
    offers.promo_for(prop_id, promo_code, stay)
    refuse_unless_free(stay, guests, rules, ranges)
    try:
        with calendar_lock(prop_id) as version:
            check_unpaid_holds(client_ip)
            rules = rules_for_version(prop_id, version)
            now = timezone.now()
            expire_lapsed_holds_overlapping(prop_id, check_in, check_out, now)
            ranges = taken_ranges_and_holds(prop_id, *window, now)
            refuse_unless_free(stay, guests, rules, ranges)
            chosen = offers.extras_for(rules, extras, stay)
            promo, promo_id = offers.promo_for(prop_id, promo_code, stay, now=now)  # its uses, under the lock
            if settings.TEST_RACE_WINDOW_SECONDS:
                # Tests only (pretix does the same): widen the gap between the check and the insert,
                # so that the racing tests catch a missing lock on every run, not by luck.
                time.sleep(settings.TEST_RACE_WINDOW_SECONDS)
            taken = pricing.taken_nights_from_ranges([(start, end) for start, end, _ in ranges], *window)
            quote = pricing.quote(stay, guests, rules, children_ages or (), today=today(), taken_nights=taken, promo=promo, extras=chosen)
            if host_price is not None:
                quote = _at_host_price(quote, host_price)
            breakdown = stored_breakdown(quote)  # data: its labels are rendered when read, in the reader's language
            reservation = Reservation(
                property_id=prop_id,
                status=Reservation.Status.HELD,
                source=caller.source,
                check_in=check_in,
                check_out=check_out,
                guests=guests,
                children_ages=list(children_ages or ()),
                hold_expires_at=now + timedelta(minutes=hold_minutes or settings.HOLD_MINUTES),
                hold_minutes=hold_minutes,
                price_breakdown=breakdown,
                promo_code_id=promo_id,
                accepted_terms=accepted_terms.snapshot(rules),
                payment_schedule=schedule_json(payment_schedule(quote.total, check_in=check_in, today=today(), terms=terms_of(rules))),
                total=quote.total,
                currency=quote.currency,
                guest_first_name=guest.first_name,
                guest_last_name=guest.last_name,
                guest_email=guest.email,
                guest_phone=guest.phone,
                special_requests=special_requests or "",
                staff_note=staff_note,
                agent_name=agent_name or "",
                client_ip=client_ip,
                language=language,
                created_at=now,
            )
            save_with_number(reservation)
            record_event(reservation, action="hold", actor=caller.actor(agent_name), message="held_until", params={"until": reservation.hold_expires_at})
    except IntegrityError as error:
        # The PostgreSQL exclusion constraint: only reachable if the lock was bypassed.
        raise DatesUnavailable("These dates were just taken.", pricing.Unavailable.BOOKED) from error
    return reservation


def _at_host_price(quote: pricing.Quote, price: Decimal) -> pricing.Quote:
    try:
        return at_host_price(quote, price)
    except HostPriceRefused as refused:
        messages = {
            "not_positive": "The special price must be more than zero.",
            "above_list_price": f"The special price can only lower the price: at most {refused.limit} {quote.currency}.",
            "below_fees": f"The special price must cover the fees: at least {refused.limit} {quote.currency}.",
        }
        context = {"limit": str(refused.limit), "currency": quote.currency}
        raise InvalidInput.field("special_price", messages[refused.kind], f"special_price_{refused.kind}", context) from None


def refuse_unless_free(stay: pricing.Stay, guests: int, rules: pricing.PricingRules, ranges: list[tuple[date, date, datetime | None]]) -> None:
    """Raise DatesUnavailable unless the rules allow the stay and none of its nights is in `ranges`
    (taken_ranges_and_holds: each hold's lapse instant tells an agent when the nights may free up)."""
    verdict = pricing.check_stay_against_ranges(stay, guests, rules, ranges, today())
    if not verdict.available:
        raise DatesUnavailable(verdict.message, verdict.reason, held_until=verdict.held_until)


def expire_lapsed_holds_overlapping(prop: Property | int, start: date, end: date, now: datetime) -> int:
    """Mark holds past their expiry that overlap [start, end) as expired (inside the lock)."""
    property_id = prop if isinstance(prop, int) else prop.pk
    # Only the status is read and written: asked on every hold, and a full row costs more to build.
    lapsed = list(
        Reservation.objects.filter(
            property_id=property_id, status=Reservation.Status.HELD, hold_expires_at__lte=now, check_in__lt=end, check_out__gt=start
        ).only("status")
    )
    for reservation in lapsed:
        transitions.expire(reservation, actor="hold path")
    return len(lapsed)


def nights_free_for(reservation: Reservation, now: datetime | None = None) -> bool:
    """Whether the reservation's nights are free of every other stay and block (call under the lock)."""
    return not taken_ranges_excluding(reservation, now)


def taken_ranges_excluding(reservation: Reservation, now: datetime | None = None) -> list[tuple[date, date]]:
    now = now or timezone.now()
    stays = blocking_reservations(reservation.property, reservation.check_in, reservation.check_out, now).exclude(pk=reservation.pk)
    return list(stays.values_list("check_in", "check_out")) + list(
        blocks_between(reservation.property, reservation.check_in, reservation.check_out).values_list("start", "end")
    )
