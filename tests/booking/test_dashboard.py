"""The back-office home is a dashboard (docs/contract.md, "Back office"): the next two weeks' arrivals and
departures, open holds, occupancy and revenue per month with charts, the average nightly rate, nights
by channel, and what needs attention. Dates are the property's (Europe/Rome), money is Decimal EUR.

The clock is frozen at 23:30 UTC on Sunday 9 March 2031, which is already 00:30 on Monday 10 March
in Florence: any UTC date arithmetic shows up as an off-by-one day.
"""

import re
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal

import pytest
import time_machine
from django.contrib.admin.utils import quote
from django.contrib.auth.models import Permission
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from booking.admin import dashboard
from booking.admin.charts import bar_chart_svg
from booking.callers import Caller
from booking.reservations.models import DateBlock, Reservation
from booking.reservations.services.audit import raise_flag
from booking.reservations.services.holds import GuestDetails, hold_stay
from booking.reservations.services.reservations import confirm_reservation
from partner_sync.models import Conflict, Feed, SyncOutcome

pytestmark = pytest.mark.django_db

NOW = datetime(2031, 3, 9, 23, 30, tzinfo=UTC)
TODAY = date(2031, 3, 10)  # in Rome
INDEX = reverse("admin:index")


@pytest.fixture
def frozen():
    with time_machine.travel(NOW, tick=False) as traveller:
        yield traveller


@pytest.fixture
def staff_client(frozen, client, django_user_model):
    # Logged in on the frozen clock: a session started today would have expired by 2031.
    client.force_login(django_user_model.objects.create_superuser("giulia", "giulia@example.com", "a-long-test-password"))
    return client


def stay(
    prop,
    check_in,
    check_out,
    *,
    status="confirmed",
    source="web",
    total="1000.00",
    paid="0",
    refunded="0",
    accommodation="900.00",
    discount="0",
    first_name="",
    flag="",
    **fields,
) -> Reservation:
    """A reservation written straight to the table: past stays cannot be held through the service.
    `flag`: a note for staff (an open flag in a person's words)."""
    reservation = Reservation.objects.create(
        property=prop,
        status=status,
        source=source,
        check_in=check_in,
        check_out=check_out,
        guests=2,
        total=Decimal(total),
        amount_paid=Decimal(paid),
        amount_refunded=Decimal(refunded),
        guest_first_name=first_name,
        price_breakdown={"accommodation": float(accommodation), "discount_amount": float(discount), "currency": "EUR"},
        **fields,
    )
    if flag:
        raise_flag(reservation, "note", {"text": flag})
    return reservation


def book(check_in, check_out, *, first_name, last_name="Rossi", pay=True, source="web") -> Reservation:
    """A stay held and confirmed through the services, paid in full or not at all."""
    held = hold_stay(check_in=check_in, check_out=check_out, guests=3, guest=GuestDetails(first_name=first_name, last_name=last_name), caller=Caller(source))
    return confirm_reservation(held.pk, actor="test", amount_paid=held.total if pay else None)


def dashboard_part(page: str) -> str:
    start = page.index('<div id="booking-dashboard"')
    return page[start : page.index('<div id="content-main"', start)]


# --- The month figures ----------------------------------------------------------------------------


@pytest.fixture
def march_2031(frozen, demo_property):
    """March 2031 has 31 nights: 1 + 4 booked directly, 5 by Airbnb, 5 closed by the owner."""
    airbnb = Feed.objects.create(name="Airbnb", url="https://airbnb.example/ical/1.ics")
    stay(demo_property, date(2031, 2, 27), date(2031, 3, 2), source="api", total="900.00", paid="900.00", accommodation="1000.00", discount="-100.00")
    stay(demo_property, date(2031, 3, 2), date(2031, 3, 6), total="1500.00", paid="1500.00", refunded="100.00", accommodation="1200.00")
    DateBlock.objects.create(property=demo_property, start=date(2031, 3, 20), end=date(2031, 3, 25), source="partner", feed_key=airbnb.block_key)
    DateBlock.objects.create(property=demo_property, start=date(2031, 3, 26), end=date(2031, 3, 31), source="staff", reason="painting")
    # Neither an expired hold nor a cancelled stay takes a night; a stay refunded in full earns nothing.
    stay(demo_property, date(2031, 3, 12), date(2031, 3, 15), status="expired", total="800.00")
    stay(demo_property, date(2031, 3, 15), date(2031, 3, 18), status="cancelled", total="800.00", paid="800.00", refunded="800.00")
    return airbnb


