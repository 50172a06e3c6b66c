"""A reservation as a UCP lodging booking session (lodging/booking.json and its extensions).

Amounts are integer minor units (cents) of the reservation's frozen breakdown; the non-total
entries of `totals` add up to the total. The status follows the reservation: a live hold is
`requires_escalation` (the guest pays on our page, continue_url), a paid stay `completed`, a hold
that lapsed or was released `canceled`.
"""

from datetime import datetime, time, timedelta
from decimal import Decimal

from django.conf import settings
from django.utils import timezone

from booking.api.presenters import mask_email, mask_phone, payment_policy_lines, terms_json
from booking.catalog import accepted_terms, pricing
from booking.catalog.breakdown_words import english_breakdown
from booking.catalog.models import Property
from booking.payments.ledger import to_cents
from booking.payments.schedule import scheduled_payments
from booking.reservations.models import Reservation
from booking.reservations.selectors import accepted_tiers
from discovery.ucp import profile

Status = Reservation.Status
PAY_ON_OUR_PAGE = (
    "The guest pays on this property's secure payment page: hand continue_url to them. "
    "The page collects their name, email and phone; the booking is completed when the payment succeeds."
)
CITY_TAX_EXCEPTION = "The city tax is always refunded in full."


def session_status(reservation: Reservation) -> str:
    if reservation.status == Status.CONFIRMED:
        return "completed"
    if reservation.status == Status.HELD and reservation.is_blocking():
        return "requires_escalation"
    return "canceled"


def continue_url(reservation: Reservation) -> str:
    """Our own page that opens (or reopens) the payment page of this hold: discovery.ucp.views.continue_booking."""
    return f"{settings.BASE_URL}/pay/{reservation.pk}"


def booking_json(reservation: Reservation, messages: list[dict] | None = None, *, status: str | None = None) -> dict:
    status = status or session_status(reservation)
    totals = totals_json(reservation)
    body = {
        "ucp": profile.response_meta(),
        "id": reservation.pk,
        "status": status,
        "property": property_json(reservation.property),
        "stays": [stay_json(reservation, totals)],
        "currency": reservation.currency,
        "totals": totals,
        "links": links_json(),
        "policies": [cancellation_policy_json(reservation)],
        "payment": {"terms": payment_terms_json(reservation), "selected_term_id": profile.PAYMENT_TERM_ID},
    }
    if guests := (reservation.agent_party or {}).get("guests"):
        body["guests"] = guests  # as the platform sent them, ids preserved
    messages = list(messages or [])
    if status in ("requires_escalation", "incomplete"):
        body["continue_url"] = continue_url(reservation)
        body["expires_at"] = timestamp(reservation.hold_expires_at)
        messages.append({"type": "error", "code": "payment_required", "content": PAY_ON_OUR_PAGE, "severity": "requires_buyer_input"})
    if status == "completed":
        body["confirmation"] = {"id": reservation.pk, "label": reservation.pk.removeprefix("res_")[:10].upper()}
        if booker := booker_json(reservation):
            body["booker"] = booker
    if messages:
        body["messages"] = messages
    return body


def booker_json(reservation: Reservation) -> dict | None:
    """The payer as the payment page collected them, masked as GET /api/v1/reservations/{id} masks
    them: the session id lets its holder follow the booking, not learn who the guest is (README,
    "What a reservation id reveals"). UCP wants a named lead with a contact channel on a completed
    booking; the masked channel says which one the confirmation went to."""
    contact = {"email": mask_email(reservation.guest_email), "phone_number": mask_phone(reservation.guest_phone)}
    contact = {key: value for key, value in contact.items() if value}
    if not (reservation.guest_first_name and reservation.guest_last_name and contact):
        return None
    return {"first_name": reservation.guest_first_name, "last_name": reservation.guest_last_name[:1] + ".", **contact}


