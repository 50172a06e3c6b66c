"""The price breakdown's words, rendered when it is read.

A reservation keeps its breakdown as data (booking/catalog/breakdown.py stored_breakdown): discount
kinds with their percent, amount and code, extra codes and quantities, the city tax's terms. Here
they become words in the active language: the owner's translated length-of-stay discount, extra and
cleaning-fee labels, the built-in labels (early-bird, last-minute, gap nights, promo code, the
host's special price) through the catalogue, and the city-tax note from its terms with its money
written the local way ("3,50 €" beside "31,50 €"). The JSON API, MCP and A2A read it in English
(english_breakdown), whatever the booking's language.

A breakdown stored before it was data (labels written in the language of the request that made the
hold) is rewritten to data by reservations' migration 0003; one left in that form (a line it could
not recognise) is shown with its words as they are."""

from collections.abc import Callable
from decimal import Decimal
from typing import Any

from django.utils.translation import gettext, gettext_noop, ngettext, override

from booking.catalog import pricing
from booking.catalog.breakdown import api_shape
from booking.catalog.host_price import HOST_PRICE_LABEL
from booking.catalog.models import Property
from booking.formatting import active_language, format_money

gettext_noop("Final cleaning")  # the cleaning fee's default label (Property.cleaning_fee_label)

# A discount's kind → its label, when it is not the owner's own (length of stay: theirs, by min_nights).
KIND_LABELS = {
    "early_bird": pricing.EARLY_BIRD_LABEL,
    "last_minute": pricing.LAST_MINUTE_LABEL,
    "gap": pricing.GAP_NIGHTS_LABEL,
    "promo": pricing.PROMO_CODE_LABEL,
    "host_price": HOST_PRICE_LABEL,
}

Money = Callable[[Decimal, str], str]


def email_money(amount, currency: str) -> str:
    """Amounts in emails: "240.00 EUR" in English (as they always were), "240,00 €" in Italian…"""
    if active_language() == "en":
        return f"{Decimal(str(amount)):.2f} {currency}"
    return format_money(amount, currency)


def api_money(amount, currency: str) -> str:
    """The API's English note writes the rate as the owner set it: "3.50 EUR"."""
    return f"{amount} {currency}"


def city_tax_text(terms: dict[str, Any] | None, money: Money = format_money) -> str:
    """How the city tax is counted, in the active language, from its terms ("" without terms)."""
    if not terms:
        return ""
    nights = int(terms["max_nights"])
    parts = [
        ngettext(
            "%(amount)s per person per night, for at most %(nights)s night, included in the total",
            "%(amount)s per person per night, for at most %(nights)s nights, included in the total",
            nights,
        )
        % {"amount": money(Decimal(str(terms["rate"])), terms["currency"]), "nights": nights}
    ]
    if terms.get("exempt_under_age"):
        parts.append(gettext("children under %(age)s are exempt when their ages are given at booking") % {"age": terms["exempt_under_age"]})
    if terms.get("taxed") is not None and terms.get("guests") is not None:
        parts.append(gettext("%(taxed)s of %(guests)s guests taxed") % {"taxed": terms["taxed"], "guests": terms["guests"]})
    return "; ".join(parts)


def property_city_tax_terms(prop: Property) -> dict[str, Any]:
    """The property's city-tax terms as they stand (the pages' and policies' note)."""
    return {
        "rate": str(prop.city_tax_per_person_night),
        "currency": prop.currency,
        "max_nights": prop.city_tax_max_nights,
        "exempt_under_age": prop.city_tax_exempt_under_age,
    }


def cleaning_fee_label(prop: Property, stored: str = "") -> str:
    """The cleaning fee's label in the active language: the owner's translation of it, else their
    English label (the default one through the catalogue). A breakdown stored with its words keeps
    its own when the owner renamed the fee since."""
    english = prop.cleaning_fee_label_en or ""
    if stored and stored != english:
        return gettext(stored)
    label = prop.cleaning_fee_label or english
    return gettext(label) if label and label == english else label


def discount_label(prop: Property, line: dict) -> str:
    """A discount line's label in the active language, from its kind: the owner's length-of-stay
    discount as they translated it, a built-in one through the catalogue. A line stored with its
    words (before breakdowns were data) keeps them, translated when they are the owner's or built-in."""
    kind = line.get("kind")
    if kind == "length_of_stay":
        for discount in prop.discounts.all():
            if discount.min_nights == line.get("min_nights"):
                return discount.label or discount.label_en or ""
        return gettext("Discount")
    if kind in KIND_LABELS:
        return gettext(KIND_LABELS[kind])
    stored = line.get("label") or ""
    for discount in prop.discounts.all():
        if discount.label_en == stored:
            return discount.label or stored
    return gettext(stored) if stored else gettext("Discount")


def extra_label(prop: Property, line: dict) -> str:
    """An extra's name in the active language, by its code (the owner's translation, else English)."""
    for extra in prop.extras.all():
        if extra.code == line.get("code"):
            return extra.name or extra.name_en or extra.code
    return line.get("label") or str(line.get("code") or "")


def read_breakdown(breakdown: dict, prop: Property, money: Money = format_money) -> dict:
    """A stored breakdown with its labels in the active language, in the API's shape."""
    if not breakdown:
        return {}
    discounts = [
        {"label": discount_label(prop, line), "percent": line.get("percent"), "amount": line.get("amount"), "code": line.get("code")}
        for line in breakdown.get("discounts") or []
    ]
    extras = [
        {"code": line.get("code"), "label": extra_label(prop, line), "quantity": line.get("quantity", 1), "amount": line.get("amount", 0)}
        for line in breakdown.get("extras") or []
    ]
    if "city_tax_terms" in breakdown:
        note = city_tax_text(breakdown["city_tax_terms"], money)
    else:
        note = breakdown.get("city_tax_note") or ""  # a note older than the terms, as written
    channel = str(breakdown.get("price_source") or "").startswith("channel:")  # the channel priced it: no fee of ours
    label = "" if channel else cleaning_fee_label(prop, breakdown.get("cleaning_fee_label") or "")
    return api_shape(breakdown, discounts=discounts, extras=extras, cleaning_fee_label=label, city_tax_note=note)


def english_breakdown(breakdown: dict, prop: Property) -> dict:
    """The breakdown as the JSON API, MCP and A2A answer it: labels in English, whatever the
    booking's language."""
    with override("en"):
        return read_breakdown(breakdown, prop, api_money)
