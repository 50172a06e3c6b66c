"""A quote's price breakdown as JSON data: stored on the reservation when it is held
(Reservation.price_breakdown) and shown by every interface (booking/api/presenters.py).

Money goes out as JSON numbers (docs/contract.md, "Stays and money"): each Decimal is already
rounded to cents, so the float it becomes prints exactly those cents.
"""

from decimal import Decimal
from typing import Any

from django.utils.translation import get_language, gettext

from booking.catalog import pricing
from booking.catalog.pricing import money


def number(value: Decimal) -> float | int:
    return float(value)


def breakdown_json(quote: pricing.Quote, *, rate: Decimal = Decimal("1"), currency: str | None = None) -> dict[str, Any]:
    """Spec 2.2 price_breakdown, plus the per-night lines. In another currency each line is
    converted and the total re-added, so total = accommodation + discount + cleaning + tax holds."""

    def conv(amount: Decimal) -> Decimal:
        return pricing.convert(amount, rate) if rate != 1 else amount

    accommodation = conv(quote.accommodation)
    discounts = [(d, conv(d.amount)) for d in quote.discounts]
    discount_amount = sum((amount for _, amount in discounts), Decimal("0.00"))
    extras = [(line, conv(line.amount)) for line in quote.extras]
    extras_total = sum((amount for _, amount in extras), Decimal("0.00"))
    cleaning_fee = conv(quote.cleaning_fee)
    city_tax = conv(quote.city_tax)
    language = get_language()
    return {
        "nights": len(quote.nights),
        "nightly_avg": number(money(accommodation / len(quote.nights))),
        "accommodation": number(accommodation),
        "discount_label": " + ".join(gettext(d.label) for d in quote.discounts) or None,
        "discount_percent": number(quote.discount_percent),
        "discount_amount": number(discount_amount),
        "discounts": [
            {"label": gettext(d.label), "percent": None if d.percent is None else number(d.percent), "amount": number(amount), "code": d.code}
            for d, amount in discounts
        ],
        "cleaning_fee": number(cleaning_fee),
        "cleaning_fee_label": quote.cleaning_fee_label,
        "city_tax": number(city_tax),
        "city_tax_note": quote.city_tax_note,
        "extras": [{"code": line.code, "label": line.extra.name(language), "quantity": line.quantity, "amount": number(amount)} for line, amount in extras],
        "extras_total": number(extras_total),
        "total": number(accommodation + discount_amount + cleaning_fee + city_tax + extras_total),
        "currency": currency or quote.currency,
        "price_source": quote.price_source,
        "nightly_rates": [
            {
                "date": n.night.isoformat(),
                "rate": number(conv(n.rate)),
                "extra_guest_fee": number(conv(n.extra_guest_fee)),
                "amount": number(conv(n.amount)),
                "source": n.source,
            }
            for n in quote.nights
        ],
    }
