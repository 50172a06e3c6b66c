"""Staff's screens for stays: the reservations list and page (with cancel, refund, change dates and
book for a guest, from booking/payments/admin), the calendar, date blocks and reviews."""

from booking.reservations.admin import date_blocks, reservations, reviews
from booking.reservations.admin.date_blocks import DateBlockForm

__all__ = ["DateBlockForm", "date_blocks", "reservations", "reviews"]
