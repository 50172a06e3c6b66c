"""Changing a confirmed stay's dates: by staff from the reservation's admin page, by the guest from
their manage page within the rules below (docs/date-changes.md).

The stay is priced again with the rules in force for the new dates (its extras and its promo code
kept where they still apply), its accepted cancellation and payment terms are kept, and its payment
schedule is recomputed for the new total and check-in. Under the calendar lock the hold path takes
(locking.py), the new nights are checked free of every other stay, live hold and block (the stay's
own nights do not count against it) and the stay moves: the old nights are freed and the new ones
taken in the same transaction, audited, with the guest's "dates changed" email queued in it (and,
when the guest made the change, one notice to the owner in the owner's language).

The money follows: a dearer stay owes the difference as its balance (paid from the manage page's
existing balance checkout, or charged on the balance date); a cheaper one gives back what was paid
beyond the new total through the refund service: requested under the lock, in the change's
transaction (refunds.request_refund_locked), and asked of the provider after the commit, with an
idempotency key of the change (a process that dies in between leaves it to the refund job). What such refunds gave back is owed again if the stay later
costs more (balances.balance_owed).
"""

import logging
import time
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.db import IntegrityError
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import gettext as _

from booking.catalog import accepted_terms, pricing
from booking.catalog.breakdown import stored_breakdown
from booking.catalog.host_price import HostPriceRefused, at_host_price, least_price, list_price
from booking.catalog.payment_schedule import (
    DEFERRED,
    IMMEDIATE,
    PaymentTerms,
    ScheduleEntry,
    balance_entry,
    payment_schedule,
    schedule_from_json,
    schedule_json,
    stored_schedule,
    terms_of,
)
from booking.catalog.rules import promo_rule, rules_for
from booking.catalog.selectors import today
from booking.errors import BookingError, DatesUnavailable
from booking.formatting import format_date
from booking.outbox.models import OutboundEmail
from booking.outbox.notifications import queue_notice
from booking.payments.models import ProviderRefund
from booking.payments.selectors import DATE_CHANGE_REFUND_PREFIX
from booking.payments.services import refunds
from booking.payments.services.balances import balance_owed, close_stale_balance_checkouts, manage_url, queue_guest_notice
from booking.reservations.calendar_file import DATES_CHANGED_ACTION
from booking.reservations.emails import admin_url
from booking.reservations.models import Reservation
from booking.reservations.selectors import blocking_reservations, blocks_between
from booking.reservations.services.audit import flag_for_staff, record_event
from booking.reservations.services.holds import _run_before_hold_hooks, expire_lapsed_holds_overlapping
from booking.reservations.services.locking import reservation_transaction
from booking.reservations.services.owner_alerts import in_owner_language

logger = logging.getLogger(__name__)
Status = Reservation.Status
ZERO = Decimal("0.00")
ACTION = DATES_CHANGED_ACTION  # the audit action; the .ics SEQUENCE counts them


class DateChangeNotAllowed(BookingError):
    """The change is refused for a reason other than the calendar (see `reason`)."""

    status = 409
    code = "date_change_not_allowed"
    default_detail = "The dates of this stay cannot be changed."

    # Reasons, for the pages to say in the reader's language.
    NOT_CONFIRMED = "not_confirmed"
    TOO_LATE = "too_late"  # the guest: past the full-refund tier of the accepted policy
    SAME_DATES = "same_dates"
    IN_THE_PAST = "in_the_past"
    PRICE_CHANGED = "price_changed"  # the total confirmed is no longer the total
    REFUND_NOT_ALLOWED = "refund_not_allowed"  # the change would refund, and the person may not refund
    ON_CHANNEL = "on_channel"  # booked on a listing platform, which owns its dates and price

    def __init__(self, detail: str | None = None, reason: str = ""):
        super().__init__(detail)
        self.reason = reason


