"""How the back office shows money and times: amounts with two decimals and their currency, times
in the property's time zone with its name (staff in another zone read the property's clock)."""

from collections.abc import Callable
from datetime import datetime
from decimal import Decimal
from typing import Any

from django.contrib import admin
from django.db.models import Model
from django.utils import timezone
from django.utils.dateformat import format as date_format
from django.utils.formats import number_format
from django.utils.translation import gettext_lazy

from booking import language_names as names
from booking.formatting import active_language


def with_currency(amount: Decimal | None, currency: str) -> str:
    if amount is None:
        return "–"
    return f"{number_format(Decimal(amount), 2, force_grouping=True)} {currency}"


def local_time(moment: datetime | None) -> str:
    """'23 Nov 2026 14:05 CET': the property's time zone (settings.TIME_ZONE), with its abbreviation."""
    if moment is None:
        return "–"
    local = timezone.localtime(moment)
    return f"{date_format(local, 'd M Y H:i')} {local.tzname()}"  # the month in the page's language


def time_column(model: type[Model], field: str) -> Callable[[Any, Any], str]:
    """An admin display method showing a DateTimeField with local_time, under the field's own name
    and sorting by it: `created = time_column(Feed, "created_at")`, then "created" in list_display,
    readonly_fields and fields in place of the raw field (which Django shows without the zone)."""

    # Lazy: the field's name is made translatable when the apps are ready, after this runs (config.admin).
    @admin.display(description=gettext_lazy(str(model._meta.get_field(field).verbose_name)), ordering=field)
    def show(self: Any, obj: Any) -> str:
        return local_time(getattr(obj, field))

    return show


def language_name(code: str | None) -> str:
    """ "it" → "italiano" (it), "Italienisch" (de), "Italian" (en): a language code as its name in the
    reader's language, from the locale data (CLDR through Babel); an unknown code is shown as it is."""
    if not code:
        return "–"
    return names.language_name(code.split("-")[0].lower())


def country_name(code: str | None) -> str:
    """ "DE" → "Germania" (it), "Deutschland" (de): an ISO 3166-1 code as the country's name in the
    reader's language (CLDR through Babel); an unknown code is shown as it is."""
    if not code:
        return "–"
    return names.territory_names(active_language()).get(code.upper(), code)
