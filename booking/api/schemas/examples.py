"""Examples for the OpenAPI document: real answers of the demo property, shortened (fewer nights,
amenities, reviews). A test checks that each one validates against its response schema."""

from typing import Any

_BREAKDOWN = {
    "nights": 3,
    "nightly_avg": 380.0,
    "accommodation": 1140.0,
    "discount_label": None,
    "discount_percent": 0.0,
    "discount_amount": 0.0,
    "discounts": [],
    "cleaning_fee": 120.0,
    "cleaning_fee_label": "Final cleaning, linen and towels",
    "city_tax": 21.0,
    "city_tax_note": "3.50 EUR per person per night, for at most 7 nights, included in the total; children under 12 are exempt when their ages are given at booking",
    "extras": [],
    "extras_total": 0.0,
    "total": 1281.0,
    "currency": "EUR",
    "price_source": "season:Spring and autumn high season",
    "nightly_rates": [
        {"date": day, "rate": 380.0, "extra_guest_fee": 0.0, "amount": 380.0, "source": "season:Spring and autumn high season"}
        for day in ("2027-05-10", "2027-05-11", "2027-05-12")
    ],
}
_STAY = {"check_in": "2027-05-10", "check_out": "2027-05-13", "guests": 2}
_SECURITY_DEPOSIT = {
    "amount": 300.0,
    "currency": "EUR",
    "kind": "card_hold",
    "refundable": True,
    "description": "Refundable security deposit (card hold): held on the card shortly before arrival and released after check-out; not part of the total.",
}
_SCHEDULE = [{"type": "immediate", "amount": 384.3, "due_date": None}, {"type": "deferred", "amount": 896.7, "due_date": "2027-04-10"}]