@dataclass(frozen=True)
class DateChangeQuote:
    """What moving the stay to the new dates costs, read from the stay as it is now."""

    reservation_id: str
    old_check_in: date
    old_check_out: date
    check_in: date
    check_out: date
    old_total: Decimal
    total: Decimal
    currency: str
    owed: Decimal  # the balance the stay will owe after the change
    refund: Decimal  # what goes back to the guest's card
    breakdown: dict[str, Any]
    schedule: list[dict[str, Any]]
    special_price: Decimal | None = None  # the host's special price kept for the new dates (before the city tax)

    @property
    def difference(self) -> Decimal:
        return self.total - self.old_total

    @property
    def owed_due_date(self) -> date | None:
        """When the balance job charges what is owed to the saved card (the schedule's balance date)."""
        entry = balance_entry(schedule_from_json(self.schedule))
        return entry.due_date if entry is not None else None

    @property
    def nights(self) -> int:
        return (self.check_out - self.check_in).days


@dataclass(frozen=True)
class DateChange:
    """A change made: the stay as it is now, what it cost, and whether the refund went through."""

    reservation: Reservation
    quote: DateChangeQuote
    refund_failed: str = ""  # the provider's answer when the refund could not be made (staff are flagged)


# --- The guest's rules --------------------------------------------------------------------------


def on_channel_refusal() -> DateChangeNotAllowed:
    return DateChangeNotAllowed(
        "This stay was booked on a listing platform: change its dates there; the change reaches this calendar by itself.",
        DateChangeNotAllowed.ON_CHANNEL,
    )


def full_refund_days(reservation: Reservation) -> int | None:
    """The fewest days before arrival at which the accepted policy still refunds everything; None
    when no tier does (the guest then asks the host to change the dates)."""
    full = [tier.days_before_arrival for tier in accepted_terms.tiers(reservation.accepted_terms) if tier.refund_percent >= 100]
    return min(full) if full else None


def guest_change_refusal(reservation: Reservation, *, on: date | None = None) -> DateChangeNotAllowed | None:
    """Why the guest may not change this stay's dates themselves now, or None if they may: only a
    confirmed stay, and only while cancelling it would still refund everything."""
    if reservation.status != Status.CONFIRMED:
        return DateChangeNotAllowed("Only a confirmed stay's dates can be changed.", DateChangeNotAllowed.NOT_CONFIRMED)
    if reservation.channel_booking_id:
        return on_channel_refusal()
    days = full_refund_days(reservation)
    on = on or today()
    if days is None or (reservation.check_in - on).days < days:
        return DateChangeNotAllowed(
            "The dates can be changed online only while the stay can still be cancelled with a full refund; please contact us.",
            DateChangeNotAllowed.TOO_LATE,
        )
    return None


# --- Pricing the new dates ----------------------------------------------------------------------


def quote_change(reservation_id: str, check_in: date, check_out: date, *, by_guest: bool) -> DateChangeQuote:
    """The preview: the new price and what it means for the money, or the error the change would
    meet (DatesUnavailable, DateChangeNotAllowed). Read without the lock; change_dates checks again."""
    reservation = Reservation.objects.select_related("property").get(pk=reservation_id)
    return _quote(reservation, check_in, check_out, by_guest=by_guest, now=timezone.now())


