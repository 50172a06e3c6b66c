from django.urls import path

from partner_sync import views

urlpatterns = [
    path("partner/status", views.PartnerStatusView.as_view(), name="api-partner-status"),
    path("calendar.ics", views.CalendarExportView.as_view(), name="api-calendar-ics"),
]