def error_json(messages: list[dict]) -> dict:
    """No session exists to act on (e.g. the nights are taken): the UCP error envelope."""
    return {"ucp": profile.error_meta(), "messages": messages, "continue_url": settings.BASE_URL + "/book"}


def property_json(prop: Property) -> dict:
    address = {
        "street_address": prop.street_address,
        "address_locality": prop.city,
        "address_region": prop.region,
        "address_country": prop.country_code,
        "postal_code": prop.postal_code,
    }
    return {"id": prop.slug, "name": prop.name, "address": {key: value for key, value in address.items() if value}}


def accommodation_type_json(prop: Property) -> dict:
    return {
        "id": profile.ACCOMMODATION_TYPE_ID,
        "title": f"{prop.name} (the whole home)",
        "capacity": {"adults": prop.max_guests, "children": prop.max_guests - 1, "total": prop.max_guests},
    }


def rate_plan_json(reservation: Reservation) -> dict:
    """Title and description state the payment terms the stay was held under (accepted_terms), in
    the words of the property's payment_policy: never a sentence of their own."""
    terms = accepted_payment_terms(reservation)
    percent, days = terms["deposit_percent"], terms["balance_due_days"]
    balance = f"balance {days} day{'s' if days != 1 else ''} before check-in"
    title = f"Standard rate: {percent}% deposit, {balance}" if 0 < percent < 100 else "Standard rate, paid in full when booked"
    return {
        "id": profile.RATE_PLAN_ID,
        "title": title,
        "description": " ".join(
            [*payment_policy_lines(terms), "Refunds on cancellation follow the cancellation policy; the city tax is always refunded in full."]
        ),
    }


def accepted_payment_terms(reservation: Reservation) -> dict:
    """The property's payment_terms shape (presenters.payment_terms_json) of the terms this stay
    was held under: the deposit, balance and security deposit it accepted."""
    accepted = reservation.accepted_terms or {}
    schedule = accepted_terms.payment_terms(accepted)
    return terms_json(
        reservation.property,
        deposit_percent=schedule.deposit_percent,
        balance_due_days=schedule.balance_due_days,
        security_deposit=accepted_terms.security_deposit(accepted),
        currency=reservation.currency,
    )


def stay_json(reservation: Reservation, totals: list[dict]) -> dict:
    ages = list(reservation.children_ages or ())
    occupancy = {"adults": reservation.guests - len(ages), "total": reservation.guests}
    if ages:
        occupancy |= {"children": len(ages), "child_ages": ages}
    stay = {
        "id": profile.STAY_ID,
        "accommodation_type": accommodation_type_json(reservation.property),
        "rate_plan": rate_plan_json(reservation),
        "occupancy": occupancy,
        "stay_dates": {"start_date": reservation.check_in.isoformat(), "end_date": reservation.check_out.isoformat()},
        "totals": totals,  # one stay: its totals are the booking's
    }
    if assignments := (reservation.agent_party or {}).get("guest_assignments"):
        stay["guest_assignments"] = assignments
    return stay


def cents(value) -> int:
    return to_cents(Decimal(str(value or 0)))


