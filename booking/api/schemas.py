"""Response shapes for the OpenAPI document. The bodies themselves are built in
booking/presenters.py; these serializers only describe them (drf-spectacular)."""

from drf_spectacular.extensions import OpenApiSerializerFieldExtension
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers as s

# What booking.validation.ReturnUrlField accepts: an absolute https URL, or http on loopback, with no
# spaces, quotes or angle brackets (surrounding whitespace is trimmed). Said in the schema so that
# clients (and fuzzers) know it. No "format: uri": the API takes non-ASCII characters (IRIs), which
# that format refuses.
RETURN_URL_PATTERN = r"""^\s*(https://[^\s<>"'\x00/?#\[\]]+|http://(localhost|127\.0\.0\.1|\[::1\])(:[0-9]{1,5})?)([/?#][^\r\n\t <>"'\x00]*)?\s*$"""


class ReturnUrlFieldSchema(OpenApiSerializerFieldExtension):
    target_class = "booking.validation.ReturnUrlField"

    def map_serializer_field(self, auto_schema, direction):
        return {
            "type": "string",
            "pattern": RETURN_URL_PATTERN,
            "minLength": 1,
            "maxLength": 2000,
            "description": "Absolute https URL (http only for localhost) the payer returns to. Default: this site's page.",
        }


class NonBlankTextSchema(OpenApiSerializerFieldExtension):
    """booking.validation's text fields refuse "" (and only-whitespace text, which is trimmed to
    "") unless they allow blanks. drf-spectacular says so only under its ENFORCE_NON_BLANK_FIELDS
    setting, so it is said here."""

    target_class = "booking.validation.StrictCharField"

    def map_serializer_field(self, auto_schema, direction):
        if self.target.allow_blank:
            return {"type": "string"}
        return {"type": "string", "minLength": 1, "pattern": r"\S"}


class NullableGuestOutSchema(OpenApiSerializerFieldExtension):
    """A nullable nested object, inlined. drf-spectacular writes {allOf: [$ref], nullable: true},
    but in OpenAPI 3.0.3 `nullable` only widens a `type` in the same schema object, so that form
    refuses null (strict validators and generated clients read it so). Inlined, the object's
    `type` sits beside `nullable` and null is allowed, as the API answers it."""

    target_class = "booking.api.schemas.GuestOut"

    def map_serializer_field(self, auto_schema, direction):
        return auto_schema._map_basic_serializer(self.target, direction)


class NullableGuestInfoSchema(NullableGuestOutSchema):
    target_class = "booking.validation.GuestInfo"


@extend_schema_field({"anyOf": [{"type": "string"}, {"type": "integer"}]})
class LocPart(s.JSONField):
    """A step of an error's location: a field name, or the index of a list item."""


class ValidationErrorItem(s.Serializer):
    loc = s.ListField(child=LocPart(), help_text="Where the error is: 'query', 'body' or 'path', then field names or list indexes.")
    msg = s.CharField(help_text="What is wrong, for a human.")
    type = s.CharField(help_text="What is wrong, for a machine, e.g. missing, less_than_equal, date_in_past.")

    class Meta:
        ref_name = "ValidationError"


class HTTPValidationError(s.Serializer):
    detail = ValidationErrorItem(many=True)
    request_id = s.CharField(required=False, help_text="This request's id (also the X-Request-ID header), to quote when reporting a problem.")

    class Meta:
        ref_name = "HTTPValidationError"