def _quote(reservation: Reservation, check_in: date, check_out: date, *, by_guest: bool, now: datetime) -> DateChangeQuote:
    if by_guest and (refusal := guest_change_refusal(reservation)) is not None:
        raise refusal
    if reservation.status != Status.CONFIRMED:
        raise DateChangeNotAllowed("Only a confirmed stay's dates can be changed.", DateChangeNotAllowed.NOT_CONFIRMED)
    if reservation.channel_booking_id:  # whoever asks: the change would not reach the platform
        raise on_channel_refusal()
    if check_out <= check_in:
        raise DatesUnavailable("Check-out must be after check-in.", pricing.Unavailable.MIN_STAY)
    if (check_in, check_out) == (reservation.check_in, reservation.check_out):
        raise DateChangeNotAllowed("These are the stay's dates already.", DateChangeNotAllowed.SAME_DATES)
    if by_guest and check_in < today():
        raise DateChangeNotAllowed("The new check-in cannot be in the past.", DateChangeNotAllowed.IN_THE_PAST)
    prop = reservation.property
    rules = rules_for(prop)
    if (check_out - check_in).days > rules.max_nights:  # refused before reading the calendar night by night
        raise DatesUnavailable(f"Stays last at most {rules.max_nights} nights.", pricing.Unavailable.MAX_STAY)
    stay = pricing.Stay(check_in, check_out)
    window = pricing.gap_window(stay)
    ranges = _taken_ranges_without(reservation, *window, now)
    verdict = pricing.check_stay_against_ranges(stay, reservation.guests, rules, ranges, today())
    if not verdict.available:
        raise DatesUnavailable(verdict.message, verdict.reason, held_until=verdict.held_until)
    taken = pricing.taken_nights_from_ranges([(start, end) for start, end, _ in ranges], *window)
    quote = pricing.quote(
        stay,
        reservation.guests,
        rules,
        reservation.children_ages or (),
        today=today(),
        taken_nights=taken,
        promo=_promo_still_valid(reservation, stay),
        extras=_extras_still_offered(reservation, rules, stay),
    )
    special = _special_price_kept(reservation, quote)
    if special is not None:
        quote = special
    breakdown = stored_breakdown(quote)  # data, as at hold time: labels are rendered when read
    terms = accepted_terms.payment_terms(reservation.accepted_terms) if reservation.accepted_terms else None
    state = refunds.refund_state(reservation)
    net_paid = state.paid - state.refunded - state.pending - state.in_flight
    refund = max(ZERO, net_paid - quote.total) if reservation.payment_intent_id else ZERO
    owed = balance_owed(reservation, total=quote.total) if refund == 0 else ZERO
    schedule = _schedule_after_change(reservation, quote.total, check_in, terms or terms_of(rules), owed)
    return DateChangeQuote(
        reservation_id=reservation.pk,
        old_check_in=reservation.check_in,
        old_check_out=reservation.check_out,
        check_in=check_in,
        check_out=check_out,
        old_total=reservation.total,
        total=quote.total,
        currency=reservation.currency,
        owed=owed,
        refund=refund,
        breakdown=breakdown,
        schedule=schedule_json(schedule),
        special_price=quote.total - quote.city_tax if special is not None else None,
    )


def _schedule_after_change(reservation: Reservation, total: Decimal, check_in: date, terms: PaymentTerms, owed: Decimal) -> tuple[ScheduleEntry, ...]:
    """The schedule for the new total and check-in under the accepted terms. When the stay will owe
    something and those terms leave no balance date ahead (the new check-in is within
    balance_due_days, or the stay was paid in full), what it owes becomes the deferred entry, due on
    the day of the change (or on its old balance date, if that passed unpaid), after an immediate
    entry of what was paid: the amounts still sum to the total, and the balance job charges it (a
    refused card takes the usual declined, grace and flag path) while the guest may pay it by link."""
    schedule = payment_schedule(total, check_in=check_in, today=today(), terms=terms)
    if owed <= 0 or balance_entry(schedule) is not None:
        return schedule
    due = today()
    old = balance_entry(stored_schedule(reservation.payment_schedule, reservation.total))
    if old is not None and old.due_date is not None and old.due_date < due and balance_owed(reservation) > 0:
        due = old.due_date  # already overdue: the change does not restart its grace days
    paid = total - owed
    return ((ScheduleEntry(IMMEDIATE, paid, None),) if paid > 0 else ()) + (ScheduleEntry(DEFERRED, owed, due),)


SPECIAL_PRICE_BOOKED = "booked_for_guest_special_price"  # the owner booking's history entry (services/owner_bookings.py)