def test_occupancy_counts_direct_and_partner_nights_over_the_nights_for_sale(march_2031):
    months = {m.month: m for m in dashboard.monthly_occupancy_and_revenue(dashboard.load_window(TODAY))}
    march = months[date(2031, 3, 1)]
    assert (march.nights, march.booked_nights, march.staff_blocked_nights, march.nights_for_sale) == (31, 10, 5, 26)
    assert march.occupancy_percent == Decimal("38.5")  # 10 / 26
    february = months[date(2031, 2, 1)]
    assert (february.booked_nights, february.occupancy_percent) == (2, Decimal("7.1"))  # 27 and 28 February


def test_revenue_is_money_kept_in_the_month_of_check_in(march_2031):
    months = {m.month: m.revenue for m in dashboard.monthly_occupancy_and_revenue(dashboard.load_window(TODAY))}
    assert months[date(2031, 2, 1)] == Decimal("900.00")  # the stay arriving 27 February, though a night falls in March
    assert months[date(2031, 3, 1)] == Decimal("1400.00")
    assert sum(months.values()) == Decimal("2300.00")


def test_a_partial_refund_on_cancelling_leaves_the_kept_share_as_revenue(frozen, demo_property):
    """The reported defect: €1,050 paid, cancelled with €525 refunded, and the month showed 0.00."""
    stay(demo_property, date(2031, 4, 10), date(2031, 4, 13), status="cancelled", total="1050.00", paid="1050.00", refunded="525.00")
    # A deposit paid on a confirmed stay is revenue; its unpaid balance is not (yet).
    stay(demo_property, date(2031, 5, 10), date(2031, 5, 13), total="1000.00", paid="300.00")
    months = {m.month: m.revenue for m in dashboard.monthly_occupancy_and_revenue(dashboard.load_window(TODAY))}
    assert months[date(2031, 4, 1)] == Decimal("525.00")
    assert months[date(2031, 5, 1)] == Decimal("300.00")


def test_the_window_is_the_six_months_before_this_month_this_month_and_the_six_after(march_2031):
    months = [m.month for m in dashboard.monthly_occupancy_and_revenue(dashboard.load_window(TODAY))]
    assert months[0] == date(2030, 9, 1) and months[6] == date(2031, 3, 1) and months[-1] == date(2031, 9, 1)
    assert len(months) == 13


def test_average_nightly_rate_is_accommodation_after_discount_per_night(march_2031):
    assert dashboard.average_nightly_rate(dashboard.load_window(TODAY)) == Decimal("300.00")  # (900 + 1200) / 7 nights


def test_nights_by_channel_split_direct_sources_and_partner_feeds(march_2031):
    rows = dashboard.nights_by_channel(dashboard.load_window(TODAY), dashboard.feed_names())
    assert [(r.channel, r.direct, r.nights, r.share_percent) for r in rows] == [
        ("Airbnb", False, 5, Decimal("41.7")),
        ("Direct: Website", True, 4, Decimal("33.3")),
        ("Direct: REST API", True, 3, Decimal("25.0")),
    ]


def test_the_page_shows_the_month_figures_the_charts_and_the_definitions(staff_client, march_2031):
    part = dashboard_part(staff_client.get(INDEX).content.decode())
    assert "10 / 26" in part and "38.5 %" in part
    assert "1400.00 EUR" in part and "2300.00 EUR" in part and "300.00 EUR" in part
    assert part.count("<svg") == 2 and "Occupancy per month" in part
    assert "left out" in part and "month of check-in" in part  # the definitions are on the page
    assert "Airbnb" in part and "41.7 %" in part


# --- Arrivals, departures and holds ------------------------------------------------------------------