class ErrorBody(s.Serializer):
    detail = s.CharField()
    code = s.CharField(help_text="not_found, dates_unavailable, reservation_not_payable, idempotency_key_reused, rate_limited, payload_too_large, payment_provider_error, service_unavailable, …")
    unavailable_reason = s.CharField(required=False, allow_null=True, help_text="With dates_unavailable: booked, on_hold, min_stay, max_stay, closed_to_arrival, closed_to_departure, beyond_booking_window.")
    held_until = s.DateTimeField(required=False, help_text="With on_hold: when the unpaid hold in the way lapses unless paid.")
    retry_after = s.IntegerField(required=False, help_text="With rate_limited: seconds to wait before trying again (also the Retry-After header).")
    request_id = s.CharField(required=False, help_text="This request's id (also the X-Request-ID header), to quote when reporting a problem.")

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
    unavailable_reason = s.CharField(allow_null=True, help_text="booked, on_hold, min_stay, max_stay, closed_to_arrival, closed_to_departure, beyond_booking_window, too_many_guests")
    message = s.CharField(allow_null=True)
    held_until = s.DateTimeField(allow_null=True, help_text="With on_hold: when another guest's unpaid hold on these nights lapses unless paid; retry after it.")
    nights = s.IntegerField()
    min_nights = s.IntegerField()
    price_breakdown = PriceBreakdown()


class FoundStay(s.Serializer):
    check_in = s.DateField()
    check_out = s.DateField()
    nights = s.IntegerField()
    total = s.FloatField(help_text="What a quote of this stay gives, city tax included.")
    currency = s.CharField()


class StaysResult(s.Serializer):
    nights = s.IntegerField()
    guests = s.IntegerField()
    start = s.DateField(help_text="Earliest arrival searched.")
    end = s.DateField(help_text="Latest arrival searched.")
    currency = s.CharField()
    stays = FoundStay(many=True, help_text="Up to 10 bookable stays, cheapest first (then earliest).")


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


class CancellationOut(s.Serializer):
    refund_if_cancelled_now = s.FloatField(help_text="The refund the policy gives if the guest cancels today (property's local date).")
    currency = s.CharField()
    policy = s.CharField(help_text="The cancellation policy in words.")


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
    cancellation = CancellationOut(required=False, help_text="Only on a confirmed stay: what cancelling today would refund.")
    refunded_amount = s.FloatField(required=False, help_text="Only on a cancelled reservation: what was refunded.")
    refund_pending = s.FloatField(required=False, help_text="Only on a cancelled reservation: refund owed but not yet confirmed by the payment provider.")

    class Meta:
        ref_name = "Reservation"


class Address(s.Serializer):
    street_address = s.CharField()
    city = s.CharField()
    postal_code = s.CharField()
    region = s.CharField()
    country_code = s.CharField(help_text="ISO 3166-1 alpha-2, e.g. IT.")
    neighbourhood = s.CharField()


class Coordinates(s.Serializer):
    latitude = s.FloatField()
    longitude = s.FloatField()


class Capacity(s.Serializer):
    max_guests = s.IntegerField(help_text="Most guests allowed, children included.")
    bedrooms = s.IntegerField()
    beds = s.IntegerField()
    bathrooms = s.FloatField()
    size_sqm = s.IntegerField(allow_null=True)


class Amenity(s.Serializer):
    name = s.CharField()
    category = s.CharField()


class Photo(s.Serializer):
    url = s.URLField()
    alt = s.CharField()
    caption = s.CharField()


class Season(s.Serializer):
    name = s.CharField()
    start = s.CharField(help_text="MM-DD when recurring_yearly, else YYYY-MM-DD.")
    end = s.CharField(help_text="MM-DD when recurring_yearly, else YYYY-MM-DD; the last night of the season.")
    recurring_yearly = s.BooleanField()
    nightly_rate = s.FloatField()
    weekend_nightly_rate = s.FloatField(allow_null=True)
    min_nights = s.IntegerField(allow_null=True)
    priority = s.IntegerField()


class LengthOfStayDiscount(s.Serializer):
    label = s.CharField()
    min_nights = s.IntegerField()
    percent = s.FloatField()


class CityTax(s.Serializer):
    per_person_per_night = s.FloatField()
    max_nights = s.IntegerField()
    exempt_under_age = s.IntegerField()
    note = s.CharField()


