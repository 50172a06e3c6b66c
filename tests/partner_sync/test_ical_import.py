"""Reading the platforms' exports (pure: no database, no network). Each fixture is written in the
format of a real export, quirks included; see tests/partner_sync/feeds/."""

import pytest

from partner_sync.ical_import import FeedInvalid, neutral_summary, parse_feed
from tests.dates import property_time_zone, today
from tests.partner_sync.conftest import all_day, calendar, day, export

ROME = property_time_zone()


def parse(body: bytes, label: str = "Airbnb"):
    return parse_feed(body, today=today(), local_tz=ROME, label=label)


def nights(feed) -> list[tuple]:
    return [(event.uid, event.start, event.end, event.summary) for event in feed.events]


class TestAirbnbExport:
    def test_all_day_events_block_their_nights_with_an_exclusive_end(self):
        feed = parse(export("airbnb.ics"))
        assert nights(feed) == [
            ("2b6e9d1c4a7f-0e1d2c3b4a5f6e7d8c9b0a1f2e3d4c5b@airbnb.com", day(-2), day(2), "Airbnb: Reserved"),
            ("1418fb94e984-5f7c0b1ad3e2c4b6a8d9e0f1a2b3c4d5@airbnb.com", day(30), day(33), "Airbnb: Reserved"),
            ("7f3e4d2c1b0a-9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d@airbnb.com", day(45), day(50), "Airbnb: Not available"),
        ]

    def test_a_stay_that_already_ended_is_ignored_but_one_in_progress_is_kept(self):
        feed = parse(export("airbnb.ics"))
        assert feed.ignored_past == 1
        assert any(event.start < today() < event.end for event in feed.events)

    def test_no_guest_data_survives_the_import(self):
        feed = parse(export("airbnb.ics"))
        stored = repr(feed.events)
        for secret in ["HMQ4X7ZKTB", "4821", "Phone", "reservations", "airbnb.com/hosting"]:
            assert secret not in stored


class TestBookingComExport:
    def test_bare_line_feeds_an_escaped_prodid_and_closed_nights(self):
        feed = parse(export("booking_com.ics"), label="Booking.com")
        assert nights(feed) == [
            ("8d1f0c3a5b7e9d2f4a6c8e0b2d4f6a8c@booking.com", day(60), day(64), "Booking.com: Not available"),
            ("3e5a7c9b1d3f5e7a9c1b3d5f7a9c1e3b@booking.com", day(70), day(71), "Booking.com: Not available"),
        ]

    def test_a_cancelled_event_blocks_nothing(self):
        feed = parse(export("booking_com.ics"), label="Booking.com")
        assert feed.ignored_cancelled == 1
        assert all(event.start != day(80) for event in feed.events)


class TestTimedEvents:
    def test_date_times_become_the_property_local_dates(self):
        feed = parse(export("channel_manager.ics"), label="Channel manager")
        by_uid = {event.uid: (event.start, event.end) for event in feed.events}
        # 15:00 → 10:00 in Rome: the nights of the arrival day and the day before departure.
        assert by_uid["cm-stay-1001"] == (day(90), day(93))
        # 20:00 in New York is 02:00 (or 01:00) the next day in Rome.
        assert by_uid["cm-stay-1002"] == (day(101), day(103))
        # 23:30 UTC is past midnight in Rome; 09:00 UTC ends on the morning of the +112 day.
        assert by_uid["cm-stay-1003"] == (day(111), day(112))

    def test_an_event_without_uid_gets_a_key_from_its_dates_that_is_stable(self):
        first = parse(export("channel_manager.ics"), label="Channel manager")
        second = parse(export("channel_manager.ics"), label="Channel manager")
        keyless = [e for e in first.events if e.uid.startswith("no-uid:")]
        assert [(e.start, e.end) for e in keyless] == [(day(120), day(121))]  # floating times: local
        assert keyless == [e for e in second.events if e.uid.startswith("no-uid:")]

    def test_summaries_naming_a_guest_are_replaced_by_a_neutral_label(self):
        feed = parse(export("channel_manager.ics"), label="Channel manager")
        assert {e.summary for e in feed.events} == {"Channel manager: Reserved"}
        assert "Bianchi" not in repr(feed.events) and "0199" not in repr(feed.events)

    def test_a_same_day_event_still_takes_its_night(self):
        body = calendar(f"UID:x\nDTSTART:{day(5):%Y%m%d}T100000Z\nDTEND:{day(5):%Y%m%d}T120000Z")
        assert [(e.start, e.end) for e in parse(body).events] == [(day(5), day(6))]


