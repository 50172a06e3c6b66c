"""The back office's screens that belong to no one app: the dashboard on the admin's home page and
adding a staff member. Each app registers its own screens (booking/catalog/admin,
booking/reservations/admin, booking/payments/admin, booking/italy/admin)."""

from booking.admin import permissions, staff_members

__all__ = ["permissions", "staff_members"]
