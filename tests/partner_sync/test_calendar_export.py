"""GET /api/v1/calendar.ics: our booked and blocked nights for the platforms to import, parsed
back with icalendar event by event; stable UIDs, no personal data, conditional GET."""

from datetime import date, timedelta

import pytest
import time_machine
from django.utils import timezone
from icalendar import Calendar

from booking.reservations.models import DateBlock, Reservation
from booking.reservations.services.holds import GuestDetails, hold_stay
from partner_sync.ical_import import parse_feed
from tests.dates import property_time_zone, today
from tests.partner_sync.conftest import day

pytestmark = pytest.mark.django_db

URL = "/api/v1/calendar.ics"


@pytest.fixture
def base_url(settings):
    settings.BASE_URL = "https://stay.example.com"
    return settings.BASE_URL


@pytest.fixture
def calendar_content(demo_property, base_url, settings):
    """A confirmed stay, a live hold, a lapsed hold, a cancelled stay, a past stay, a staff block
    and a partner block: only the first two and the staff block are ours to publish."""
    guest = GuestDetails(first_name="Anna", last_name="Rossi", email="anna.rossi@example.com", phone="+39 333 1234567")
    confirmed = hold_stay(check_in=day(10), check_out=day(14), guests=2, guest=guest, special_requests="Late arrival by train")
    Reservation.objects.filter(pk=confirmed.pk).update(status=Reservation.Status.CONFIRMED)
    held = hold_stay(check_in=day(20), check_out=day(23), guests=3, guest=guest)
    lapsed = hold_stay(check_in=day(30), check_out=day(33), guests=2)
    Reservation.objects.filter(pk=lapsed.pk).update(hold_expires_at=timezone.now() - timedelta(minutes=1))
    cancelled = hold_stay(check_in=day(40), check_out=day(43), guests=2)
    Reservation.objects.filter(pk=cancelled.pk).update(status=Reservation.Status.CANCELLED)
    past = Reservation.objects.create(property=demo_property, status="confirmed", check_in=day(-10), check_out=day(-7), guests=2, price_breakdown={}, total=0)
    staff = DateBlock.objects.create(property=demo_property, start=day(50), end=day(52), reason="Roof repairs (Mario's crew)")
    DateBlock.objects.create(
        property=demo_property, start=day(60), end=day(65), source="partner", feed_key="feed-1", external_uid="x@airbnb.com", reason="Airbnb: Reserved"
    )
    return {"confirmed": confirmed, "held": held, "lapsed": lapsed, "cancelled": cancelled, "past": past, "staff": staff}


def events_of(body: bytes) -> list:
    return sorted(Calendar.from_ical(body).walk("VEVENT"), key=lambda e: e.start)


