"""The numbers on the back-office home: what happens in the next two weeks, what is on hold, how
full and how profitable each month is, and what staff must look at.

Read-only selectors, one per block of the dashboard. Each block reads each table it needs once and
aggregates in Python (the month figures share one read, `load_window`), so the page costs the same
handful of queries with 3 reservations or 3,000.
Dates are plain dates in the property's time zone (settings.TIME_ZONE), like the stays themselves.

Definitions (the page states them too):
- A night is *booked* when a confirmed reservation or a partner (listing platform) block takes it.
- Occupancy = booked nights / (nights in the month - nights only a staff block takes): a night the
  owner closed was never for sale, so it is left out of the denominator and counted separately.
- Revenue = money kept: amount_paid - amount_refunded of every reservation, whatever its status (a
  cancelled stay's kept share counts; an unpaid balance does not), in the month of check-in.
- Average nightly rate = accommodation after the length-of-stay discount (no cleaning fee, no city
  tax) / nights, over confirmed stays arriving in the window.
"""

import calendar
import math
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from decimal import ROUND_HALF_UP, Decimal

from django.db.models import Q
from django.utils.translation import gettext as _

from booking.catalog.breakdown_words import read_breakdown
from booking.catalog.models import Property
from booking.catalog.payment_state import PaymentState, payment_state
from booking.reservations.attention import attention_notes
from booking.reservations.models import AttentionFlag, DateBlock, Reservation
from partner_sync.models import Conflict, Feed, SyncOutcome

Status = Reservation.Status
CENT = Decimal("0.01")
MOVEMENT_DAYS = 14
MONTHS_BEFORE = MONTHS_AFTER = 6


def property_currency() -> str:
    """What the property charges in; every amount on the dashboard is in it."""
    return Property.objects.order_by("pk").values_list("currency", flat=True).first() or "EUR"


def property_name() -> str:
    """The back office's header: the owner's own property, not "Django administration"."""
    return Property.objects.order_by("pk").values_list("name", flat=True).first() or ""


# --- Arrivals and departures ---------------------------------------------------------------------


@dataclass(frozen=True)
class Movement:
    """A guest arriving or leaving: a confirmed reservation, or a partner block (a platform's guest)."""

    day: date
    kind: str  # "arrival" or "departure"
    channel: str
    guest_name: str = ""
    guests: int | None = None
    total: Decimal | None = None
    amount_paid: Decimal | None = None
    amount_refunded: Decimal = Decimal("0.00")
    currency: str = ""
    reservation_id: str | None = None
    block_id: int | None = None
    extras: tuple[str, ...] = ()  # what to prepare: "Baby cot", "Airport transfer × 2" (the stay's extras)

    @property
    def payment(self) -> str:
        """The payment state (booking/payments/state.py, as the API and the reservation list show
        it); blank for partner stays (the platform collects). Also the row's CSS class."""
        if self.reservation_id is None or self.total is None or self.amount_paid is None:
            return ""
        return payment_state(total=self.total, amount_paid=self.amount_paid, amount_refunded=self.amount_refunded).value

    @property
    def payment_label(self) -> str:
        """`payment` in the page's language."""
        return str(PaymentState(self.payment).label) if self.payment else ""