def test_arrivals_and_departures_of_the_next_14_days_in_rome_dates(frozen, demo_property, staff_client):
    paid = book(date(2031, 3, 11), date(2031, 3, 14), first_name="Ada")  # tomorrow in Rome, the day after in UTC
    unpaid = book(date(2031, 3, 20), date(2031, 3, 24), first_name="Bruno", pay=False, source="mcp")
    stay(demo_property, date(2031, 3, 6), date(2031, 3, 9), first_name="Gone")  # left yesterday (in Rome): not listed
    stay(demo_property, date(2031, 3, 24), date(2031, 3, 28), first_name="Late")  # 14 days ahead: outside
    airbnb = Feed.objects.create(name="Airbnb", url="https://airbnb.example/ical/1.ics")
    DateBlock.objects.create(property=demo_property, start=date(2031, 3, 16), end=date(2031, 3, 19), source="partner", feed_key=airbnb.block_key)

    movements = dashboard.upcoming_movements(TODAY, dashboard.feed_names())
    assert [(m.day, m.kind, m.guest_name or m.channel, m.payment) for m in movements] == [
        (date(2031, 3, 11), "arrival", "Ada Rossi", "paid"),
        (date(2031, 3, 14), "departure", "Ada Rossi", "paid"),
        (date(2031, 3, 16), "arrival", "Airbnb", ""),
        (date(2031, 3, 19), "departure", "Airbnb", ""),
        (date(2031, 3, 20), "arrival", "Bruno Rossi", "unpaid"),
    ]
    assert movements[0].channel == "Website" and movements[0].guests == 3 and movements[4].channel == "MCP agent"

    part = dashboard_part(staff_client.get(INDEX).content.decode())
    assert "today is Monday 10 March 2031" in part and "Europe/Rome" in part
    assert "Tue 11 Mar" in part and "Gone" not in part and "Late" not in part
    assert f'href="{reverse("admin:reservations_reservation_change", args=[quote(paid.pk)])}"' in part
    assert reverse("admin:reservations_reservation_change", args=[quote(unpaid.pk)]) in part
    assert f"{paid.total:.2f} of {paid.total:.2f} EUR" in part and f"0.00 of {unpaid.total:.2f} EUR" in part


def test_open_holds_show_the_minutes_left_and_the_rome_time_they_lapse(frozen, demo_property, staff_client, settings):
    settings.HOLD_MINUTES = 30
    hold = hold_stay(check_in=date(2031, 4, 7), check_out=date(2031, 4, 10), guests=2)  # lapses at 00:00 UTC, 01:00 in Rome
    stay(demo_property, date(2031, 4, 20), date(2031, 4, 23), status="held", hold_expires_at=NOW - timedelta(minutes=1))  # lapsed
    frozen.shift(timedelta(minutes=10, seconds=30))

    holds = dashboard.open_holds(NOW + timedelta(minutes=10, seconds=30))
    assert [(h.reservation.pk, h.minutes_left) for h in holds] == [(hold.pk, 20)]  # 19½ minutes: a started minute counts
    part = dashboard_part(staff_client.get(INDEX).content.decode())
    assert "20 min" in part and "01:00" in part


# --- Needs attention ---------------------------------------------------------------------------------


def test_needs_attention_lists_flags_pending_refunds_lapsed_checkouts_failing_feeds_and_conflicts(frozen, demo_property, staff_client):
    flagged = stay(demo_property, date(2031, 4, 1), date(2031, 4, 4), first_name="Flag", flag="late payment for nights taken meanwhile")
    refund = stay(demo_property, date(2031, 4, 5), date(2031, 4, 8), status="cancelled", first_name="Refund", paid="500.00", refund_pending="250.00")
    lapsed = stay(
        demo_property,
        date(2031, 4, 10),
        date(2031, 4, 13),
        status="held",
        first_name="Lapsed",
        checkout_session_id="cs_test_1",
        hold_expires_at=NOW - timedelta(minutes=5),
    )
    stay(demo_property, date(2031, 4, 14), date(2031, 4, 17), status="held", checkout_session_id="cs_test_2", hold_expires_at=NOW + timedelta(minutes=5))
    stay(demo_property, date(2031, 4, 18), date(2031, 4, 21), status="cancelled", paid="500.00", refunded="500.00")
    failing = Feed.objects.create(name="Booking.com", url="https://booking.example/1.ics", last_outcome=SyncOutcome.FAILED, last_error="HTTP 503")
    healthy = Feed.objects.create(name="Airbnb", url="https://airbnb.example/1.ics", last_outcome=SyncOutcome.IMPORTED)
    conflict = Conflict.objects.create(feed=healthy, reservation=flagged, external_uid="uid-1", start=date(2031, 4, 2), end=date(2031, 4, 5))
    Conflict.objects.create(feed=healthy, reservation=flagged, external_uid="uid-2", start=date(2031, 4, 2), end=date(2031, 4, 5), resolved_at=NOW)

    attention = dashboard.needs_attention(NOW)
    assert attention.flagged == [flagged]
    assert attention.refunds_pending == [refund]
    assert attention.checkouts_to_reconcile == [lapsed]
    assert attention.failing_feeds == [failing]
    assert attention.conflicts == [conflict]

    part = dashboard_part(staff_client.get(INDEX).content.decode())
    assert "late payment for nights taken meanwhile" in part
    assert "refund of 250.00 EUR" in part and "HTTP 503" in part and "Booking.com" in part
    assert "Lapsed" in part and "check whether it was paid" in part and "overlapping" in part