class TestShapesOfEvents:
    def test_an_all_day_event_without_dtend_is_one_night(self):
        body = calendar(f"UID:one\nDTSTART;VALUE=DATE:{day(9):%Y%m%d}")
        assert [(e.start, e.end) for e in parse(body).events] == [(day(9), day(10))]

    def test_duration_instead_of_dtend(self):
        body = calendar(f"UID:dur\nDTSTART;VALUE=DATE:{day(9):%Y%m%d}\nDURATION:P4D")
        assert [(e.start, e.end) for e in parse(body).events] == [(day(9), day(13))]

    def test_an_event_ending_today_has_no_night_left(self):
        body = calendar(all_day("left-this-morning", -3, 0))
        assert parse(body).events == [] and parse(body).ignored_past == 1

    def test_a_uid_repeated_with_other_dates_keeps_both_stays(self):
        body = calendar(all_day("same", 10, 12), all_day("same", 20, 22), all_day("same", 10, 12))
        assert [(e.uid, e.start) for e in parse(body).events] == [
            (f"same#{day(10).isoformat()}:{day(12).isoformat()}", day(10)),
            (f"same#{day(20).isoformat()}:{day(22).isoformat()}", day(20)),
        ]

    def test_an_overlong_uid_is_shortened_to_a_stable_digest(self):
        uid = "x" * 600
        first, second = parse(calendar(all_day(uid, 10, 12))).events, parse(calendar(all_day(uid, 10, 12))).events
        assert first == second and first[0].uid.startswith("sha256:") and len(first[0].uid) < 100

    @pytest.mark.parametrize(
        "summary, label",
        [
            ("Reserved", "Reserved"),
            ("Airbnb (Not available)", "Not available"),
            ("CLOSED - Not available", "Not available"),
            ("Blocked", "Not available"),
            ("John Smith - BK-99812", "Reserved"),
            ("", "Reserved"),
        ],
    )
    def test_neutral_summaries(self, summary, label):
        assert neutral_summary(summary) == label

    def test_an_empty_calendar_is_valid_and_empty(self):
        assert parse(calendar()).events == []


class TestWhatIsNotACalendar:
    @pytest.mark.parametrize(
        "body, message",
        [
            (b"<!DOCTYPE html><html><body>Log in to continue</body></html>", "HTML"),
            (b"  \n<html>maintenance</html>", "HTML"),
            (b"", "does not start with BEGIN:VCALENDAR"),
            (b"\x00\x01\x02garbage\xff", "does not start with BEGIN:VCALENDAR"),
            (b'{"error": "not found"}', "does not start with BEGIN:VCALENDAR"),
            (b"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:cut\r\nDTSTART;VALUE=DATE:20300101\r\n", "incomplete"),
            (b"BEGIN:VCALENDAR\r\nthis is : not ; ical\r\n\x00\r\nEND:VCALENDAR\r\n", "could not be parsed"),
        ],
    )
    def test_refused_with_a_message_that_quotes_nothing_from_the_feed(self, body, message):
        with pytest.raises(FeedInvalid, match=message) as refused:
            parse(body)
        assert "Log in" not in str(refused.value) and "maintenance" not in str(refused.value)

    def test_an_event_with_unreadable_dates_fails_the_whole_feed(self):
        """Skipping it would free nights that a real booking takes: the last good blocks stay instead."""
        body = calendar(all_day("fine", 10, 12), "UID:broken\nDTSTART;VALUE=DATE:2030XX01")
        with pytest.raises(FeedInvalid, match="Event 2 has no readable DTSTART"):
            parse(body)

    def test_a_byte_order_mark_is_tolerated(self):
        assert len(parse(b"\xef\xbb\xbf" + calendar(all_day("bom", 3, 5))).events) == 1


def test_our_own_exported_stays_echoed_back_by_a_platform_are_not_imported():
    """A channel manager that re-exports what it imported from us must not make our stays block themselves."""
    body = calendar(
        all_day("stay-0123456789abcdef0123456789abcdef@stay.example.com", 10, 12),
        all_day("block-42@stay.example.com", 20, 22),
        all_day("theirs@stay.example.com", 30, 32),
    )
    feed = parse_feed(body, today=today(), local_tz=ROME, label="Channel manager", own_host="stay.example.com")
    assert [e.uid for e in feed.events] == ["theirs@stay.example.com"] and feed.ignored_own == 2