def _special_price_kept(reservation: Reservation, quote: pricing.Quote) -> pricing.Quote | None:
    """A stay the owner booked at a special price (host_price.py) keeps the host's price for its
    accommodation per night, times the new nights, plus the new dates' fees (cleaning, extras) and
    city tax: the same one "Special price from the host" line, never above the new list price nor
    below the fees. None for any other stay (priced as a new booking)."""
    if not reservation.events.filter(message=SPECIAL_PRICE_BOOKED).exists():
        return None
    old = reservation.price_breakdown or {}
    old_nights = (reservation.check_out - reservation.check_in).days
    try:
        per_night = (pricing.money(str(old.get("accommodation", 0))) + pricing.money(str(old.get("discount_amount", 0)))) / max(old_nights, 1)
        price = min(max(pricing.money(per_night * len(quote.nights)) + least_price(quote), least_price(quote)), list_price(quote))
        return at_host_price(quote, price)
    except (HostPriceRefused, ArithmeticError, ValueError):
        return None


def _taken_ranges_without(reservation: Reservation, start: date, end: date, now: datetime) -> list[tuple[date, date, datetime | None]]:
    """Every stay, live hold and block (staff and partner) over [start, end) except this stay."""
    stays = blocking_reservations(reservation.property, start, end, now).exclude(pk=reservation.pk)
    ranges = [
        (first, last, expires if status == Status.HELD else None)
        for first, last, status, expires in stays.values_list("check_in", "check_out", "status", "hold_expires_at")
    ]
    return ranges + [(first, last, None) for first, last in blocks_between(reservation.property, start, end).values_list("start", "end")]


def _promo_still_valid(reservation: Reservation, stay: pricing.Stay) -> pricing.PromoCode | None:
    """The stay's code, if it still applies to the new dates (its use is this stay's already)."""
    if reservation.promo_code is None:
        return None
    rule = promo_rule(reservation.promo_code)
    return None if pricing.promo_problem(rule, stay, today()) else rule


def _extras_still_offered(reservation: Reservation, rules: pricing.PricingRules, stay: pricing.Stay) -> tuple[pricing.ExtraChoice, ...]:
    """The stay's extras, priced for the new dates; one the owner no longer offers for them is dropped."""
    chosen = []
    for line in (reservation.price_breakdown or {}).get("extras") or ():
        choice = pricing.ExtraChoice(str(line.get("code")), int(line.get("quantity") or 1))
        if pricing.extra_problem(rules, choice, stay, today()) is None:
            chosen.append(choice)
    return tuple(chosen)


# --- The change -----------------------------------------------------------------------------------


def change_dates(
    reservation_id: str,
    check_in: date,
    check_out: date,
    *,
    actor: str,
    by_guest: bool,
    expected_total: Decimal | None = None,
    may_refund: bool = True,
) -> DateChange:
    """Move a confirmed stay to [check_in, check_out): DatesUnavailable when a new night is taken or
    the rules refuse the stay, DateChangeNotAllowed otherwise (the stay is then untouched). With
    `expected_total` (the total the person confirmed) a price that moved since is refused too; with
    `may_refund` False (staff without the refund permission) so is a change that would refund."""
    _run_before_hold_hooks()  # as before a hold: stale listing-platform feeds are brought up to date first
    try:
        with reservation_transaction(reservation_id) as locked:
            now = timezone.now()
            expire_lapsed_holds_overlapping(locked.property_id, check_in, check_out, now)
            quote = _quote(locked, check_in, check_out, by_guest=by_guest, now=now)
            if quote.refund > 0 and not may_refund:
                raise DateChangeNotAllowed("This change would refund the guest, which needs the refund permission.", DateChangeNotAllowed.REFUND_NOT_ALLOWED)
            if expected_total is not None and pricing.money(expected_total) != quote.total:
                raise DateChangeNotAllowed("The price of the new dates has changed; look at it again before confirming.", DateChangeNotAllowed.PRICE_CHANGED)
            if settings.TEST_RACE_WINDOW_SECONDS:  # tests only, as in the hold path: a missing lock shows on every run
                time.sleep(settings.TEST_RACE_WINDOW_SECONDS)
            locked.check_in, locked.check_out = check_in, check_out
            locked.price_breakdown, locked.total, locked.payment_schedule = quote.breakdown, quote.total, quote.schedule
            locked.save(update_fields=["check_in", "check_out", "price_breakdown", "total", "payment_schedule", "updated_at"])
            record_event(
                locked,
                action=ACTION,
                actor=actor,
                from_status=locked.status,
                message="dates_changed_refund" if quote.refund else "dates_changed_owed",
                params={
                    "old_check_in": quote.old_check_in,
                    "old_check_out": quote.old_check_out,
                    "check_in": check_in,
                    "check_out": check_out,
                    "old_total": quote.old_total,
                    "total": quote.total,
                    "refund": quote.refund,
                    "owed": quote.owed,
                    "currency": quote.currency,
                },
            )
            queue_guest_notice(
                locked,
                OutboundEmail.Kind.DATES_CHANGED,
                "emails/guest_dates_changed.txt",
                change=quote,
                pay_url=manage_url(locked) + "/pay-balance" if quote.owed > 0 else "",
            )
            if by_guest:  # staff who moved a stay know it already
                queue_owner_notice(locked, quote)
            changes = locked.events.filter(action=ACTION).count()
            requests, refund_failed = _request_refund(locked, quote, actor=actor, key=f"{DATE_CHANGE_REFUND_PREFIX}{reservation_id}-{changes}")
    except IntegrityError as error:  # the PostgreSQL exclusion constraint: only if the lock was bypassed
        raise DatesUnavailable("These dates were just taken.", pricing.Unavailable.BOOKED) from error
    close_stale_balance_checkouts(reservation_id)  # an old balance page's amount is no longer the balance
    if requests:
        refund_failed = _refund(requests)  # a failure is flagged ("Refund failed…") and the owner told by the refund service
    elif refund_failed:  # the refund could not even be requested
        logger.warning("date change of %s: refund not made: %s", reservation_id, refund_failed)
        params = {"amount": quote.refund, "currency": quote.currency, "reason": refund_failed}
        flag_for_staff(reservation_id, actor=actor, message="flag_date_change_refund_failed", params=params)
    return DateChange(Reservation.objects.select_related("property").get(pk=reservation_id), quote, refund_failed)


