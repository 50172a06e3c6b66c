"""What a stay costs and what is paid when, in the reader's words (DESIGN "Finishing what a guest and
an owner see": money adds up on every page).

One reading of a reservation's frozen breakdown as lines that sum to its total, extras included
(`stay_lines`), and one sentence for what a checkout takes now (`paid_now_sentence`: "Deposit 30 %
of 849,00 €: 254,70 €; balance 594,30 € on 26 Dec 2026"). The sandbox checkout page, Stripe's line
item, the emails and the back office read them, each in the active language, so no reader sees a
line the others leave out.
"""

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, override

from booking.catalog import payment_schedule as schedules
from booking.catalog.accepted_terms import payment_terms
from booking.catalog.breakdown_words import Money, email_money, read_breakdown
from booking.formatting import date_range, format_date, with_elision
from booking.reservations.models import Reservation

ZERO = Decimal("0.00")


@dataclass(frozen=True)
class Line:
    label: str
    amount: Decimal


def _amount(value) -> Decimal:
    return Decimal(str(value or 0)).quantize(Decimal("0.01"))


def stay_lines(reservation: Reservation) -> list[Line]:
    """The breakdown line by line in the active language: accommodation, each discount, the
    cleaning fee, each extra, the city tax. Lines of zero are left out; the rest sum to the total."""
    shown = read_breakdown(reservation.price_breakdown or {}, reservation.property)
    if not shown:
        return [Line(_("Total"), _amount(reservation.total))]
    nights = shown.get("nights") or reservation.nights
    lines = [
        Line(
            ngettext("Accommodation (%(nights)s night)", "Accommodation (%(nights)s nights)", nights) % {"nights": nights}, _amount(shown.get("accommodation"))
        )
    ]
    discounts = shown.get("discounts") or []
    if discounts:
        lines += [Line(d.get("label") or _("Discount"), _amount(d.get("amount"))) for d in discounts]
    elif shown.get("discount_amount"):  # a breakdown older than its discounts as lines
        lines.append(Line(shown.get("discount_label") or _("Discount"), _amount(shown.get("discount_amount"))))
    lines.append(Line(shown.get("cleaning_fee_label") or _("Cleaning"), _amount(shown.get("cleaning_fee"))))
    for extra in shown.get("extras") or []:
        quantity = int(extra.get("quantity") or 1)
        lines.append(Line(f"{extra['label']} × {quantity}" if quantity > 1 else extra["label"], _amount(extra.get("amount"))))
    lines.append(Line(_("City tax"), _amount(shown.get("city_tax"))))
    return [line for line in lines if line.amount != ZERO]


def balance_entry(reservation: Reservation) -> schedules.ScheduleEntry | None:
    """The deferred part of the stay's schedule (the balance and its due date), or None when the
    stay is paid in full at once."""
    return schedules.balance_entry(schedules.stored_schedule(reservation.payment_schedule, reservation.total))


def day(value: date) -> str:
    """A due date the one way guests read dates in this project: "26 Dec 2026", "26 dic 2026"."""
    return format_date(value, "j M Y")


def paid_now_sentence(reservation: Reservation, amount_now: Decimal, *, purpose: str = "", money: Money = email_money) -> str:
    """What this checkout takes, named: the deposit with its percent, the total and the balance's
    date; the balance of a confirmed stay; or the total at once. `money` writes the amounts as the
    page around it does ("849.00 EUR" by default, as in emails; "€849.00" on an English page)."""
    currency = reservation.currency
    total, now = money(_amount(reservation.total), currency), money(_amount(amount_now), currency)
    if purpose == "balance":
        return _("Balance of the stay (total %(total)s): %(amount)s") % {"total": total, "amount": now}
    balance = balance_entry(reservation)
    if balance is None or purpose:
        return _("Paid in full now: %(amount)s") % {"amount": now}
    percent = payment_terms(reservation.accepted_terms or {}).deposit_percent
    if not percent and reservation.total:  # a stay held before its terms were kept: the share it pays now
        percent = (Decimal(amount_now) * 100 / reservation.total).quantize(Decimal("1"))
    percent = percent.normalize()
    words = {"percent": f"{percent:f}", "total": total, "amount": now, "balance": money(balance.amount, currency)}
    if balance.due_date is None:
        return _("Deposit %(percent)s %% of %(total)s: %(amount)s; balance %(balance)s later") % words
    return with_elision(_("Deposit %(percent)s %% of %(total)s: %(amount)s; balance %(balance)s on %(date)s") % {**words, "date": day(balance.due_date)})


def checkout_item(reservation: Reservation, amount_now: Decimal, *, purpose: str = "") -> tuple[str, str]:
    """The provider's one line item for a checkout, in the guest's language: its name says what is
    paid now (it is the amount charged), its description lists the stay's lines and total."""
    with override(reservation.language or "en"):
        currency = reservation.currency
        lines = [f"{line.label} {email_money(line.amount, currency)}" for line in stay_lines(reservation)]
        lines.append(_("Total %(total)s") % {"total": email_money(_amount(reservation.total), currency)})
        stay = f"{reservation.property.name}, {date_range(reservation.check_in, reservation.check_out)}"
        return paid_now_sentence(reservation, amount_now, purpose=purpose), f"{stay}: " + " · ".join(lines)


def still_paid(reservation: Reservation) -> Decimal:
    """What the guest has paid and not had back."""
    return max(ZERO, reservation.amount_paid - reservation.amount_refunded)
