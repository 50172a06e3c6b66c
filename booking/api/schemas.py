"""Response shapes for the OpenAPI document. The bodies themselves are built in
booking/presenters.py; these serializers only describe them (drf-spectacular)."""

from rest_framework import serializers as s


class ValidationErrorItem(s.Serializer):
    loc = s.ListField(child=s.JSONField(), help_text="Where the error is: 'query', 'body' or 'path', then field names or list indexes.")
    msg = s.CharField(help_text="What is wrong, for a human.")
    type = s.CharField(help_text="What is wrong, for a machine, e.g. missing, less_than_equal, date_in_past.")

    class Meta:
        ref_name = "ValidationError"


class HTTPValidationError(s.Serializer):
    detail = ValidationErrorItem(many=True)

    class Meta:
        ref_name = "HTTPValidationError"


class ErrorBody(s.Serializer):
    detail = s.CharField()
    code = s.CharField(help_text="not_found, dates_unavailable, reservation_not_payable, idempotency_key_reused, rate_limited, payload_too_large, payment_provider_error, service_unavailable, …")

    class Meta:
        ref_name = "Error"


class NightlyRate(s.Serializer):
    date = s.DateField()
    rate = s.FloatField()
    extra_guest_fee = s.FloatField()
    amount = s.FloatField()
    source = s.CharField()


class PriceBreakdown(s.Serializer):
    nights = s.IntegerField()
    nightly_avg = s.FloatField()
    accommodation = s.FloatField(help_text="Sum of nightly rates and extra-guest fees, before discount.")
    discount_label = s.CharField(allow_null=True)
    discount_percent = s.FloatField()
    discount_amount = s.FloatField(help_text="Zero or negative.")
    cleaning_fee = s.FloatField()
    cleaning_fee_label = s.CharField()
    city_tax = s.FloatField()
    city_tax_note = s.CharField()
    total = s.FloatField(help_text="accommodation + discount_amount + cleaning_fee + city_tax")
    currency = s.CharField()
    price_source = s.CharField(help_text="The rate rules that priced the nights, e.g. 'season:High season + base_rate'.")
    nightly_rates = NightlyRate(many=True)

    class Meta:
        ref_name = "PriceBreakdown"


class AvailabilityResult(s.Serializer):
    check_in = s.DateField()
    check_out = s.DateField()
    guests = s.IntegerField()
    available = s.BooleanField()
    unavailable_reason = s.CharField(allow_null=True, help_text="booked, min_stay, max_stay, closed_to_arrival, closed_to_departure, beyond_booking_window, too_many_guests")
    message = s.CharField(allow_null=True)
    nights = s.IntegerField()
    min_nights = s.IntegerField()
    price_breakdown = PriceBreakdown()


class QuoteResult(PriceBreakdown):
    check_in = s.DateField()
    check_out = s.DateField()
    guests = s.IntegerField()
    available = s.BooleanField()
    unavailable_reason = s.CharField(allow_null=True)
    exchange_rate = s.FloatField(help_text="Display currency units per unit of the charged currency.")
    charge_currency = s.CharField(help_text="The currency actually charged (EUR).")
    charge_total = s.FloatField()
    price_breakdown = PriceBreakdown()

    class Meta:
        ref_name = "Quote"


class CalendarDay(s.Serializer):
    date = s.DateField()
    available = s.BooleanField(help_text="The night starting this day is free.")
    check_in_allowed = s.BooleanField()
    check_out_allowed = s.BooleanField()
    min_nights = s.IntegerField(help_text="Shortest stay for an arrival on this day.")
    nightly_rate = s.FloatField()


class CalendarResult(s.Serializer):
    start = s.DateField()
    end = s.DateField()
    months = s.IntegerField()
    currency = s.CharField()
    days = CalendarDay(many=True)


class PaymentInfo(s.Serializer):
    status = s.CharField(help_text="awaiting_payment, paid, refunded, partially_refunded, not_paid")
    provider = s.CharField(allow_null=True)
    amount_due = s.FloatField()
    amount_paid = s.FloatField()
    amount_refunded = s.FloatField()
    currency = s.CharField()
    checkout_url = s.URLField(allow_null=True)
    how_to_pay = s.CharField(allow_null=True)
    checkout_session_endpoint = s.URLField(allow_null=True)


class GuestOut(s.Serializer):
    first_name = s.CharField(allow_null=True)
    last_name = s.CharField(allow_null=True)
    email = s.CharField(allow_null=True)
    phone = s.CharField(allow_null=True)


class ReservationResult(s.Serializer):
    id = s.CharField()
    reservation_id = s.CharField()
    status = s.ChoiceField(choices=["held", "confirmed", "expired", "cancelled"])
    check_in = s.DateField()
    check_out = s.DateField()
    guests = s.IntegerField()
    nights = s.IntegerField()
    hold_expires_at = s.DateTimeField(allow_null=True)
    price_breakdown = PriceBreakdown()
    payment = PaymentInfo()
    guest = GuestOut(allow_null=True)
    special_requests = s.CharField(allow_null=True)
    agent_name = s.CharField(allow_null=True)
    source = s.CharField()
    created_at = s.DateTimeField()
    confirmed_at = s.DateTimeField(allow_null=True)

    class Meta:
        ref_name = "Reservation"


class CheckoutResult(s.Serializer):
    reservation_id = s.CharField()
    checkout_url = s.URLField()
    session_id = s.CharField()
    expires_at = s.DateTimeField()
    amount = s.FloatField()
    currency = s.CharField()
    provider = s.CharField()
    status = s.CharField()

    class Meta:
        ref_name = "Checkout"


class HealthResult(s.Serializer):
    status = s.CharField()
    database = s.CharField()
    version = s.CharField()
    time = s.DateTimeField()
