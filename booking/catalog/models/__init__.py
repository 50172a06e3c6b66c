"""The property the owner sells and its pricing rules: one module per concern, registered with the
`catalog` app through this package."""

from booking.catalog.models.offers import Extra, PromoCode
from booking.catalog.models.property import MONEY, WEEKDAYS, Amenity, CancellationTier, Photo, Property, weekday_list_validator
from booking.catalog.models.rates import ArrivalDayMinimum, DisplayCurrency, LengthOfStayDiscount, NightRate, Season

__all__ = [
    "MONEY",
    "WEEKDAYS",
    "Amenity",
    "ArrivalDayMinimum",
    "CancellationTier",
    "DisplayCurrency",
    "Extra",
    "LengthOfStayDiscount",
    "NightRate",
    "Photo",
    "PromoCode",
    "Property",
    "Season",
    "weekday_list_validator",
]