class PricingRules(s.Serializer):
    currency = s.CharField()
    base_nightly_rate = s.FloatField()
    weekend_nightly_rate = s.FloatField(allow_null=True)
    weekend_nights = s.ListField(child=s.CharField())
    seasons = Season(many=True)
    min_nights = s.IntegerField()
    max_nights = s.IntegerField()
    min_nights_by_arrival_day = s.DictField(child=s.IntegerField(), help_text="Weekday name → shortest stay for an arrival that day.")
    closed_to_arrival = s.ListField(child=s.CharField(), help_text="Weekdays on which guests may not arrive.")
    closed_to_departure = s.ListField(child=s.CharField(), help_text="Weekdays on which guests may not leave.")
    length_of_stay_discounts = LengthOfStayDiscount(many=True)
    base_occupancy = s.IntegerField(help_text="Guests included in the nightly rate.")
    extra_guest_fee_per_night = s.FloatField()
    cleaning_fee = s.FloatField()
    cleaning_fee_label = s.CharField()
    city_tax = CityTax()
    booking_window_days = s.IntegerField(help_text="How many days ahead guests may arrive.")
    display_currencies = s.DictField(child=s.FloatField(), help_text="Currency code → units per EUR, for quotes.")


class CancellationTierOut(s.Serializer):
    days_before_arrival = s.IntegerField()
    refund_percent = s.FloatField()


class Policies(s.Serializer):
    check_in_from = s.CharField(help_text="HH:MM")
    check_in_until = s.CharField(help_text="HH:MM")
    check_out_until = s.CharField(help_text="HH:MM")
    house_rules = s.ListField(child=s.CharField())
    cancellation_policy = s.CharField(help_text="The policy in words, generated from cancellation_tiers.")
    cancellation_tiers = CancellationTierOut(many=True, help_text="Cancel at least days_before_arrival days before arrival (property's local date): refund_percent % back; the city tax always in full.")
    payment_policy = s.CharField()
    hold_minutes = s.IntegerField(help_text="How long a hold keeps the dates while the guest pays.")


class Review(s.Serializer):
    author = s.CharField()
    rating = s.IntegerField()
    date = s.DateField()
    text = s.CharField()
    source = s.CharField()


class Reviews(s.Serializer):
    average_rating = s.FloatField(allow_null=True)
    count = s.IntegerField()
    items = Review(many=True)


class Host(s.Serializer):
    name = s.CharField()
    languages = s.ListField(child=s.CharField())


class BookingLinks(s.Serializer):
    recommended_flow = s.CharField()
    availability = s.URLField()
    calendar = s.URLField()
    quote = s.URLField()


class PropertyResult(s.Serializer):
    id = s.CharField()
    name = s.CharField()
    headline = s.CharField()
    summary = s.CharField()
    description = s.CharField()
    property_type = s.CharField()
    url = s.URLField()
    national_code = s.CharField(allow_null=True, help_text="The national registration code (CIN) of the rental.")
    address = Address()
    coordinates = Coordinates()
    capacity = Capacity()
    amenities = Amenity(many=True)
    photos = Photo(many=True)
    pricing_rules = PricingRules()
    policies = Policies()
    reviews = Reviews()
    host = Host()
    booking = BookingLinks()

    class Meta:
        ref_name = "Property"


class HealthResult(s.Serializer):
    status = s.CharField()
    database = s.CharField()
    version = s.CharField()
    time = s.DateTimeField()


# --- Examples for the OpenAPI document ----------------------------------------------------------
# Real answers of the demo property, shortened (fewer nights, amenities, reviews). A test checks
# that each one validates against its response schema.

_BREAKDOWN = {
    "nights": 3, "nightly_avg": 380.0, "accommodation": 1140.0, "discount_label": None, "discount_percent": 0.0,
    "discount_amount": 0.0, "cleaning_fee": 120.0, "cleaning_fee_label": "Final cleaning, linen and towels",
    "city_tax": 21.0, "city_tax_note": "3.50 EUR per person per night, for at most 7 nights, included in the total; children under 12 are exempt when their ages are given at booking",
    "total": 1281.0, "currency": "EUR", "price_source": "season:Spring and autumn high season",
    "nightly_rates": [
        {"date": day, "rate": 380.0, "extra_guest_fee": 0.0, "amount": 380.0, "source": "season:Spring and autumn high season"}
        for day in ("2027-05-10", "2027-05-11", "2027-05-12")
    ],
}
_STAY = {"check_in": "2027-05-10", "check_out": "2027-05-13", "guests": 2}

