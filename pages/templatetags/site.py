"""Template helpers of the website: static files that never crash a page, Markdown, JSON-LD, money."""

import json
from datetime import date
from decimal import InvalidOperation

from babel.dates import get_day_names
from django import template
from django.conf import settings
from django.templatetags.static import static
from django.utils.safestring import SafeString, mark_safe

from booking.catalog import breakdown_words
from booking.formatting import (
    LOCALES,
    active_language,
    format_date,
    format_money,
    format_money_whole,
    time_with_date,
)
from pages.rendering import render_markdown

register = template.Library()


def static_url(path: str) -> str:
    """The URL of a static file. A file missing from the collected manifest (a new file before
    `collectstatic`) gets its plain path instead of failing the whole page."""
    try:
        return static(path)
    except ValueError:
        return settings.STATIC_URL + path


@register.simple_tag
def asset(path: str) -> str:
    return static_url(path)


@register.filter(name="markdown")
def markdown_filter(text: str) -> SafeString:
    return render_markdown(text)


def dump_json_ld(data) -> SafeString:
    """JSON for a <script type="application/ld+json"> element. <, > and & are escaped as \\u003c…
    (as Django's json_script does), so no text in the data can close the script element."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), default=str)  # str: lazy translations
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return mark_safe(text)  # noqa: S308 - escaped just above


@register.filter
def json_ld(data) -> SafeString:
    return dump_json_ld(data)


@register.filter
def money(amount, currency: str = "EUR") -> str:
    """12.5 → "€12.50" in English, "12,50 €" in Italian…; −30 → "−€30.00". Amounts come from the API as JSON numbers."""
    return format_money(amount, currency)


@register.filter
def money_whole(amount, currency: str = "EUR") -> str:
    """240 → "€240" (or "240 €") for headline prices; amounts with cents keep them."""
    return format_money_whole(amount, currency)


@register.filter
def email_money(amount, currency: str = "EUR") -> str:
    """Amounts in emails: "240.00 EUR" in English (as they always were), "240,00 €" in Italian…"""
    try:
        return breakdown_words.email_money(amount, currency)
    except (InvalidOperation, TypeError, ValueError):
        return ""


@register.simple_tag
def cleaning_fee_label(prop) -> str:
    """The cleaning fee's label in the page's language (booking/catalog/breakdown_words.py)."""
    return breakdown_words.cleaning_fee_label(prop) if prop else ""


@register.simple_tag
def city_tax_note(prop) -> str:
    """How the property's city tax is counted, in the page's language, its money written the local way."""
    return breakdown_words.city_tax_text(breakdown_words.property_city_tax_terms(prop)) if prop else ""


WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


@register.filter
def weekday(name: str) -> str:
    """ "Saturday" (as the API names days) → "sabato", "Samstag", "samedi" in the page's language."""
    if name not in WEEKDAYS or active_language() == "en":
        return name
    return get_day_names("wide", locale=LOCALES[active_language()])[WEEKDAYS.index(name)]


@register.filter
def weekdays(names) -> str:
    return ", ".join(weekday(name) for name in names)


@register.filter
def ldate(value, django_format: str = "j M Y") -> str:
    """|date with the month and day names and the order of the page's language: "12 gen 2027"."""
    return format_date(value, django_format)


@register.filter
def ltime(value, zone: str = ""):
    """An instant as "15:17" today and "15:17 on 28 Nov" another day, in the page's language
    (booking/formatting.py time_with_date); `|ltime:"zone"` adds the zone's name."""
    return time_with_date(value, zone=zone == "zone")


@register.filter
def iso_date(value: str):
    """ "2026-06-12" → a date, for the |date filter. Anything else stays as it is."""
    try:
        return date.fromisoformat(value)
    except (TypeError, ValueError):
        return value


@register.filter
def stars(rating) -> str:
    try:
        full = max(0, min(5, round(float(rating))))
    except (TypeError, ValueError):
        return ""
    return "★" * full + "☆" * (5 - full)


@register.filter
def is_current(request_path: str, href: str) -> bool:
    """Whether a navigation link points at the page being shown (a journal article counts as the journal)."""
    if href == "/":
        return request_path == "/"
    return request_path == href or request_path.startswith(href + "/")


@register.filter
def first_line(text: str) -> str:
    for line in (text or "").splitlines():
        if line.strip():
            return line.strip()
    return ""


@register.filter
def first_sentence(text: str) -> str:
    """The first sentence of a generated text (e.g. the cancellation policy's first tier)."""
    text = (text or "").strip()
    head, dot, _ = text.partition(". ")
    return head + "." if dot else text
