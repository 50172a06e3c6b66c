"""Stored price breakdowns become data (booking/catalog/breakdown.py stored_breakdown): their labels
were written in the language of the request that made the hold ("Codice promozionale",
"Transfer dall'aeroporto") and the city-tax note in English. Each discount line gets its kind
(promo: it has a code; the built-in labels in any of the site's languages; the owner's
length-of-stay discount by any of its translated labels → its min_nights), extras keep their code
and quantity, the English city-tax note becomes its terms (read back once, here), and the labels
go: they are rendered when read. A line that matches nothing keeps its words (shown as they are).
Backwards: nothing to undo (the older code reads a breakdown without labels as unlabelled)."""

import re

from django.conf import settings
from django.db import migrations
from django.utils import translation

EARLY_BIRD, LAST_MINUTE, GAP, PROMO, HOST_PRICE = (
    "Early-bird discount",
    "Last-minute discount",
    "Gap-night discount",
    "Promo code",
    "Special price from the host",
)
KINDS = {EARLY_BIRD: "early_bird", LAST_MINUTE: "last_minute", GAP: "gap", PROMO: "promo", HOST_PRICE: "host_price"}
# pricing.city_tax_note's English sentence, as the engine wrote it into every breakdown.
CITY_TAX_NOTE = re.compile(
    r"^(?P<rate>\d+(?:\.\d+)?) (?P<currency>[A-Z]{3}) per person per night, for at most (?P<nights>\d+) nights, included in the total"
    r"(?:; children under (?P<age>\d+) are exempt when their ages are given at booking)?"
    r"(?:; (?P<taxed>\d+) of (?P<guests>\d+) guests taxed)?$"
)


def built_in_kinds() -> dict[str, str]:
    """Each built-in label in every language of the site → its kind."""
    kinds = {}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            for label, kind in KINDS.items():
                kinds[translation.gettext(label)] = kind
    kinds.update(KINDS)
    return kinds


def owner_discounts(LengthOfStayDiscount, property_id) -> dict[str, int]:
    """Any translation of the owner's length-of-stay labels → its min_nights."""
    labels = {}
    for discount in LengthOfStayDiscount.objects.filter(property_id=property_id):
        for code, _name in settings.LANGUAGES:
            label = getattr(discount, f"label_{code}", None)
            if label:
                labels[label] = discount.min_nights
        if discount.label:
            labels[discount.label] = discount.min_nights
    return labels


def city_tax_terms(note: str):
    terms = CITY_TAX_NOTE.match(note or "")
    if terms is None:
        return None
    return {
        "rate": terms["rate"],
        "currency": terms["currency"],
        "max_nights": int(terms["nights"]),
        "exempt_under_age": int(terms["age"]) if terms["age"] else None,
        "taxed": int(terms["taxed"]) if terms["taxed"] else None,
        "guests": int(terms["guests"]) if terms["guests"] else None,
    }


def as_data(breakdown: dict, kinds: dict[str, str], owner: dict[str, int]) -> dict:
    data = dict(breakdown)
    discounts = []
    for line in breakdown.get("discounts") or []:
        if "kind" in line:
            discounts.append(line)
            continue
        label = line.get("label") or ""
        new = {"kind": "", "percent": line.get("percent"), "amount": line.get("amount"), "code": line.get("code")}
        if line.get("code"):
            new["kind"] = "promo"
        elif label in owner:
            new["kind"], new["min_nights"] = "length_of_stay", owner[label]
        elif label in kinds:
            new["kind"] = kinds[label]
        else:
            new["label"] = label  # words nothing recognises: shown as they are
        discounts.append(new)
    data["discounts"] = discounts
    data["extras"] = [
        {"code": line.get("code"), "quantity": line.get("quantity", 1), "amount": line.get("amount", 0)} for line in breakdown.get("extras") or []
    ]
    note = breakdown.get("city_tax_note") or ""
    terms = city_tax_terms(note)
    if terms is not None or not note:
        data.pop("city_tax_note", None)
        data["city_tax_terms"] = terms
    data.pop("discount_label", None)
    data.pop("cleaning_fee_label", None)
    return data


def breakdowns_to_data(apps, schema_editor):
    Reservation = apps.get_model("reservations", "Reservation")
    LengthOfStayDiscount = apps.get_model("catalog", "LengthOfStayDiscount")
    kinds = built_in_kinds()
    owners: dict[int, dict[str, int]] = {}
    for reservation in Reservation.objects.only("pk", "property_id", "price_breakdown").iterator():
        breakdown = reservation.price_breakdown
        if not isinstance(breakdown, dict) or not breakdown or "city_tax_terms" in breakdown:
            continue
        if reservation.property_id not in owners:
            owners[reservation.property_id] = owner_discounts(LengthOfStayDiscount, reservation.property_id)
        Reservation.objects.filter(pk=reservation.pk).update(price_breakdown=as_data(breakdown, kinds, owners[reservation.property_id]))


class Migration(migrations.Migration):
    dependencies = [
        ("catalog", "0002_extra_code_help_text"),
        ("reservations", "0002_attention_flags"),
    ]

    operations = [migrations.RunPython(breakdowns_to_data, migrations.RunPython.noop)]