AVAILABILITY_EXAMPLE = {
    **_STAY,
    "available": True,
    "unavailable_reason": None,
    "message": None,
    "held_until": None,
    "nights": 3,
    "min_nights": 3,
    "price_breakdown": _BREAKDOWN,
    "payment_schedule": _SCHEDULE,
    "security_deposit": _SECURITY_DEPOSIT,
}
QUOTE_EXAMPLE = {
    **_STAY,
    "available": True,
    "unavailable_reason": None,
    **_BREAKDOWN,
    "exchange_rate": 1.0,
    "charge_currency": "EUR",
    "charge_total": 1281.0,
    "price_breakdown": _BREAKDOWN,
    "payment_schedule": _SCHEDULE,
    "security_deposit": _SECURITY_DEPOSIT,
}
# The same stay with a promo code and an extra (illustrative: the codes are the host's, docs/offers.md).
_OFFERS_BREAKDOWN = {
    **_BREAKDOWN,
    "discount_label": "Promo code",
    "discount_percent": 10.0,
    "discount_amount": -114.0,
    "discounts": [{"label": "Promo code", "percent": 10.0, "amount": -114.0, "code": "EXAMPLECODE"}],
    "extras": [{"code": "example_extra", "label": "Example extra", "quantity": 1, "amount": 60.0}],
    "extras_total": 60.0,
    "total": 1227.0,
}
QUOTE_WITH_OFFERS_EXAMPLE = {
    **QUOTE_EXAMPLE,
    **_OFFERS_BREAKDOWN,
    "charge_total": 1227.0,
    "price_breakdown": _OFFERS_BREAKDOWN,
}
PROMO_CODE_INVALID_EXAMPLE = {
    "detail": [{"loc": ["body", "promo_code"], "msg": "The code EXAMPLECODE needs a stay of at least 3 nights.", "type": "promo_code_invalid"}]
}
CALENDAR_EXAMPLE = {
    "start": "2027-05-01",
    "end": "2027-05-31",
    "months": 1,
    "currency": "EUR",
    "days": [
        {
            "date": "2027-05-01",
            "available": True,
            "check_in_allowed": True,
            "check_out_allowed": True,
            "min_nights": 3,
            "nightly_rate": 410.0,
            "gap_night": False,
            "gap_nightly_rate": None,
        },
        {
            "date": "2027-05-02",
            "available": False,
            "check_in_allowed": False,
            "check_out_allowed": True,
            "min_nights": 3,
            "nightly_rate": 380.0,
            "gap_night": False,
            "gap_nightly_rate": None,
        },
    ],
}
RESERVATION_EXAMPLE: dict[str, Any] = {
    "id": "res_8JTQhG4Q89AMQ57iRAaepw",
    "reservation_id": "res_8JTQhG4Q89AMQ57iRAaepw",
    "booking_number": "FLR-27-0042",
    "status": "held",
    **_STAY,
    "nights": 3,
    "hold_expires_at": "2027-04-02T10:30:00+00:00",
    "price_breakdown": _BREAKDOWN,
    "payment": {
        "status": "unpaid",
        "provider": None,
        "amount_due": 384.3,
        "amount_paid": 0.0,
        "amount_refunded": 0.0,
        "balance_due": 896.7,
        "balance_due_date": "2027-04-10",
        "currency": "EUR",
        "payment_schedule": _SCHEDULE,
        "security_deposit": _SECURITY_DEPOSIT,
        "checkout_url": None,
        "how_to_pay": 'POST https://example.com/api/v1/payments/checkout-session with {"reservation_id": "res_8JTQhG4Q89AMQ57iRAaepw"} and send the guest to the checkout_url it returns.',
        "checkout_session_endpoint": "https://example.com/api/v1/payments/checkout-session",
        "pay_url": "https://example.com/pay/res_8JTQhG4Q89AMQ57iRAaepw",
    },
    "guest": None,
    "special_requests": None,
    "agent_name": "example-agent",
    "source": "api",
    "created_at": "2027-04-02T10:00:00+00:00",
    "confirmed_at": None,
}
PROPERTY_EXAMPLE = {
    "id": "example-apartment",
    "accommodation_type_id": "whole_home",
    "rate_plan_id": "standard",
    "name": "Casa Example — Apartment in the old town",
    "headline": "A three-bedroom apartment with a terrace, for up to 7 guests.",
    "summary": "Apartment for up to 7 guests in the old town.",
    "description": "A light-filled apartment on the top floor of a restored building.",
    "property_type": "Apartment",
    "url": "https://example.com/example-apartment",
    "national_code": "IT000000C2XXXXXXXX",
    "address": {
        "street_address": "Via Example 1",
        "city": "Example City",
        "postal_code": "00000",
        "region": "Example Region",
        "country_code": "IT",
        "neighbourhood": "Old town",
    },
    "coordinates": {"latitude": 45.0, "longitude": 10.0},
    "capacity": {"max_guests": 7, "bedrooms": 3, "beds": 5, "bathrooms": 2.0, "size_sqm": 135},
    "amenities": [{"name": "Terrace", "category": "Outdoor"}],
    "photos": [{"url": "https://example.com/media/photos/terrace.jpg", "alt": "The terrace at sunset", "caption": "The terrace"}],
    "payment_terms": {
        "deposit_percent": 30,
        "balance_due_days": 30,
        "security_deposit": {"amount": 300.0, "currency": "EUR", "placed_days_before": 1, "released_days_after": 3},
        "currency": "EUR",
    },
    "pricing_rules": {
        "currency": "EUR",
        "base_nightly_rate": 290.0,
        "weekend_nightly_rate": 320.0,
        "weekend_nights": ["Friday", "Saturday"],
        "seasons": [
            {
                "name": "Christmas and New Year",
                "start": "12-20",
                "end": "01-06",
                "recurring_yearly": True,
                "nightly_rate": 420.0,
                "weekend_nightly_rate": None,
                "min_nights": 3,
                "priority": 10,
            }
        ],
        "min_nights": 2,
        "max_nights": 60,
        "min_nights_by_arrival_day": {"Saturday": 2},
        "closed_to_arrival": [],
        "closed_to_departure": [],
        "length_of_stay_discounts": [{"label": "Weekly discount", "min_nights": 7, "percent": 10.0}],
        "base_occupancy": 4,
        "extra_guest_fee_per_night": 25.0,
        "cleaning_fee": 120.0,
        "cleaning_fee_label": "Final cleaning, linen and towels",
        "city_tax": {"per_person_per_night": 3.5, "max_nights": 7, "exempt_under_age": 12, "note": "3.50 EUR per person per night, for at most 7 nights"},
        "booking_window_days": 730,
        "display_currencies": {"EUR": 1.0, "USD": 1.08},
        "early_bird": None,
        "last_minute": {"days": 7, "percent": 10.0},
        "gap_nights": {"percent": 15.0},
        "discounts_stack": False,
        "extras": [
            {"code": "example_extra", "name": "Example extra", "price": 60.0, "per": "stay", "max_quantity": 2, "notice_days": 0},
            {"code": "baby_cot", "name": "Baby cot", "price": 0.0, "per": "stay", "max_quantity": 1, "notice_days": 0},
        ],
    },
    "policies": {
        "check_in_from": "15:00",
        "check_in_until": "21:00",
        "check_out_until": "10:30",
        "house_rules": ["No smoking inside the apartment."],
        "cancellation_policy": "Cancel at least 30 days before arrival: a full refund. Cancel 7 to 29 days before arrival: 50 % refunded. "
        "Cancel less than 7 days before arrival: no refund. The city tax is always refunded in full.",
        "cancellation_tiers": [
            {"days_before_arrival": 30, "refund_percent": 100.0},
            {"days_before_arrival": 7, "refund_percent": 50.0},
            {"days_before_arrival": 0, "refund_percent": 0.0},
        ],
        "payment_policy": "You pay a deposit of 30% of the total when you book and the balance 30 days before check-in, charged to the same card.\n"
        "A stay that begins within 30 days is paid in full when you book.\n"
        "A refundable security deposit of €300.00 is held on your card 1 day before check-in; it is not part of the total.\n"
        "The hold is released 3 days after check-out unless there is damage.",
        "hold_minutes": 30,
    },
    "reviews": {
        "average_rating": 4.8,
        "count": 1,
        "items": [
            {
                "author": "Hannah",
                "rating": 5,
                "date": "2026-06-14",
                "text": "The terrace is even better than the photos.",
                "source": "Airbnb",
                "verified_stay": False,
            }
        ],
    },
    "host": {"name": "Anna", "languages": ["Italian", "English"]},
    "booking": {
        "recommended_flow": "POST https://example.com/api/v1/payments/checkout-link",
        "availability": "https://example.com/api/v1/availability",
        "calendar": "https://example.com/api/v1/calendar",
        "quote": "https://example.com/api/v1/quote",
    },
}
VALIDATION_ERROR_EXAMPLE = {"detail": [{"loc": ["query", "guests"], "msg": "Ensure this value is less than or equal to 7.", "type": "less_than_equal"}]}
BODY_VALIDATION_ERROR_EXAMPLE = {"detail": [{"loc": ["body", "check_out"], "msg": "check_out must be after check_in.", "type": "date_order"}]}
DATES_UNAVAILABLE_EXAMPLE = {"detail": "Some of these nights are already booked.", "code": "dates_unavailable", "unavailable_reason": "booked"}
NOT_FOUND_EXAMPLE = {"detail": "No reservation with id 'res_unknown'.", "code": "not_found"}
HEALTH_EXAMPLE = {"status": "ok", "database": "ok", "version": "1.0.0", "time": "2027-04-02T10:00:00+00:00"}

