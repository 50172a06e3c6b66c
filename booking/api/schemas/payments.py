"""Response shapes of the payment endpoints, for the OpenAPI document (drf-spectacular)."""

from rest_framework import serializers as s

from booking.api.schemas.responses import SCHEDULE_HELP, PriceBreakdown, ScheduleEntry


class CheckoutResult(s.Serializer):
    reservation_id = s.CharField()
    status = s.CharField(help_text="The reservation's status: held until the payment succeeds.")
    checkout_url = s.URLField(help_text="Send the guest here to pay.")
    session_id = s.CharField(help_text="The payment provider's checkout session id.")
    expires_at = s.DateTimeField(help_text="When the checkout closes; the hold lasts at least as long.")
    hold_expires_at = s.DateTimeField()
    amount = s.FloatField(help_text="What this checkout charges now: the deposit of payment_schedule, or the total when paid in full.")
    currency = s.CharField()
    provider = s.CharField(help_text="stripe, or sandbox (TEST PAYMENT — no money moves).")
    test_mode = s.BooleanField()
    check_in = s.DateField()
    check_out = s.DateField()
    nights = s.IntegerField()
    guests = s.IntegerField()
    price_breakdown = PriceBreakdown()
    payment_schedule = ScheduleEntry(many=True, help_text=SCHEDULE_HELP)

    class Meta:
        ref_name = "Checkout"