def test_nothing_needs_attention_on_a_quiet_day(frozen, demo_property, staff_client):
    assert not dashboard.needs_attention(NOW)
    assert "Nothing needs attention." in staff_client.get(INDEX).content.decode()


# --- The page ------------------------------------------------------------------------------------------


def fill_calendar(prop, count: int, first: date) -> None:
    """`count` stays of every kind the dashboard reads, back to back from `first`."""
    feed = Feed.objects.create(name=f"Feed {count}", url="https://example.com/1.ics", last_outcome=SyncOutcome.FAILED)
    for index in range(count):
        check_in = first + timedelta(days=3 * index)
        kind = index % 5
        if kind == 0:
            stay(prop, check_in, check_in + timedelta(days=3), first_name=f"Guest{index}", paid="1000.00")
        elif kind == 1:
            stay(prop, check_in, check_in + timedelta(days=3), status="held", hold_expires_at=NOW + timedelta(minutes=index))
        elif kind == 2:
            stay(prop, check_in, check_in + timedelta(days=3), status="cancelled", refund_pending="10.00")
        elif kind == 3:
            flagged = stay(prop, check_in, check_in + timedelta(days=3), flag="check this")
            Conflict.objects.create(feed=feed, reservation=flagged, external_uid=f"uid-{index}", start=check_in, end=check_in + timedelta(days=1))
        else:
            DateBlock.objects.create(property=prop, start=check_in, end=check_in + timedelta(days=3), source="partner", feed_key=feed.block_key)


def dashboard_queries(client) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(INDEX).status_code == 200
    return len(queries)


def test_the_page_costs_a_fixed_number_of_queries_however_many_reservations(
    frozen, demo_property, staff_client, django_assert_max_num_queries, django_assert_num_queries
):
    from config.admin import dashboard_context

    book(TODAY + timedelta(days=1), TODAY + timedelta(days=4), first_name="Soon")
    fill_calendar(demo_property, 4, first=date(2030, 10, 1))  # one of each kind, a flagged stay too
    # The whole page: session and user, the dashboard's 12, the property's name in the header, and the stock index's own (app list, recent actions).
    with django_assert_max_num_queries(18):
        few = dashboard_queries(staff_client)
    with django_assert_num_queries(12):  # one or two per table the dashboard reads (promo codes: one; flags: their history lines), none per row
        dashboard_context(NOW)
    fill_calendar(demo_property, 30, first=TODAY + timedelta(days=5))  # some arrive in the next 14 days
    assert dashboard_queries(staff_client) == few
    with django_assert_num_queries(12):
        dashboard_context(NOW)


def test_a_user_who_may_not_read_reservations_sees_the_stock_index(frozen, demo_property, client, django_user_model):
    book(date(2031, 3, 11), date(2031, 3, 14), first_name="Ada")
    user = django_user_model.objects.create_user("marco", "marco@example.com", "a-long-test-password", is_staff=True)
    user.user_permissions.add(Permission.objects.get(codename="view_dateblock"))
    client.force_login(user)
    page = client.get(INDEX).content.decode()
    assert "Date blocks" in page  # the app list is there
    assert "booking-dashboard" not in page and "Ada" not in page and "Arrivals" not in page


def test_the_page_renders_without_inline_script_or_inline_style(frozen, demo_property, staff_client):
    book(date(2031, 3, 11), date(2031, 3, 14), first_name="Ada")
    response = staff_client.get(INDEX)
    page = response.content.decode()
    assert "script-src 'self'" in response["Content-Security-Policy"]
    assert not re.search(r"<script(?![^>]*\ssrc=)[^>]*>", page), "every script is a file from our origin"
    part = dashboard_part(page)
    assert "<script" not in part and "style=" not in part
    assert "admin_dashboard/dashboard.css" in page
    assert "Recent actions" in page and 'id="content-main"' in page  # the stock index stays below


# --- The chart ------------------------------------------------------------------------------------------


def test_a_bar_chart_scales_bars_to_the_maximum_and_escapes_its_text():
    svg = bar_chart_svg([Decimal("50"), None, 100], ["Jan", "<b>Feb</b>", "Mar & Apr"], title='Occupancy "%"', maximum=100, highlight=2)
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    heights = [float(h) for h in re.findall(r'<rect [^>]*height="([\d.]+)"', svg)]
    assert len(heights) == 2 and heights[1] == 2 * heights[0]  # no bar where there is no value
    assert "<b>" not in svg and "&lt;b&gt;Feb&lt;/b&gt;" in svg and "Mar &amp; Apr" in svg and "&quot;%&quot;" in svg
    assert "style=" not in svg and 'fill="#b3541e"' in svg  # the highlighted bar
