"""How the back office shows money and times: amounts with two decimals and their currency, times
in the property's time zone with its name (staff in another zone read the property's clock)."""

from datetime import datetime
from decimal import Decimal

from django.utils import timezone
from django.utils.dateformat import format as date_format
from django.utils.formats import number_format


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