def totals_json(reservation: Reservation) -> list[dict]:
    """subtotal (per-night lines), discount, fee (cleaning; extras with a line each), tax (city tax), total."""
    breakdown = english_breakdown(reservation.price_breakdown or {}, reservation.property)
    nights = breakdown.get("nightly_rates") or []
    count = breakdown.get("nights") or reservation.nights
    subtotal = {
        "type": "subtotal",
        "display_text": f"Accommodation ({count} night{'s' if count != 1 else ''})",
        "amount": cents(breakdown.get("accommodation")),
    }
    lines = [{"display_text": f"Night of {night['date']}", "amount": cents(night["amount"])} for night in nights]
    if lines and sum(line["amount"] for line in lines) == subtotal["amount"]:  # lines must add up to their entry
        subtotal["lines"] = lines
    totals = [subtotal]
    if cents(breakdown.get("discount_amount")) < 0:
        totals.append({"type": "discount", "display_text": breakdown.get("discount_label") or "Discount", "amount": cents(breakdown["discount_amount"])})
    if cents(breakdown.get("cleaning_fee")) > 0:
        totals.append({"type": "fee", "display_text": breakdown.get("cleaning_fee_label") or "Cleaning", "amount": cents(breakdown["cleaning_fee"])})
    extras = [line for line in breakdown.get("extras") or [] if cents(line["amount"]) > 0]
    if extras:  # sold with the stay (docs/offers.md): one fee, each extra a line
        fee = {"type": "fee", "display_text": "Extras", "amount": cents(breakdown.get("extras_total"))}
        fee["lines"] = [{"display_text": f"{line['label']} × {line['quantity']}", "amount": cents(line["amount"])} for line in extras]
        totals.append(fee)
    if cents(breakdown.get("city_tax")) > 0:
        totals.append({"type": "tax", "display_text": "City tax", "amount": cents(breakdown["city_tax"])})
    totals.append({"type": "total", "display_text": "Total", "amount": to_cents(reservation.total)})
    return totals


def payment_terms_json(reservation: Reservation) -> list[dict]:
    schedules = [
        {
            "id": f"payment_{index}",
            "type": payment.kind,
            "description": {"plain": payment.description},
            "amount": to_cents(payment.amount),
            **({"due_at": timestamp(payment.due_at)} if payment.due_at else {}),
        }
        for index, payment in enumerate(scheduled_payments(reservation), start=1)
    ]
    title = "Deposit now, balance before check-in" if len(schedules) > 1 else "Pay in full when booked"
    return [{"id": profile.PAYMENT_TERM_ID, "title": title, "schedules": schedules}]


def links_json() -> list[dict]:
    base = settings.BASE_URL
    return [
        {"type": "privacy_policy", "url": f"{base}/privacy"},
        {"type": "terms_of_service", "url": f"{base}/booking-policies", "title": "Booking policies"},
        {"type": "cancellation_policy", "url": f"{base}/booking-policies#cancellation"},
    ]


def cancellation_policy_json(reservation: Reservation) -> dict:
    """The property's cancellation tiers as the UCP cancellation-policy extension states them.

    A tier "at least N days before arrival" is judged on the property's local dates: cancelling on
    any day up to arrival − N counts. So the anchor is the end of the arrival day (local midnight
    after it) and each tier's cutoff is N days before that."""
    tiers = sorted(accepted_tiers(reservation), key=lambda tier: -tier.days_before_arrival)  # earliest cutoff first
    percents = [tier.refund_percent for tier in tiers]
    if not tiers or max(percents) == 0:
        refundability = "non_refundable"
    elif min(percents) == 100:
        refundability = "refundable"
    else:
        refundability = "partially_refundable"
    local = timezone.get_default_timezone()
    anchor = datetime.combine(reservation.check_in + timedelta(days=1), time(0), tzinfo=local)
    policy = {
        "type": profile.CANCELLATION_POLICY,
        "description": {"plain": policy_words(tiers)},
        "refundability": refundability,
        "url": f"{settings.BASE_URL}/booking-policies#cancellation",
    }
    if tiers:
        policy["schedule"] = {
            "anchor": timestamp(anchor),
            "tiers": [{"until": f"P{tier.days_before_arrival}D", "outcome": percentage(tier.refund_percent)} for tier in tiers],
            "after_last_tier": percentage(Decimal(0)),
        }
    return policy


def policy_words(tiers) -> str:
    words = pricing.policy_text(tiers) or "No refund on cancellation."
    return words if "city tax" in words.lower() else f"{words} {CITY_TAX_EXCEPTION}"


def percentage(percent: Decimal) -> dict:
    return {"kind": "percentage", "buyer_bps": int(Decimal(percent) * 100)}


def timestamp(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment else None