AVAILABILITY_EXAMPLE = {**_STAY, "available": True, "unavailable_reason": None, "message": None, "held_until": None, "nights": 3, "min_nights": 3, "price_breakdown": _BREAKDOWN}
QUOTE_EXAMPLE = {
    **_STAY, "available": True, "unavailable_reason": None, **_BREAKDOWN,
    "exchange_rate": 1.0, "charge_currency": "EUR", "charge_total": 1281.0, "price_breakdown": _BREAKDOWN,
}
CALENDAR_EXAMPLE = {
    "start": "2027-05-01", "end": "2027-05-31", "months": 1, "currency": "EUR",
    "days": [
        {"date": "2027-05-01", "available": True, "check_in_allowed": True, "check_out_allowed": True, "min_nights": 3, "nightly_rate": 410.0},
        {"date": "2027-05-02", "available": False, "check_in_allowed": False, "check_out_allowed": True, "min_nights": 3, "nightly_rate": 380.0},
    ],
}
RESERVATION_EXAMPLE = {
    "id": "res_8JTQhG4Q89AMQ57iRAaepw", "reservation_id": "res_8JTQhG4Q89AMQ57iRAaepw", "status": "held", **_STAY, "nights": 3,
    "hold_expires_at": "2027-04-02T10:30:00+00:00", "price_breakdown": _BREAKDOWN,
    "payment": {
        "status": "awaiting_payment", "provider": None, "amount_due": 1281.0, "amount_paid": 0.0, "amount_refunded": 0.0, "currency": "EUR",
        "checkout_url": None,
        "how_to_pay": "POST https://example.com/api/v1/payments/checkout-session with {\"reservation_id\": \"res_8JTQhG4Q89AMQ57iRAaepw\"} and send the guest to the checkout_url it returns.",
        "checkout_session_endpoint": "https://example.com/api/v1/payments/checkout-session",
    },
    "guest": None, "special_requests": None, "agent_name": "example-agent", "source": "api",
    "created_at": "2027-04-02T10:00:00+00:00", "confirmed_at": None,
}
PROPERTY_EXAMPLE = {
    "id": "penthouse-florence", "name": "Attico Santa Croce — Penthouse in Florence",
    "headline": "A three-bedroom penthouse with a roof terrace facing the Duomo, for up to 7 guests.",
    "summary": "Penthouse for up to 7 guests in the historic centre of Florence.", "description": "A light-filled penthouse on the fifth and sixth floors of a restored palazzo.",
    "property_type": "Penthouse apartment", "url": "https://example.com/penthouse-florence", "national_code": "IT048017C2PENTFI001",
    "address": {"street_address": "Via dei Pepi 42", "city": "Florence", "postal_code": "50122", "region": "Tuscany", "country_code": "IT", "neighbourhood": "Santa Croce"},
    "coordinates": {"latitude": 43.76956, "longitude": 11.26243},
    "capacity": {"max_guests": 7, "bedrooms": 3, "beds": 5, "bathrooms": 2.0, "size_sqm": 135},
    "amenities": [{"name": "Roof terrace with Duomo view", "category": "Outdoor"}],
    "photos": [{"url": "https://example.com/static/img/photos/terrace.svg", "alt": "The roof terrace at sunset", "caption": "The terrace"}],
    "pricing_rules": {
        "currency": "EUR", "base_nightly_rate": 290.0, "weekend_nightly_rate": 320.0, "weekend_nights": ["Friday", "Saturday"],
        "seasons": [{"name": "Christmas and New Year", "start": "12-20", "end": "01-06", "recurring_yearly": True, "nightly_rate": 420.0, "weekend_nightly_rate": None, "min_nights": 3, "priority": 10}],
        "min_nights": 2, "max_nights": 60, "min_nights_by_arrival_day": {"Saturday": 2}, "closed_to_arrival": [], "closed_to_departure": [],
        "length_of_stay_discounts": [{"label": "Weekly discount", "min_nights": 7, "percent": 10.0}],
        "base_occupancy": 4, "extra_guest_fee_per_night": 25.0, "cleaning_fee": 120.0, "cleaning_fee_label": "Final cleaning, linen and towels",
        "city_tax": {"per_person_per_night": 3.5, "max_nights": 7, "exempt_under_age": 12, "note": "3.50 EUR per person per night, for at most 7 nights"},
        "booking_window_days": 730, "display_currencies": {"EUR": 1.0, "USD": 1.08},
    },
    "policies": {
        "check_in_from": "15:00", "check_in_until": "21:00", "check_out_until": "10:30", "house_rules": ["No smoking inside the apartment."],
        "cancellation_policy": "Cancel at least 30 days before arrival: a full refund. Cancel 7 to 29 days before arrival: 50 % refunded. "
        "Cancel less than 7 days before arrival: no refund. The city tax is always refunded in full.",
        "cancellation_tiers": [{"days_before_arrival": 30, "refund_percent": 100.0}, {"days_before_arrival": 7, "refund_percent": 50.0}, {"days_before_arrival": 0, "refund_percent": 0.0}],
        "payment_policy": "The full amount is paid when you book.", "hold_minutes": 30,
    },
    "reviews": {"average_rating": 4.8, "count": 1, "items": [{"author": "Hannah", "rating": 5, "date": "2026-06-14", "text": "The terrace is even better than the photos.", "source": "Airbnb"}]},
    "host": {"name": "Giulia", "languages": ["Italian", "English"]},
    "booking": {
        "recommended_flow": "POST https://example.com/api/v1/payments/checkout-link", "availability": "https://example.com/api/v1/availability",
        "calendar": "https://example.com/api/v1/calendar", "quote": "https://example.com/api/v1/quote",
    },
}
VALIDATION_ERROR_EXAMPLE = {"detail": [{"loc": ["query", "guests"], "msg": "Ensure this value is less than or equal to 7.", "type": "less_than_equal"}]}
BODY_VALIDATION_ERROR_EXAMPLE = {"detail": [{"loc": ["body", "check_out"], "msg": "check_out must be after check_in.", "type": "date_order"}]}
DATES_UNAVAILABLE_EXAMPLE = {"detail": "Some of these nights are already booked.", "code": "dates_unavailable", "unavailable_reason": "booked"}
NOT_FOUND_EXAMPLE = {"detail": "No reservation with id 'res_unknown'.", "code": "not_found"}
HEALTH_EXAMPLE = {"status": "ok", "database": "ok", "version": "1.0.0", "time": "2027-04-02T10:00:00+00:00"}