def upcoming_movements(today: date, feeds: dict[str, str], days: int = MOVEMENT_DAYS) -> list[Movement]:
    """Arrivals and departures from today through the next `days` - 1 days, departures first on a
    changeover day (the flat is cleaned between them). `feeds`: see feed_names."""
    end = today + timedelta(days=days)
    movements = []
    reservations = (
        Reservation.objects.filter(status=Status.CONFIRMED)
        .filter(Q(check_in__gte=today, check_in__lt=end) | Q(check_out__gte=today, check_out__lt=end))
        .select_related("property")
    )
    for reservation in reservations:
        common = {
            "channel": reservation.get_source_display(),
            "guest_name": reservation.guest_name,
            "guests": reservation.guests,
            "total": reservation.total,
            "amount_paid": reservation.amount_paid,
            "amount_refunded": reservation.amount_refunded,
            "currency": reservation.currency,
            "reservation_id": reservation.pk,
            "extras": extras_of(reservation),
        }
        if today <= reservation.check_in < end:
            movements.append(Movement(day=reservation.check_in, kind="arrival", **common))
        if today <= reservation.check_out < end:
            movements.append(Movement(day=reservation.check_out, kind="departure", **common))
    blocks = DateBlock.objects.filter(source=DateBlock.Source.PARTNER).filter(Q(start__gte=today, start__lt=end) | Q(end__gte=today, end__lt=end))
    for block in blocks:
        common = {"channel": feeds.get(block.feed_key, block.feed_key or _("Listing platform")), "guest_name": block.reason, "block_id": block.pk}
        if today <= block.start < end:
            movements.append(Movement(day=block.start, kind="arrival", **common))
        if today <= block.end < end:
            movements.append(Movement(day=block.end, kind="departure", **common))
    return sorted(movements, key=lambda m: (m.day, m.kind != "departure", m.guest_name))


def extras_of(reservation: Reservation) -> tuple[str, ...]:
    """The extras of a stay as booked (its frozen breakdown), e.g. ("Baby cot", "Airport transfer × 2")."""
    stored = (reservation.price_breakdown or {}).get("extras") or []
    lines = read_breakdown(reservation.price_breakdown, reservation.property).get("extras") or [] if stored else []  # the reader's language
    return tuple(f"{line['label']} × {line['quantity']}" if line["quantity"] > 1 else line["label"] for line in lines)


@dataclass(frozen=True)
class CodeFigures:
    code: str
    bookings: int
    revenue: Decimal


def promo_code_figures() -> list[CodeFigures]:
    """Every promo code with its confirmed bookings and revenue (total - refunded), most revenue
    first: which codes bring guests direct. One query."""
    figures: dict[str, list] = {}
    confirmed = Reservation.objects.filter(status=Status.CONFIRMED, promo_code__isnull=False).values_list("promo_code__code", "total", "amount_refunded")
    for code, total, refunded in confirmed:
        entry = figures.setdefault(code, [0, Decimal("0")])
        entry[0] += 1
        entry[1] += total - refunded
    return sorted((CodeFigures(code, count, revenue) for code, (count, revenue) in figures.items()), key=lambda f: (-f.revenue, f.code))


def feed_names() -> dict[str, str]:
    """DateBlock.feed_key -> the feed's name, for every feed (one query)."""
    return {f"feed-{pk}": name for pk, name in Feed.objects.values_list("pk", "name")}


# --- Holds ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class OpenHold:
    reservation: Reservation
    minutes_left: int


def open_holds(now: datetime) -> list[OpenHold]:
    """Holds still blocking their dates, soonest to lapse first. A started minute counts as left."""
    holds = Reservation.objects.filter(status=Status.HELD, hold_expires_at__gt=now).order_by("hold_expires_at")
    return [OpenHold(hold, math.ceil((hold.hold_expires_at - now).total_seconds() / 60)) for hold in holds]


# --- Months: occupancy, revenue, nightly rate, channels ----------------------------------------------


@dataclass(frozen=True)
class MonthFigures:
    month: date  # its first day
    nights: int
    booked_nights: int
    staff_blocked_nights: int  # closed by the owner and not otherwise booked: left out of occupancy
    revenue: Decimal

    @property
    def nights_for_sale(self) -> int:
        return self.nights - self.staff_blocked_nights

    @property
    def occupancy_percent(self) -> Decimal | None:
        if not self.nights_for_sale:
            return None
        return (Decimal(100 * self.booked_nights) / self.nights_for_sale).quantize(Decimal("0.1"), ROUND_HALF_UP)


