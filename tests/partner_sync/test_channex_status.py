"""The connection as staff and monitors see it: `channel_manager` in GET /api/v1/partner/status,
and the back office's page with its "send everything again" button."""

import pytest
from django.contrib.admin.utils import quote
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse

from booking.reservations.services.holds import hold_stay
from partner_sync.models import ChannexConnection, ChannexDirtyNight
from tests.dates import future
from tests.partner_sync.channex_fixtures import push_now

pytestmark = pytest.mark.django_db
STATUS = "/api/v1/partner/status"
KEYS = {"provider", "connected", "last_push_at", "pending_dates", "last_revision_at", "last_error"}


def test_the_status_names_the_connection_its_last_push_and_the_nights_waiting(client, synced):
    hold_stay(check_in=future(30), check_out=future(33), guests=2)
    body = client.get(STATUS).json()["channel_manager"]
    assert set(body) == KEYS
    assert body["provider"] == "channex" and body["connected"] is True and body["pending_dates"] == 3
    assert body["last_push_at"] is not None and body["last_error"] is None and body["last_revision_at"] is None
    synced.fail_next(429, path="/availability")
    push_now()
    body = client.get(STATUS).json()["channel_manager"]
    assert body["connected"] is False and "429" in body["last_error"] and body["pending_dates"] == 3


def test_the_status_is_null_when_the_connection_is_off(client, db, settings):
    settings.CHANNEX_API_KEY = ""
    assert client.get(STATUS).json()["channel_manager"] is None


@pytest.fixture
def staff(django_user_model):
    def login(*permissions: str) -> Client:
        user = django_user_model.objects.create_user("marco", "marco@example.com", "a-long-test-password", is_staff=True)
        user.user_permissions.add(*Permission.objects.filter(codename__in=["view_channexconnection", *permissions]))
        browser = Client(enforce_csrf_checks=True)
        browser.force_login(user)
        return browser

    return login


def test_the_back_office_shows_the_connection_and_sends_everything_again(staff, synced):
    browser = staff("resync_channex")
    page = browser.get(reverse("admin:partner_sync_channexconnection_changelist"))
    assert page.status_code == 200
    text = page.content.decode()
    assert "connected" in text and "Send everything again" in text
    token = page.cookies["csrftoken"].value
    assert browser.post(reverse("admin:partner_sync_channexconnection_resync")).status_code == 403  # no CSRF token
    answer = browser.post(reverse("admin:partner_sync_channexconnection_resync"), {"csrfmiddlewaretoken": token})
    assert answer.status_code == 302
    assert ChannexDirtyNight.objects.filter(kind="availability").count() == 500
    push_now()
    assert len(synced.calls_to("POST", "/availability")) == 1 and not ChannexDirtyNight.objects.exists()


def test_sending_everything_again_needs_its_permission(staff, synced):
    browser = staff()
    page = browser.get(reverse("admin:partner_sync_channexconnection_changelist"))
    assert "Send everything again" not in page.content.decode()
    answer = browser.post(reverse("admin:partner_sync_channexconnection_resync"), {"csrfmiddlewaretoken": page.cookies["csrftoken"].value})
    assert answer.status_code == 403
    assert not ChannexDirtyNight.objects.exists()
    assert ChannexConnection.objects.get().last_error == ""


def test_the_feed_list_suggests_removing_the_ical_feeds_of_connected_platforms(client, django_user_model, channex):
    client.force_login(django_user_model.objects.create_superuser("giulia", "giulia@example.com", "a-long-test-password"))
    page = client.get(reverse("admin:partner_sync_feed_changelist")).content.decode()
    assert "The channel manager (Channex) is connected." in page and "Remove the iCal feed" in page


def test_editing_the_connection_sends_everything_again(client, django_user_model, synced):
    from decimal import Decimal

    client.force_login(django_user_model.objects.create_superuser("giulia", "giulia@example.com", "a-long-test-password"))
    connection = ChannexConnection.objects.get()
    url = reverse("admin:partner_sync_channexconnection_change", args=[connection.pk])
    form = {
        "api_base": connection.api_base,
        "property_id": connection.property_id,
        "room_type_id": connection.room_type_id,
        "rate_plan_id": connection.rate_plan_id,
        "channel_rate_markup_percent": "10",
    }
    assert client.post(url, form).status_code == 302
    push_now()
    night = future(40)
    assert ChannexConnection.objects.get().channel_rate_markup_percent == Decimal("10")
    assert synced.restrictions[night]["rate"] > 0 and not ChannexDirtyNight.objects.exists()
    assert len(synced.calls_to("POST", "/restrictions")) == 1


def test_staff_change_a_channel_stays_dates_on_the_platform_not_here(client, django_user_model, channex):
    from booking.reservations.models import Reservation
    from partner_sync.channex import bookings

    client.force_login(django_user_model.objects.create_superuser("giulia", "giulia@example.com", "a-long-test-password"))
    channex.book(arrival=future(40), departure=future(43), ota="ABB")
    bookings.drain_feed()
    stay = Reservation.objects.get(channel_booking_id__isnull=False)
    page = client.get(reverse("admin:reservations_reservation_change", args=[quote(stay.pk)])).content.decode()
    assert reverse("admin:reservations_reservation_change_dates", args=[quote(stay.pk)]) not in page
    answer = client.post(
        reverse("admin:reservations_reservation_change_dates", args=[quote(stay.pk)]), {"check_in": future(50), "check_out": future(53), "apply": "1"}
    )
    assert answer.status_code == 302
    stay.refresh_from_db()
    assert (stay.check_in, stay.check_out) == (future(40), future(43))
