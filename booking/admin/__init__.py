"""The back office, one module per screen: the owner edits the property and its rates and adds staff
members; staff review reservations, cancel and refund them, and block dates. Every write to a
reservation goes through the booking services under the reservation's lock, like every other
interface."""

from booking.admin import date_blocks, money, offers, properties, rate_calendar, reservations, reviews, staff_members
from booking.admin.date_blocks import DateBlockForm
from booking.admin.properties import SeasonForm

__all__ = ["DateBlockForm", "SeasonForm", "date_blocks", "money", "offers", "properties", "rate_calendar", "reservations", "reviews", "staff_members"]
