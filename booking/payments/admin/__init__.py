"""The money screens: payments and security deposits, and the reservation page's money actions
(cancel with refund, refund, change dates, book for a guest) that booking/reservations/admin mounts."""

from booking.payments.admin import money

__all__ = ["money"]
