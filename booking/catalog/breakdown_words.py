"""The price breakdown's words in the reader's language, at display time.

A reservation stores its breakdown as the API gives it (booking/catalog/breakdown.py): language-neutral,
its labels and city-tax note in English, as do the pricing rules cached per process. The HTML
pages and the emails show them through here instead: the owner's translated cleaning-fee and
discount labels, the built-in labels through the catalogue, and the city-tax note rebuilt from the
terms the English note states (pricing.city_tax_note writes it; CITY_TAX_NOTE reads it back), with
its money written the local way ("3,50 €" beside "31,50 €")."""

import re
from collections.abc import Callable
from decimal import Decimal

from django.utils.translation import gettext, gettext_noop, ngettext

from booking.catalog.models import Property
from booking.formatting import active_language, format_money

gettext_noop("Final cleaning")  # the cleaning fee's default label (Property.cleaning_fee_label)

# pricing.city_tax_note's English sentence, read back into its terms.
CITY_TAX_NOTE = re.compile(
    r"^(?P<rate>\d+(?:\.\d+)?) (?P<currency>[A-Z]{3}) per person per night, for at most (?P<nights>\d+) nights, included in the total"
    r"(?:; children under (?P<age>\d+) are exempt when their ages are given at booking)?"
    r"(?:; (?P<taxed>\d+) of (?P<guests>\d+) guests taxed)?$"
)

Money = Callable[[Decimal, str], str]


def email_money(amount, currency: str) -> str:
    """Amounts in emails: "240.00 EUR" in English (as they always were), "240,00 €" in Italian…"""
    if active_language() == "en":
        return f"{Decimal(str(amount)):.2f} {currency}"
    return format_money(amount, currency)


def city_tax_note(note: str, money: Money = format_money) -> str:
    """The stored English city-tax note in the active language; a note in another shape (written by
    hand, or by an older version) is shown as it is."""
    terms = CITY_TAX_NOTE.match(note or "")
    if terms is None:
        return note or ""
    nights = int(terms["nights"])
    parts = [
        ngettext(
            "%(amount)s per person per night, for at most %(nights)s night, included in the total",
            "%(amount)s per person per night, for at most %(nights)s nights, included in the total",
            nights,
        )
        % {"amount": money(Decimal(terms["rate"]), terms["currency"]), "nights": nights}
    ]
    if terms["age"]:
        parts.append(gettext("children under %(age)s are exempt when their ages are given at booking") % {"age": terms["age"]})
    if terms["taxed"]:
        parts.append(gettext("%(taxed)s of %(guests)s guests taxed") % {"taxed": terms["taxed"], "guests": terms["guests"]})
    return "; ".join(parts)


def cleaning_fee_label(prop: Property, stored: str = "") -> str:
    """The cleaning fee's label in the active language: the owner's translation of it, else their
    English label (the default one through the catalogue). A stay priced under a label the owner has
    renamed since keeps its own words."""
    english = prop.cleaning_fee_label_en or ""
    if stored and stored != english:
        return gettext(stored)
    label = prop.cleaning_fee_label or english
    return gettext(label) if label and label == english else label


def discount_label(prop: Property, stored: str) -> str:
    """A discount line's label in the active language: the owner's length-of-stay discount as they
    translated it, or a built-in label (early-bird, last-minute, promo code…) from the catalogue."""
    for discount in prop.discounts.all():
        if discount.label_en == stored:
            return discount.label or stored
    return gettext(stored) if stored else stored


def read_breakdown(breakdown: dict, prop: Property, money: Money = format_money) -> dict:
    """A copy of a stored breakdown with its labels and city-tax note in the active language."""
    shown = dict(breakdown)
    if breakdown.get("cleaning_fee_label") is not None:
        shown["cleaning_fee_label"] = cleaning_fee_label(prop, breakdown["cleaning_fee_label"])
    if breakdown.get("city_tax_note"):
        shown["city_tax_note"] = city_tax_note(breakdown["city_tax_note"], money)
    if breakdown.get("discounts"):
        shown["discounts"] = [{**line, "label": discount_label(prop, line.get("label") or "")} for line in breakdown["discounts"]]
        shown["discount_label"] = " + ".join(line["label"] for line in shown["discounts"])
    return shown