def add_months(month: date, count: int) -> date:
    index = month.year * 12 + month.month - 1 + count
    return date(index // 12, index % 12 + 1, 1)


def month_window(today: date) -> tuple[date, date]:
    """[first day of the month 6 months back, first day of the month after the 6th month ahead)."""
    this_month = today.replace(day=1)
    return add_months(this_month, -MONTHS_BEFORE), add_months(this_month, MONTHS_AFTER + 1)


def _nights(start: date, end: date, window_start: date, window_end: date):
    night = max(start, window_start)
    while night < min(end, window_end):
        yield night
        night += timedelta(days=1)


@dataclass(frozen=True)
class WindowRows:
    """What the month figures are computed from, read once: the confirmed stays and the blocks
    taking any night of [start, end)."""

    start: date
    end: date
    stays: list  # confirmed stays, named rows: status, source, check_in, check_out, amount_paid, amount_refunded, price_breakdown, total, channel_commission, channel_booking_id
    paid: list  # every reservation with money paid (the confirmed and the cancelled), same rows
    blocks: list  # named rows: source, feed_key, start, end


def load_window(today: date) -> WindowRows:
    """Two queries, whatever the number of stays: one per table."""
    start, end = month_window(today)
    rows = list(
        Reservation.objects.filter(Q(status=Status.CONFIRMED) | Q(amount_paid__gt=0), check_in__lt=end, check_out__gt=start).values_list(
            "status",
            "source",
            "check_in",
            "check_out",
            "amount_paid",
            "amount_refunded",
            "price_breakdown",
            "total",
            "channel_commission",
            "channel_booking_id",
            named=True,
        )
    )
    blocks = DateBlock.objects.filter(start__lt=end, end__gt=start).values_list("source", "feed_key", "start", "end", named=True)
    confirmed = [row for row in rows if row.status == Status.CONFIRMED]
    return WindowRows(start, end, confirmed, [row for row in rows if row.amount_paid > 0], list(blocks))


def monthly_occupancy_and_revenue(rows: WindowRows) -> list[MonthFigures]:
    """One MonthFigures per month of the window: the 6 before today's month, today's and the 6 after."""
    booked: set[date] = set()
    revenue: dict[date, Decimal] = defaultdict(Decimal)
    for stay in rows.stays:
        booked.update(_nights(stay.check_in, stay.check_out, rows.start, rows.end))
    for stay in rows.paid:
        if rows.start <= stay.check_in < rows.end:
            revenue[stay.check_in.replace(day=1)] += stay.amount_paid - stay.amount_refunded
    for stay in rows.stays:
        # A booking from a listing platform (docs/channex.md): the channel took the money; what
        # reaches the host is its amount less the channel's commission.
        if stay.channel_booking_id and rows.start <= stay.check_in < rows.end:
            revenue[stay.check_in.replace(day=1)] += stay.total - (stay.channel_commission or 0)
    staff: set[date] = set()
    for block in rows.blocks:
        (booked if block.source == DateBlock.Source.PARTNER else staff).update(_nights(block.start, block.end, rows.start, rows.end))
    staff -= booked  # a night both a platform and the owner took is booked, not closed
    booked_by_month: dict[date, int] = defaultdict(int)
    staff_by_month: dict[date, int] = defaultdict(int)
    for night in booked:
        booked_by_month[night.replace(day=1)] += 1
    for night in staff:
        staff_by_month[night.replace(day=1)] += 1
    months = []
    month = rows.start
    while month < rows.end:
        months.append(
            MonthFigures(
                month=month,
                nights=calendar.monthrange(month.year, month.month)[1],
                booked_nights=booked_by_month[month],
                staff_blocked_nights=staff_by_month[month],
                revenue=revenue[month].quantize(CENT),
            )
        )
        month = add_months(month, 1)
    return months


def average_nightly_rate(rows: WindowRows) -> Decimal | None:
    """Accommodation (after the length-of-stay discount; no cleaning fee, no city tax) per night of
    the confirmed stays arriving in the window. None when there are none."""
    amount, nights = Decimal(0), 0
    for stay in rows.stays:
        if rows.start <= stay.check_in < rows.end:
            # The breakdown holds JSON numbers already rounded to cents: str() gives those cents back.
            breakdown = stay.price_breakdown
            amount += Decimal(str(breakdown.get("accommodation", 0))) + Decimal(str(breakdown.get("discount_amount", 0)))
            nights += (stay.check_out - stay.check_in).days
    return (amount / nights).quantize(CENT, ROUND_HALF_UP) if nights else None


@dataclass(frozen=True)
class ChannelNights:
    channel: str
    direct: bool
    nights: int
    share_percent: Decimal = field(default=Decimal(0))


def nights_by_channel(rows: WindowRows, feeds: dict[str, str]) -> list[ChannelNights]:
    """Booked nights of the window by where they were sold: our own reservations by source
    (website, API, agents, back office) and each partner feed (`feeds`: see feed_names). Largest first."""
    labels = dict(Reservation._meta.get_field("source").flatchoices)  # in the page's language (config.admin)
    direct: dict[str, int] = defaultdict(int)
    partner: dict[str, int] = defaultdict(int)
    for stay in rows.stays:
        # A platform's booking received through the channel manager counts under the platform's name.
        counts = partner if stay.channel_booking_id else direct
        counts[labels.get(stay.source, stay.source)] += sum(1 for _night in _nights(stay.check_in, stay.check_out, rows.start, rows.end))
    channel_stays = {(stay.check_in, stay.check_out) for stay in rows.stays if stay.channel_booking_id}
    for block in rows.blocks:
        # A platform's iCal block with exactly the nights of a channel booking is that booking, seen twice.
        if block.source == DateBlock.Source.PARTNER and (block.start, block.end) not in channel_stays:
            partner[feeds.get(block.feed_key, block.feed_key or _("Listing platform"))] += sum(
                1 for _night in _nights(block.start, block.end, rows.start, rows.end)
            )
    counted = [ChannelNights(_("Direct: %(channel)s") % {"channel": label}, True, nights) for label, nights in direct.items()]
    counted += [ChannelNights(name, False, nights) for name, nights in partner.items()]
    total = sum(row.nights for row in counted)
    shared = [
        ChannelNights(row.channel, row.direct, row.nights, (Decimal(100 * row.nights) / total).quantize(Decimal("0.1"), ROUND_HALF_UP))
        for row in counted
        if row.nights
    ]
    return sorted(shared, key=lambda row: (-row.nights, row.channel))


# --- Needs attention ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Attention:
    flagged: list[Reservation]  # with an open AttentionFlag, e.g. a late payment for nights taken meanwhile
    refunds_pending: list[Reservation]  # cancelled, money owed back that the provider has not confirmed
    checkouts_to_reconcile: list[Reservation]  # a checkout opened for a hold that has lapsed: paid or not?
    failing_feeds: list[Feed]
    conflicts: list[Conflict]  # open: a platform booking overlaps a confirmed direct stay
    flag_notes: dict[str, str] = field(default_factory=dict)  # reservation id → why, in the reader's language

    @property
    def flagged_notes(self) -> list[tuple[Reservation, str]]:
        return [(r, self.flag_notes.get(r.pk, "")) for r in self.flagged]

    def __bool__(self) -> bool:
        return any([self.flagged, self.refunds_pending, self.checkouts_to_reconcile, self.failing_feeds, self.conflicts])


def needs_attention(now: datetime) -> Attention:
    flagged_q = Q(pk__in=AttentionFlag.objects.filter(resolved_at__isnull=True).values("reservation_id"))
    refund_q = Q(status=Status.CANCELLED, refund_pending__gt=0)
    reconcile_q = Q(status=Status.HELD, hold_expires_at__lte=now) & ~Q(checkout_session_id="")
    reservations = list(Reservation.objects.filter(flagged_q | refund_q | reconcile_q).order_by("check_in", "pk"))
    notes = attention_notes(reservations)
    return Attention(
        flagged=[r for r in reservations if r.pk in notes],
        flag_notes=notes,
        refunds_pending=[r for r in reservations if r.status == Status.CANCELLED and r.refund_pending > 0],
        checkouts_to_reconcile=[
            r for r in reservations if r.status == Status.HELD and r.checkout_session_id and r.hold_expires_at is not None and r.hold_expires_at <= now
        ],
        failing_feeds=list(Feed.objects.filter(enabled=True, last_outcome__in=[SyncOutcome.FAILED, SyncOutcome.HELD_BACK])),
        conflicts=list(Conflict.objects.filter(resolved_at__isnull=True).select_related("feed").order_by("start", "pk")),
    )
