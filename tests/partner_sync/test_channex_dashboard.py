"""Channel bookings on the owner's dashboard: nights under the platform's name, revenue net of commission."""

from decimal import Decimal

import pytest

from booking.admin import dashboard
from booking.catalog.selectors import today
from partner_sync.channex import bookings
from tests.dates import future

pytestmark = pytest.mark.django_db


def test_a_channel_booking_counts_under_its_platform_and_its_revenue_is_net_of_commission(channex):
    check_in = future(10)
    channex.book(arrival=check_in, departure=future(13), ota="BDC", amount=Decimal("900.00"))  # 15 % commission: 135.00
    bookings.drain_feed()
    rows = dashboard.load_window(today())
    [channel] = dashboard.nights_by_channel(rows, dashboard.feed_names())
    assert (channel.channel, channel.direct, channel.nights) == ("Booking.com", False, 3)
    months = {m.month: m.revenue for m in dashboard.monthly_occupancy_and_revenue(rows)}
    assert months[check_in.replace(day=1)] == Decimal("765.00")
