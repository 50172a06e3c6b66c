"""The host's special price for a stay the owner books for a guest (docs/owner-bookings.md).

The owner types what the stay costs before the city tax. The quote keeps every line it had (the
nights, the cleaning fee, the extras, the city tax the law asks for) and the automatic discounts
are replaced by one line, "Special price from the host", worth the difference: the breakdown still
adds up line by line and `total = special price + city tax`. The line is a discount (≤ 0) that takes
at most the accommodation, as every discount does, so the special price lies between the fees
(cleaning and extras) and the list price. A pure function over the quote, like pricing.py.
"""

from dataclasses import replace
from decimal import Decimal

from django.utils.translation import gettext_noop

from booking.catalog.pricing import Discount, Quote, money

# Shown in the breakdown in the booking's language (translated when the hold is priced, like the
# other discount labels).
HOST_PRICE_LABEL = gettext_noop("Special price from the host")


class HostPriceRefused(Exception):
    """The special price cannot be written as a discount line: `kind` is "not_positive",
    "above_list_price" or "below_fees"; `limit` the amount it crossed."""

    def __init__(self, kind: str, limit: Decimal):
        super().__init__(f"{kind}: {limit}")
        self.kind, self.limit = kind, limit


def list_price(quote: Quote) -> Decimal:
    """What the stay costs before the city tax and before any discount: the most a special price may be."""
    return quote.accommodation + quote.cleaning_fee + quote.extras_total


def least_price(quote: Quote) -> Decimal:
    """The fees a special price still has to cover (the adjustment takes at most the accommodation)."""
    return quote.cleaning_fee + quote.extras_total


def at_host_price(quote: Quote, price: Decimal) -> Quote:
    """The quote at the host's price: one adjustment line in place of the discounts."""
    price = money(price)
    if price <= 0:
        raise HostPriceRefused("not_positive", Decimal("0.00"))
    if price > list_price(quote):
        raise HostPriceRefused("above_list_price", list_price(quote))
    if price < least_price(quote):
        raise HostPriceRefused("below_fees", least_price(quote))
    adjustment = price - list_price(quote)
    discounts = (Discount(HOST_PRICE_LABEL, None, adjustment, kind="host_price"),) if adjustment else ()
    return replace(
        quote,
        discounts=discounts,
        discount_label=HOST_PRICE_LABEL if discounts else None,
        discount_percent=Decimal("0"),
        discount_amount=adjustment,
        total=money(price + quote.city_tax),
    )
