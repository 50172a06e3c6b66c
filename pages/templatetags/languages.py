"""Marking what a page shows in another language than its own: a guest's review in its original
(`lang` and "original in English"), and an owner's text with no translation in the page's language
(`lang` and "only available in English"), in the reader's language (DESIGN.md, fourth round)."""

from django import template
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from booking.formatting import active_language
from booking.italy.countries import country_name
from booking.language_names import language_name
from pages import listing_words

register = template.Library()


@register.filter
def other_language(code: str | None) -> str:
    """The code when it is not the page's language ("" otherwise): `lang="{{ code }}"` goes on it."""
    code = (code or "").split("-")[0]
    return code if code and code != active_language() else ""


@register.filter
def untranslated(row, field: str) -> str:
    """The language an owner's text is served in when the page's language lacks it, else ""."""
    return listing_words.untranslated(row, field)


@register.filter
def lang_of(listing: dict, field: str) -> str:
    """` lang="en"` on an element showing one of the property's texts the page's language lacks."""
    code = listing.get("untranslated", {}).get(field, "")
    return mark_safe(f' lang="{code}"') if code else ""  # a language code of settings.LANGUAGES


@register.filter
def lang_attr(row, field: str) -> str:
    """` lang="en"` for an element showing an owner's text the page's language lacks, else ""."""
    code = listing_words.untranslated(row, field)
    return mark_safe(f' lang="{code}"') if code else ""  # a language code of settings.LANGUAGES


@register.simple_tag
def only_in_line(row, field: str) -> str:
    """The line under an untranslated owner's text: "Only available in English." (or nothing)."""
    code = listing_words.untranslated(row, field)
    return format_html('<p class="muted only-in">{}</p>', only_in(code)) if code else ""


@register.filter
def country_named(value: str | None) -> str:
    """A stored country code shown by its name in the reader's language ("DE" → "Deutschland"); a
    comune or anything else as it is. The form gives a name back as its code (pages/check_in.py)."""
    text = value or ""
    if len(text) == 2 and text.isalpha():
        name = country_name(text)
        return name if name != text.upper() else text
    return text


@register.simple_tag
def original_in(code: str) -> str:
    """ "Original in English", "Originale in inglese", "Original auf Englisch", "Original en anglais"."""
    return _("Original in %(language)s") % {"language": language_name(code)}


@register.simple_tag
def only_in(code: str) -> str:
    """ "Only available in English", "Disponibile solo in inglese", …"""
    return _("Only available in %(language)s.") % {"language": language_name(code)}