STAYS_EXAMPLE = {
    "nights": 3, "guests": 2, "start": "2027-05-01", "end": "2027-06-30", "currency": "EUR",
    "stays": [{"check_in": "2027-05-04", "check_out": "2027-05-07", "nights": 3, "total": 1011.0, "currency": "EUR"}],
}

_POLICY_TEXT = (
    "Cancel at least 30 days before arrival: a full refund. Cancel 7 to 29 days before arrival: 50 % refunded. "
    "Cancel less than 7 days before arrival: no refund. The city tax is always refunded in full."
)
CONFIRMED_RESERVATION_EXAMPLE = {
    **RESERVATION_EXAMPLE, "status": "confirmed", "hold_expires_at": None, "confirmed_at": "2027-04-02T10:12:00+00:00",
    "payment": {**RESERVATION_EXAMPLE["payment"], "status": "paid", "provider": "stripe", "amount_due": 0.0, "amount_paid": 1281.0, "checkout_url": None, "how_to_pay": None, "checkout_session_endpoint": None},
    "cancellation": {"refund_if_cancelled_now": 1281.0, "currency": "EUR", "policy": _POLICY_TEXT},
}
CANCELLED_RESERVATION_EXAMPLE = {
    **CONFIRMED_RESERVATION_EXAMPLE, "status": "cancelled",
    "payment": {**CONFIRMED_RESERVATION_EXAMPLE["payment"], "status": "refunded", "amount_refunded": 651.0},
    "refunded_amount": 651.0, "refund_pending": 0.0,
}
del CANCELLED_RESERVATION_EXAMPLE["cancellation"]
