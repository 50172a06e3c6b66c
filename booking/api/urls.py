from django.urls import path

from booking.api import bookings, views

urlpatterns = [
    path("property", views.PropertyView.as_view(), name="api-property"),
    path("availability", views.AvailabilityView.as_view(), name="api-availability"),
    path("calendar", views.CalendarView.as_view(), name="api-calendar"),
    path("stays", views.StaysView.as_view(), name="api-stays"),
    path("quote", views.QuoteView.as_view(), name="api-quote"),
    path("reservations", views.ReservationCreateView.as_view(), name="api-reservations"),
    path("reservations/<str:reservation_id>", views.ReservationDetailView.as_view(), name="api-reservation"),
    path("bookings/<str:manage_token>", bookings.BookingView.as_view(), name="api-booking"),
    path("bookings/<str:manage_token>/cancel", bookings.CancelBookingView.as_view(), name="api-booking-cancel"),
    path("bookings/<str:manage_token>/change-dates", bookings.ChangeBookingDatesView.as_view(), name="api-booking-change-dates"),
    path("health", views.HealthView.as_view(), name="api-health"),
]
