"""The owner's screens for what is sold: the property (with its rates calendar), promo codes and extras."""

from booking.catalog.admin import offers, properties, rate_calendar
from booking.catalog.admin.properties import SeasonForm

__all__ = ["SeasonForm", "offers", "properties", "rate_calendar"]