def queue_owner_notice(reservation: Reservation, quote: DateChangeQuote) -> OutboundEmail | None:
    """Owe the owner one email saying the guest moved their stay: old and new dates, old and new
    total, what the guest still owes or gets back; written now in the owner's language (the
    outbox row's kind is DATES_CHANGED, its recipient the owner). Call in the change's transaction."""
    with in_owner_language():
        guest = reservation.guest_name or reservation.guest_email or reservation.pk
        values = {"guest": guest, "check_in": format_date(quote.check_in, "j M Y"), "check_out": format_date(quote.check_out, "j M Y")}
        subject = _("Dates changed by the guest: %(guest)s, now %(check_in)s to %(check_out)s") % values
        body = render_to_string(
            "emails/owner_dates_changed.txt",
            {"reservation": reservation, "property": reservation.property, "change": quote, "guest": guest, "admin_url": admin_url(reservation)},
        )
    return queue_notice(
        kind=OutboundEmail.Kind.DATES_CHANGED,
        reservation=reservation,
        subject=("[TEST] " if reservation.payment_provider == "sandbox" else "") + subject,
        body=body,
        to=settings.OWNER_EMAIL or reservation.property.contact_email,
        reply_to=reservation.guest_email,
    )


def _request_refund(locked: Reservation, quote: DateChangeQuote, *, actor: str, key: str) -> tuple[list[ProviderRefund], str]:
    """Under the lock, in the change's transaction: the refund of what was paid beyond the new total
    is written as REQUESTED through the one refund service, so if the process dies after the commit
    the refund job makes it (same key). Returns the requests, or the reason none could be written
    (the stay still moves; staff are flagged)."""
    if quote.refund <= 0:
        return [], ""
    try:
        return refunds.request_refund_locked(locked, actor=actor, amount=quote.refund, reason="dates changed: paid beyond the new total", request_key=key), ""
    except BookingError as error:
        return [], error.detail


def _refund(requests: list[ProviderRefund]) -> str:
    """After the commit: ask the provider for the requests. A failure leaves the stay moved; the
    caller flags it for staff, who refund from the refund page."""
    try:
        refunds.make_refunds(requests)
    except BookingError as error:
        return error.detail
    return ""