class TestTheExportedCalendar:
    def test_it_is_a_publishable_calendar(self, client, calendar_content):
        response = client.get(URL)
        assert response.status_code == 200
        assert response["Content-Type"] == "text/calendar; charset=utf-8"
        calendar = Calendar.from_ical(response.content)
        assert calendar["VERSION"] == "2.0" and calendar["CALSCALE"] == "GREGORIAN" and calendar["METHOD"] == "PUBLISH"
        assert calendar["PRODID"].startswith("-//Direct Booking//")
        assert response.content.startswith(b"BEGIN:VCALENDAR\r\n") and response.content.endswith(b"END:VCALENDAR\r\n")

    def test_confirmed_stays_live_holds_and_staff_blocks_event_by_event(self, client, calendar_content):
        events = events_of(client.get(URL).content)
        assert [(e.start, e.end, str(e["SUMMARY"])) for e in events] == [
            (day(10), day(14), "Booked"),
            (day(20), day(23), "Booked"),
            (day(50), day(52), "Blocked"),
        ]
        for event in events:
            assert type(event.start) is date and type(event.end) is date  # all-day, VALUE=DATE
            assert event["DTSTAMP"].dt.tzinfo is not None
            assert str(event["UID"]).endswith("@stay.example.com")
        assert b"DTSTART;VALUE=DATE:" in client.get(URL).content

    def test_no_personal_data_and_no_reservation_ids(self, client, calendar_content):
        body = client.get(URL).content.decode()
        for private in ["Anna", "Rossi", "anna.rossi", "1234567", "Late arrival", "Mario", "Roof"]:
            assert private not in body
        for reservation in Reservation.objects.all():
            assert reservation.pk not in body  # an id is the credential for a reservation

    def test_uids_are_stable_and_survive_confirmation(self, client, calendar_content):
        before = {e.start: str(e["UID"]) for e in events_of(client.get(URL).content)}
        Reservation.objects.filter(pk=calendar_content["held"].pk).update(status=Reservation.Status.CONFIRMED)
        after = {e.start: str(e["UID"]) for e in events_of(client.get(URL).content)}
        assert before == after and len(set(after.values())) == 3
        assert after[day(50)] == f"block-{calendar_content['staff'].pk}@stay.example.com"

    def test_a_hold_leaves_the_export_when_it_lapses(self, client, calendar_content, settings):
        with time_machine.travel(timezone.now() + timedelta(minutes=settings.HOLD_MINUTES, seconds=5)):
            starts = [e.start for e in events_of(client.get(URL).content)]
        assert day(20) not in starts and day(10) in starts

    def test_our_own_import_reads_it_back_night_for_night(self, client, calendar_content):
        body = client.get(URL).content
        imported = parse_feed(body, today=today(), local_tz=property_time_zone(), label="Us")
        assert [(e.start, e.end) for e in imported.events] == [(day(10), day(14)), (day(20), day(23)), (day(50), day(52))]

    def test_an_empty_calendar_is_still_valid(self, client, demo_property):
        response = client.get(URL)
        assert response.status_code == 200 and Calendar.from_ical(response.content).walk("VEVENT") == []

    def test_any_accept_header_gets_the_calendar(self, client, calendar_content):
        for accept in ["text/calendar", "application/json", "text/html", "*/*", "nonsense/<>"]:
            response = client.get(URL, headers={"Accept": accept})
            assert response.status_code == 200 and response["Content-Type"].startswith("text/calendar"), accept

    def test_head_answers_like_get_without_a_body(self, client, calendar_content):
        response = client.head(URL)
        assert response.status_code == 200 and response.content == b"" and response["ETag"]

    def test_without_a_property_it_is_a_json_404(self, client, db):
        response = client.get(URL)
        assert response.status_code == 404 and response.json()["code"] == "not_found"


class TestConditionalGet:
    def test_a_matching_etag_is_answered_304_without_a_body(self, client, calendar_content):
        first = client.get(URL)
        again = client.get(URL, headers={"If-None-Match": first["ETag"]})
        assert again.status_code == 304 and again.content == b"" and again["ETag"] == first["ETag"]

    def test_last_modified_and_if_modified_since(self, client, calendar_content):
        first = client.get(URL)
        assert client.get(URL, headers={"If-Modified-Since": first["Last-Modified"]}).status_code == 304
        assert client.get(URL, headers={"If-Modified-Since": "Mon, 01 Jan 2001 00:00:00 GMT"}).status_code == 200

    def test_the_same_content_is_the_same_bytes(self, client, calendar_content):
        assert client.get(URL).content == client.get(URL).content

    def test_a_new_hold_changes_the_etag(self, client, calendar_content):
        first = client.get(URL)
        hold_stay(check_in=day(70), check_out=day(73), guests=2)
        second = client.get(URL, headers={"If-None-Match": first["ETag"]})
        assert second.status_code == 200 and second["ETag"] != first["ETag"]

    def test_a_removal_changes_the_etag_and_the_date(self, client, calendar_content):
        first = client.get(URL)
        with time_machine.travel(timezone.now() + timedelta(seconds=5)):
            DateBlock.objects.filter(pk=calendar_content["staff"].pk).delete()
            second = client.get(URL, headers={"If-None-Match": first["ETag"], "If-Modified-Since": first["Last-Modified"]})
        assert second.status_code == 200 and second["ETag"] != first["ETag"]
        assert second["Last-Modified"] != first["Last-Modified"]

    def test_a_garbled_validator_is_simply_a_full_answer(self, client, calendar_content):
        for headers in [{"If-None-Match": 'garbage, ,,"'}, {"If-Modified-Since": "yesterday-ish"}]:
            assert client.get(URL, headers=headers).status_code == 200


def test_only_get_and_head_are_served(client, calendar_content):
    for method in (client.post, client.put, client.delete):
        response = method(URL)
        assert response.status_code == 405 and response.json()["code"] == "method_not_allowed"
    assert client.post("/api/v1/partner/status").status_code == 405
