"""When a stay is paid: a deposit now and the balance on a due date, or everything now.

Pure functions over Decimal and dates (docs/money.md; DESIGN "Money, second round"). Nothing here
reads the database or the clock: callers pass the owner's terms and today's local date, so the
schedule a guest is shown, the one stored on the reservation and the one the balance job charges
are the same computation.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal

from booking.catalog.pricing import PricingRules, money

ZERO = Decimal("0.00")
IMMEDIATE = "immediate"
DEFERRED = "deferred"


@dataclass(frozen=True)
class PaymentTerms:
    """The owner's payment terms. deposit_percent 0 or 100 means "pay in full"."""

    deposit_percent: Decimal = Decimal("0")
    balance_due_days: int = 0
    security_deposit: Decimal = Decimal("0")  # a refundable card hold, never part of the total

    @property
    def takes_deposit(self) -> bool:
        return Decimal("0") < self.deposit_percent < Decimal("100")


@dataclass(frozen=True)
class ScheduleEntry:
    type: str  # IMMEDIATE | DEFERRED
    amount: Decimal
    due_date: date | None  # None for the immediate part

    def as_json(self) -> dict:
        return {"type": self.type, "amount": float(self.amount), "due_date": self.due_date.isoformat() if self.due_date else None}


def payment_schedule(total: Decimal, *, check_in: date, today: date, terms: PaymentTerms) -> tuple[ScheduleEntry, ...]:
    """A deposit now and the balance on check-in − balance_due_days when check-in is more than
    balance_due_days days after `today` (the property's local date); otherwise the total now.

    The deposit is round_half_up(total × deposit_percent / 100) and the balance the rest, so the
    entries always sum to the total exactly. A schedule whose deposit or balance would round to
    nothing (a stay of a few cents) is paid in full."""
    total = money(total)
    in_full = (ScheduleEntry(IMMEDIATE, total, None),)
    if not terms.takes_deposit or (check_in - today).days <= terms.balance_due_days:
        return in_full
    deposit = money(total * terms.deposit_percent / 100)
    balance = total - deposit
    if deposit <= ZERO or balance <= ZERO:
        return in_full
    return (ScheduleEntry(IMMEDIATE, deposit, None), ScheduleEntry(DEFERRED, balance, check_in - timedelta(days=terms.balance_due_days)))


def schedule_json(schedule: Sequence[ScheduleEntry]) -> list[dict]:
    return [entry.as_json() for entry in schedule]


def schedule_from_json(entries: Sequence[dict]) -> tuple[ScheduleEntry, ...]:
    """The schedule stored on a reservation, back as entries."""
    return tuple(ScheduleEntry(e["type"], money(str(e["amount"])), date.fromisoformat(e["due_date"]) if e.get("due_date") else None) for e in entries)


def stored_schedule(entries: Sequence[dict], total: Decimal) -> tuple[ScheduleEntry, ...]:
    """A reservation's stored schedule; one held before schedules existed pays its total at once."""
    return schedule_from_json(entries) if entries else (ScheduleEntry(IMMEDIATE, money(total), None),)


def due_now(schedule: Sequence[ScheduleEntry]) -> Decimal:
    return sum((e.amount for e in schedule if e.type == IMMEDIATE), ZERO)


def balance_entry(schedule: Sequence[ScheduleEntry]) -> ScheduleEntry | None:
    return next((e for e in schedule if e.type == DEFERRED), None)


# --- Refunds when only part was paid -------------------------------------------------------------


@dataclass(frozen=True)
class PaidPart:
    """One payment the guest made (a provider payment intent), and how much of it is already back."""

    provider_id: str
    amount: Decimal
    refunded: Decimal = ZERO


def money_back(*, total: Decimal, refund_due: Decimal, amount_paid: Decimal, already_refunded: Decimal = ZERO) -> Decimal:
    """What the guest gets back when cancelling: the host keeps total − refund_due of the stay, so
    the guest gets max(0, amount_paid − (total − refund_due)), less what was already given back.
    An unpaid balance is simply waived (never charged to refund the policy's share)."""
    kept = money(total) - money(refund_due)
    return max(ZERO, money(amount_paid) - money(already_refunded) - kept)


def spread_refund(amount: Decimal, payments: Sequence[PaidPart]) -> list[tuple[str, Decimal]]:
    """Split a refund over the payments made, newest first (`payments` oldest first, as made),
    never giving back more of a payment than is left of it. Returns (provider_id, amount) pairs
    with positive amounts; raises ValueError if the payments cannot cover it."""
    left = money(amount)
    parts: list[tuple[str, Decimal]] = []
    for payment in reversed(payments):
        if left <= ZERO:
            break
        share = min(left, max(ZERO, money(payment.amount) - money(payment.refunded)))
        if share > ZERO:
            parts.append((payment.provider_id, share))
            left -= share
    if left > ZERO:
        raise ValueError(f"The payments made cannot cover a refund of {amount}.")
    return parts


def terms_of(rules: PricingRules) -> PaymentTerms:
    return PaymentTerms(deposit_percent=rules.deposit_percent, balance_due_days=rules.balance_due_days, security_deposit=money(rules.security_deposit))


def security_deposit_json(amount: Decimal, currency: str) -> dict | None:
    """How a security deposit is shown to guests and agents: a refundable hold, not a charge."""
    if amount <= 0:
        return None
    return {
        "amount": float(amount),
        "currency": currency,
        "kind": "card_hold",
        "refundable": True,
        "description": "Refundable security deposit (card hold): held on the card shortly before arrival and released after check-out; not part of the total.",
    }
