"""Money and dates written the way each of the site's languages writes them: "€1,128.00" and
"12 Jan 2027" in English, "1.128,00 €" and "12 gen 2027" in Italian (CLDR data through Babel).

English keeps the formats the site always used; the others follow the locale. The JSON API never
uses this: its numbers and dates are language-neutral.
"""

import re
from datetime import date, datetime
from decimal import Decimal, InvalidOperation

from babel.dates import format_date as babel_format_date
from babel.numbers import format_currency
from django.utils import dateformat, timezone, translation

# Locale names for Babel and the browser's Intl (money and dates written the local way).
LOCALES = {"en": "en_IE", "it": "it_IT", "de": "de_DE", "fr": "fr_FR"}
SYMBOLS = {"EUR": "€", "USD": "$", "GBP": "£"}

# Django date formats used by the templates → the CLDR pattern for each language.
DATE_PATTERNS = {
    "D j M Y": {"default": "EEE d MMM y", "de": "EEE, d. MMM y"},
    "l j F Y": {"default": "EEEE d MMMM y", "de": "EEEE, d. MMMM y"},
    "j M Y": {"default": "d MMM y", "de": "d. MMM y"},
    "j F Y": {"default": "d MMMM y", "de": "d. MMMM y"},
    "F Y": {"default": "LLLL y"},
    "j M": {"default": "d MMM", "de": "d. MMM"},
    "D j M": {"default": "EEE d MMM", "de": "EEE, d. MMM"},
}


def active_language() -> str:
    code = (translation.get_language() or "en").split("-")[0]
    return code if code in LOCALES else "en"


def format_money(amount, currency: str = "EUR", language: str | None = None) -> str:
    """12.5 → "€12.50" (en), "12,50 €" (it, de), "12,50 €" (fr, with a narrow space before €)."""
    try:
        value = Decimal(str(amount)).quantize(Decimal("0.01"))
    except (InvalidOperation, TypeError, ValueError):
        return ""
    language = language or active_language()
    sign = "−" if value < 0 else ""
    if language == "en":
        symbol = SYMBOLS.get(currency, currency + " ")
        whole, cents = f"{abs(value):.2f}".split(".")
        return f"{sign}{symbol}{int(whole):,}.{cents}"  # 1,240.00: as the booking script writes amounts
    return sign + format_currency(abs(value), currency, locale=LOCALES[language])


def format_money_whole(amount, currency: str = "EUR", language: str | None = None) -> str:
    """240 → "€240" / "240 €" for headline prices; amounts with cents keep them."""
    language = language or active_language()
    text = format_money(amount, currency, language)
    if language == "en":
        return text.removesuffix(".00")
    return re.sub(r",00(?=\D*$)", "", text)


def format_date(value, django_format: str = "j M Y", language: str | None = None) -> str:
    """A date in one of the templates' formats, written the local way: "j M Y" → "12 Jan 2027",
    "12 gen 2027", "12. Jan. 2027", "12 janv. 2027"."""
    if not isinstance(value, (date, datetime)):
        return value
    language = language or active_language()
    patterns = DATE_PATTERNS.get(django_format)
    if language == "en" or patterns is None:
        return dateformat.format(value, django_format)
    return babel_format_date(value, patterns.get(language, patterns["default"]), locale=LOCALES[language])


# Italian elides the article before a day said with a vowel ("otto", "undici"): "dall’8 al 10",
# "dal 9 all’11", "arrivo l’8 feb". The translations write "dal %(arrival)s", "il %(arrival)s".
ITALIAN_ELISION = re.compile(r"\b(il|dal|al|del|nel|sul) (8|11)\b")
ELIDED = {"il": "l’", "dal": "dall’", "al": "all’", "del": "dell’", "nel": "nell’", "sul": "sull’"}


def with_elision(text: str, language: str | None = None) -> str:
    """A translated sentence with dates in it, the articles before the days elided where the
    language does ("dal 8 feb" → "dall’8 feb" in Italian); other languages unchanged."""
    if (language or active_language()) != "it":
        return text
    return ITALIAN_ELISION.sub(lambda found: ELIDED[found[1]] + found[2], text)


def date_range(arrival: date, departure: date, django_format: str = "j M Y", language: str | None = None) -> str:
    """ "8 Feb 2027 to 11 Feb 2027"; "dall’8 feb 2027 all’11 feb 2027"; "8. Feb. 2027 bis 11. Feb. 2027";
    "du 8 févr. 2027 au 11 févr. 2027"."""
    language = language or active_language()
    with translation.override(language):
        text = translation.gettext("%(arrival)s to %(departure)s") % {
            "arrival": format_date(arrival, django_format, language),
            "departure": format_date(departure, django_format, language),
        }
    return with_elision(text, language)


# A time of day said with its date unless the date is today: "until 15:17" / "until 15:17 on 28 Nov".
CLOCK = {"de": "{time} Uhr"}
ON_DATE = {"en": " on {date}", "it": " del {date}", "de": " am {date}", "fr": " le {date}"}


def time_with_date(value: datetime | None, language: str | None = None, *, now: datetime | None = None, zone: bool = False) -> str:
    """An instant as a person reads it, in the property's time zone: "15:17" today, "15:17 on 28 Nov"
    another day ("15:17 del 28 nov", "15:17 Uhr am 28. Nov.", "15:17 le 28 nov."), with the year when
    it is not this year's; `zone` adds the zone's name ("15:17 CET on 28 Nov"). The one way every
    page, email and screen shows a time: the sentence around it ("until %(time)s") is the caller's."""
    if not isinstance(value, datetime):
        return "" if value is None else str(value)
    language = language or active_language()
    local = timezone.localtime(value)
    today = timezone.localdate(now or timezone.now())
    text = CLOCK.get(language, "{time}").format(time=local.strftime("%H:%M")) + (local.strftime(" %Z") if zone else "")
    if local.date() != today:
        day = format_date(local.date(), "j M" if local.year == today.year else "j M Y", language)
        text += ON_DATE.get(language, ON_DATE["en"]).format(date=day)
    return with_elision(text, language)


# --- The site's addresses in a language (the pages live under /it/, /de/, /fr/; English unprefixed) ---


def site_languages() -> list[str]:
    from django.conf import settings

    return [code for code, _name in settings.LANGUAGES]


def site_path(path: str, language: str | None = None) -> str:
    """("/manage/abc", "it") → "/it/manage/abc"; English, or a language the site does not have,
    keeps the path as it is."""
    from django.conf import settings

    language = language or active_language()
    if language == settings.LANGUAGE_CODE or language not in site_languages():
        return path
    return f"/{language}{path}" if path != "/" else f"/{language}/"


def language_of_site_url(url: str | None) -> str:
    """The language of a page of this site named by an absolute URL (the booking widget on /it/book
    sends /it/thank-you as the return address): "it"; English for anything else."""
    from urllib.parse import urlsplit

    from django.conf import settings

    if not url:
        return settings.LANGUAGE_CODE
    parts, base = urlsplit(url), urlsplit(settings.BASE_URL)
    if parts.netloc.lower() != base.netloc.lower():
        return settings.LANGUAGE_CODE
    first = parts.path.removeprefix(base.path.rstrip("/")).lstrip("/").split("/", 1)[0]
    return first if first in site_languages() else settings.LANGUAGE_CODE
