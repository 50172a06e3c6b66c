"""A quote's price breakdown as JSON: the data a reservation keeps (stored_breakdown: amounts,
discount kinds, extra codes and quantities, city-tax terms; never a label) and the API's body
(breakdown_json: the same with its labels in English, whatever the reader's language).

Labels are rendered when the breakdown is read (booking/catalog/breakdown_words.py): in the
reader's language on pages, in emails and in the back office; in English in the JSON API, MCP and
A2A. Money goes out as JSON numbers (docs/contract.md, "Stays and money"): each Decimal is already
rounded to cents, so the float it becomes prints exactly those cents.
"""

from decimal import Decimal
from typing import Any

from booking.catalog import pricing
from booking.catalog.pricing import money

# The keys of the API's breakdown, in its order (docs/contract.md): stored_breakdown leaves the labels out.
LABELS = ("discount_label", "cleaning_fee_label", "city_tax_note")


def number(value: Decimal) -> float | int:
    return float(value)


def terms_json(terms: pricing.CityTaxTerms | None) -> dict[str, Any] | None:
    if terms is None:
        return None
    return {
        "rate": str(terms.rate),
        "currency": terms.currency,
        "max_nights": terms.max_nights,
        "exempt_under_age": terms.exempt_under_age,
        "taxed": terms.taxed,
        "guests": terms.guests,
    }


def stored_breakdown(quote: pricing.Quote, *, rate: Decimal = Decimal("1"), currency: str | None = None) -> dict[str, Any]:
    """What a reservation keeps: spec 2.2 price_breakdown's amounts and the per-night lines, each
    discount's kind (with its percent, amount and code; a length-of-stay discount's min_nights), each
    extra's code and quantity, and the city tax's terms. In another currency each line is converted
    and the total re-added, so total = accommodation + discount + cleaning + tax + extras holds."""

    def conv(amount: Decimal) -> Decimal:
        return pricing.convert(amount, rate) if rate != 1 else amount

    accommodation = conv(quote.accommodation)
    discounts = [(d, conv(d.amount)) for d in quote.discounts]
    discount_amount = sum((amount for _, amount in discounts), Decimal("0.00"))
    extras = [(line, conv(line.amount)) for line in quote.extras]
    extras_total = sum((amount for _, amount in extras), Decimal("0.00"))
    cleaning_fee = conv(quote.cleaning_fee)
    city_tax = conv(quote.city_tax)
    return {
        "nights": len(quote.nights),
        "nightly_avg": number(money(accommodation / len(quote.nights))),
        "accommodation": number(accommodation),
        "discount_percent": number(quote.discount_percent),
        "discount_amount": number(discount_amount),
        "discounts": [
            {
                "kind": d.kind,
                "percent": None if d.percent is None else number(d.percent),
                "amount": number(amount),
                "code": d.code,
                **({"min_nights": d.min_nights} if d.min_nights is not None else {}),
            }
            for d, amount in discounts
        ],
        "cleaning_fee": number(cleaning_fee),
        "city_tax": number(city_tax),
        "city_tax_terms": terms_json(quote.city_tax_terms),
        "extras": [{"code": line.code, "quantity": line.quantity, "amount": number(amount)} for line, amount in extras],
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


def breakdown_json(quote: pricing.Quote, *, rate: Decimal = Decimal("1"), currency: str | None = None) -> dict[str, Any]:
    """Spec 2.2 price_breakdown for the JSON API, MCP and A2A: a quote's data with its labels in
    English (the pricing rules keep the owner's English words), whatever the reader's language."""
    stored = stored_breakdown(quote, rate=rate, currency=currency)
    english_names = {line.code: line.extra.name("en") for line in quote.extras}
    discounts = [
        {"label": d.label, "percent": line["percent"], "amount": line["amount"], "code": line["code"]}
        for d, line in zip(quote.discounts, stored["discounts"], strict=True)
    ]
    return api_shape(
        stored,
        discounts=discounts,
        extras=[{"code": line["code"], "label": english_names.get(line["code"], line["code"]), **_amounts(line)} for line in stored["extras"]],
        cleaning_fee_label=quote.cleaning_fee_label,
        city_tax_note=quote.city_tax_note,
    )


def _amounts(line: dict) -> dict:
    return {"quantity": line.get("quantity", 1), "amount": line.get("amount", 0)}


def api_shape(stored: dict, *, discounts: list[dict], extras: list[dict], cleaning_fee_label: str, city_tax_note: str) -> dict[str, Any]:
    """A breakdown with its labels, in the keys and order the API has always answered."""
    shown = {
        "nights": stored.get("nights"),
        "nightly_avg": stored.get("nightly_avg"),
        "accommodation": stored.get("accommodation"),
        "discount_label": " + ".join(line["label"] for line in discounts) or None,
        "discount_percent": stored.get("discount_percent"),
        "discount_amount": stored.get("discount_amount"),
        "discounts": discounts,
        "cleaning_fee": stored.get("cleaning_fee"),
        "cleaning_fee_label": cleaning_fee_label,
        "city_tax": stored.get("city_tax"),
        "city_tax_note": city_tax_note,
        "extras": extras,
        "extras_total": stored.get("extras_total"),
        "total": stored.get("total"),
        "currency": stored.get("currency"),
        "price_source": stored.get("price_source"),
        "nightly_rates": stored.get("nightly_rates", []),
    }
    return shown