STAYS_EXAMPLE = {
    "nights": 3,
    "guests": 2,
    "start": "2027-05-01",
    "end": "2027-06-30",
    "currency": "EUR",
    "stays": [
        {
            "check_in": "2027-05-04",
            "check_out": "2027-05-07",
            "nights": 3,
            "total": 1011.0,
            "currency": "EUR",
            "gap_nights": False,
            "payment_schedule": [{"type": "immediate", "amount": 303.3, "due_date": None}, {"type": "deferred", "amount": 707.7, "due_date": "2027-04-04"}],
        }
    ],
    "security_deposit": _SECURITY_DEPOSIT,
}

_POLICY_TEXT = (
    "Cancel at least 30 days before arrival: a full refund. Cancel 7 to 29 days before arrival: 50 % refunded. "
    "Cancel less than 7 days before arrival: no refund. The city tax is always refunded in full."
)
CONFIRMED_RESERVATION_EXAMPLE: dict[str, Any] = {
    **RESERVATION_EXAMPLE,
    "status": "confirmed",
    "hold_expires_at": None,
    "confirmed_at": "2027-04-02T10:12:00+00:00",
    "payment": {
        **RESERVATION_EXAMPLE["payment"],
        "status": "deposit_paid",
        "provider": "stripe",
        "amount_due": 0.0,
        "amount_paid": 384.3,
        "checkout_url": None,
        "how_to_pay": None,
        "checkout_session_endpoint": None,
        "pay_url": None,
    },
    "cancellation": {"refund_if_cancelled_now": 384.3, "currency": "EUR", "policy": _POLICY_TEXT},
}
CANCELLED_RESERVATION_EXAMPLE = {
    **CONFIRMED_RESERVATION_EXAMPLE,
    "status": "cancelled",
    "payment": {**CONFIRMED_RESERVATION_EXAMPLE["payment"], "status": "refunded", "amount_refunded": 651.0},
    "refunded_amount": 651.0,
    "refund_pending": 0.0,
}
del CANCELLED_RESERVATION_EXAMPLE["cancellation"]
