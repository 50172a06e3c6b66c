"""The JSON shapes of the interface, built once and used by REST, MCP and A2A alike.

Money goes out as JSON numbers (docs/contract.md, "Stays and money"): each Decimal is already rounded to cents, so the float
it becomes prints exactly those cents.
"""

from decimal import Decimal

from django.conf import settings
from django.utils import timezone
from django.utils.translation import get_language, gettext, ngettext

from booking.catalog import accepted_terms, pricing
from booking.catalog import payment_schedule as schedules
from booking.catalog.breakdown import breakdown_json, number
from booking.catalog.breakdown_words import english_breakdown
from booking.catalog.models import Property
from booking.catalog.payment_state import reservation_payment_state
from booking.formatting import format_money
from booking.payments.checkout import pay_page_url
from booking.payments.selectors import given_back_for_date_changes, refund_if_cancelled
from booking.privacy import mask_email, mask_phone
from booking.reservations.models import Reservation
from booking.reservations.selectors import accepted_tiers

CHECKOUT_SESSION_PATH = "/api/v1/payments/checkout-session"
ZERO = Decimal("0.00")


def offers_json(rules: pricing.PricingRules) -> dict:
    """The automatic discounts and the extras on sale (docs/offers.md), for the property's pricing rules."""

    def days_ahead(rule: pricing.DaysAheadDiscount | None) -> dict | None:
        return None if rule is None else {"days": rule.days, "percent": number(rule.percent)}

    return {
        "early_bird": days_ahead(rules.early_bird),
        "last_minute": days_ahead(rules.last_minute),
        "gap_nights": None if rules.gap_nights is None else {"percent": number(rules.gap_nights.percent)},
        "discounts_stack": rules.stack_discounts,
        "extras": [
            {
                "code": e.code,
                "name": e.name(get_language()),
                "price": number(e.price),
                "per": str(e.per),
                "max_quantity": e.max_quantity,
                "notice_days": e.notice_days,
            }
            for e in rules.extras
        ],
    }


def availability_json(check) -> dict:
    return {
        "check_in": check.stay.check_in.isoformat(),
        "check_out": check.stay.check_out.isoformat(),
        "guests": check.guests,
        "available": check.verdict.available,
        "unavailable_reason": check.verdict.reason,
        "message": check.verdict.message,
        "held_until": check.verdict.held_until.isoformat() if check.verdict.held_until else None,
        "nights": check.stay.nights,
        "min_nights": check.verdict.min_nights,
        "price_breakdown": breakdown_json(check.quote),
        "payment_schedule": schedules.schedule_json(check.schedule),
        "security_deposit": schedules.security_deposit_json(check.terms.security_deposit, check.quote.currency),
    }


def stays_json(found) -> dict:
    return {
        "nights": found.nights,
        "guests": found.guests,
        "start": found.start.isoformat(),
        "end": found.end.isoformat(),
        "currency": found.currency,
        "stays": [
            {
                "check_in": s.check_in.isoformat(),
                "check_out": s.check_out.isoformat(),
                "nights": found.nights,
                "total": number(s.total),
                "currency": found.currency,
                "gap_nights": s.gap_stay,
                **({"promo_code_applied": s.promo_code_applied} if found.promo_code else {}),
                "payment_schedule": schedules.schedule_json(found.schedule_of(s)),
            }
            for s in found.stays
        ],
        **({"promo_code": found.promo_code} if found.promo_code else {}),
        # The same for every stay found: a card hold before arrival, never in any total above.
        "security_deposit": schedules.security_deposit_json(found.terms.security_deposit, found.currency),
    }


def quote_json(priced) -> dict:
    """The breakdown's fields at the top level (spec: "full price breakdown"), with the stay, the
    verdict and the same breakdown nested as price_breakdown, as in the availability answer."""
    check = priced.check
    breakdown = breakdown_json(check.quote, rate=priced.exchange_rate, currency=priced.currency)
    body = {
        "check_in": check.stay.check_in.isoformat(),
        "check_out": check.stay.check_out.isoformat(),
        "guests": check.guests,
        "available": check.verdict.available,
        "unavailable_reason": check.verdict.reason,
        **breakdown,
        "exchange_rate": number(priced.exchange_rate),
        "charge_currency": check.quote.currency,
        "charge_total": number(check.quote.total),
        "price_breakdown": breakdown,
        # In the quote's currency, like the amounts above (the charge is in charge_currency).
        "payment_schedule": schedules.schedule_json(check.schedule_for(Decimal(str(breakdown["total"])))),
        "security_deposit": schedules.security_deposit_json(check.terms.security_deposit, check.quote.currency),
    }
    return body


def calendar_json(cal) -> dict:
    return {
        "start": cal.first_day.isoformat(),
        "end": cal.last_day.isoformat(),
        "months": cal.months,
        "currency": cal.currency,
        "days": [
            {
                "date": d.date.isoformat(),
                "available": d.available,
                "check_in_allowed": d.check_in_allowed,
                "check_out_allowed": d.check_out_allowed,
                "min_nights": d.min_nights,
                "nightly_rate": number(d.nightly_rate),
                "gap_night": d.gap_night,
                "gap_nightly_rate": None if d.gap_nightly_rate is None else number(d.gap_nightly_rate),
            }
            for d in cal.days
        ],
    }


def payment_json(reservation: Reservation, status: str) -> dict:
    """What was paid, what is due now and what later (and when)."""
    held = status == Reservation.Status.HELD
    schedule = schedules.stored_schedule(reservation.payment_schedule, reservation.total)
    balance = schedules.balance_entry(schedule)
    if held:
        due_now, balance_due = schedules.due_now(schedule), balance.amount if balance else ZERO
    elif status == Reservation.Status.CONFIRMED:
        balance_due = max(ZERO, reservation.total - reservation.amount_paid + given_back_for_date_changes(reservation))
        due_now = balance_due if balance_due and (balance is None or balance.due_date is None or balance.due_date <= timezone.localdate()) else ZERO
    else:  # expired or cancelled: nothing more is owed (an unpaid balance is waived)
        due_now = balance_due = ZERO
    base = settings.BASE_URL
    return {
        "status": reservation_payment_state(reservation).value,
        "provider": reservation.payment_provider or None,
        "amount_due": number(due_now),
        "amount_paid": number(reservation.amount_paid),
        "amount_refunded": number(reservation.amount_refunded),
        "balance_due": number(balance_due),
        "balance_due_date": balance.due_date.isoformat() if balance and balance.due_date and balance_due else None,
        "currency": reservation.currency,
        "payment_schedule": schedules.schedule_json(schedule),
        "security_deposit": schedules.security_deposit_json(accepted_terms.security_deposit(reservation.accepted_terms), reservation.currency),
        "checkout_url": reservation.checkout_url or None if held else None,
        "how_to_pay": (
            f"Send the guest to pay_url (it opens the checkout). Or POST {base}{CHECKOUT_SESSION_PATH} "
            f'with {{"reservation_id": "{reservation.id}"}} (MCP and A2A: create_checkout_session) and send the guest to its checkout_url.'
            if held
            else None
        ),
        "checkout_session_endpoint": f"{base}{CHECKOUT_SESSION_PATH}" if held else None,
        "pay_url": pay_page_url(reservation.id) if held else None,
    }


def effective_status(reservation: Reservation, now=None) -> str:
    """A hold past its expiry is expired at that instant, whether or not the job has run yet."""
    if reservation.status == Reservation.Status.HELD and not reservation.is_blocking(now):
        return Reservation.Status.EXPIRED
    return reservation.status


def reservation_json(reservation: Reservation, *, mask: bool = True) -> dict:
    """The reservation body (docs/contract.md, "Reservations"). Masked for lookups: the id is the only credential."""
    status = effective_status(reservation)
    held = status == Reservation.Status.HELD
    guest = {
        "first_name": reservation.guest_first_name or None,
        "last_name": (reservation.guest_last_name[:1] + "." if mask and reservation.guest_last_name else reservation.guest_last_name or None),
        "email": mask_email(reservation.guest_email) if mask else reservation.guest_email or None,
        "phone": mask_phone(reservation.guest_phone) if mask else reservation.guest_phone or None,
    }
    return {
        "id": reservation.id,
        "reservation_id": reservation.id,
        "booking_number": reservation.booking_number,  # for people ("FLR-27-0042"); never a credential
        "status": status,
        "check_in": reservation.check_in.isoformat(),
        "check_out": reservation.check_out.isoformat(),
        "guests": reservation.guests,
        "nights": reservation.nights,
        "hold_expires_at": reservation.hold_expires_at.isoformat() if held and reservation.hold_expires_at else None,
        "price_breakdown": english_breakdown(reservation.price_breakdown or {}, reservation.property),  # English, whatever the booking's language
        "payment": payment_json(reservation, status),
        "guest": guest if any(guest.values()) else None,
        "special_requests": reservation.special_requests or None,
        "agent_name": reservation.agent_name or None,
        "source": reservation.source,
        "created_at": reservation.created_at.isoformat(),
        "confirmed_at": reservation.confirmed_at.isoformat() if reservation.confirmed_at else None,
        **cancellation_json(reservation, status),
    }


def cancellation_json(reservation: Reservation, status: str) -> dict:
    """What cancelling means for this stay (docs/contract.md, "After the payment"): for a confirmed stay
    the refund the policy gives today; for a cancelled one what was refunded."""
    if status == Reservation.Status.CONFIRMED:
        return {
            "cancellation": {
                "refund_if_cancelled_now": number(refund_if_cancelled(reservation).amount),
                "currency": reservation.currency,
                "policy": pricing.policy_text(accepted_tiers(reservation)),
            }
        }
    if status == Reservation.Status.CANCELLED:
        return {"refunded_amount": number(reservation.amount_refunded), "refund_pending": number(reservation.refund_pending)}
    return {}


# One accommodation type (the whole home) and one rate plan, with ids that never change: UCP
# booking sessions name them (discovery/ucp), and agents read them from the property document.
ACCOMMODATION_TYPE_ID = "whole_home"
RATE_PLAN_ID = "standard"


def property_json(prop: Property, rules: pricing.PricingRules) -> dict:
    reviews = [r for r in prop.reviews.all() if r.published]
    average = round(sum(r.rating for r in reviews) / len(reviews), 2) if reviews else None
    weekdays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    base = settings.BASE_URL
    terms = payment_terms_json(prop, rules)
    return {
        "id": prop.slug,
        "accommodation_type_id": ACCOMMODATION_TYPE_ID,
        "rate_plan_id": RATE_PLAN_ID,
        "name": prop.name,
        "headline": prop.headline,
        "summary": prop.summary,
        "description": prop.description,
        "property_type": prop.property_type,
        "url": f"{base}/{prop.slug}",
        "national_code": prop.national_code or None,
        "address": {
            "street_address": prop.street_address,
            "city": prop.city,
            "postal_code": prop.postal_code,
            "region": prop.region,
            "country_code": prop.country_code,
            "neighbourhood": prop.neighbourhood,
        },
        "coordinates": {"latitude": float(prop.latitude), "longitude": float(prop.longitude)},
        "capacity": {
            "max_guests": prop.max_guests,
            "bedrooms": prop.bedrooms,
            "beds": prop.beds,
            "bathrooms": float(prop.bathrooms),
            "size_sqm": prop.size_sqm,
        },
        "amenities": [{"name": a.name, "category": a.category} for a in prop.amenities.all()],
        "photos": [{"url": base + p.url, "alt": p.alt_text, "caption": p.caption} for p in prop.photos.all()],
        "payment_terms": terms,
        "pricing_rules": {
            "currency": rules.currency,
            "base_nightly_rate": number(rules.base_nightly_rate),
            "weekend_nightly_rate": number(rules.weekend_nightly_rate) if rules.weekend_nightly_rate is not None else None,
            "weekend_nights": ["Friday", "Saturday"],
            "seasons": [
                {
                    "name": s.name,
                    "start": s.start.strftime("%m-%d") if s.recurring else s.start.isoformat(),
                    "end": s.end.strftime("%m-%d") if s.recurring else s.end.isoformat(),
                    "recurring_yearly": s.recurring,
                    "nightly_rate": number(s.nightly_rate),
                    "weekend_nightly_rate": number(s.weekend_nightly_rate) if s.weekend_nightly_rate is not None else None,
                    "min_nights": s.min_nights,
                    "priority": s.priority,
                }
                for s in rules.seasons
            ],
            "min_nights": rules.min_nights,
            "max_nights": rules.max_nights,
            "min_nights_by_arrival_day": {weekdays[d]: n for d, n in sorted(rules.arrival_day_min_nights.items())},
            "closed_to_arrival": [weekdays[d] for d in sorted(rules.closed_to_arrival)],
            "closed_to_departure": [weekdays[d] for d in sorted(rules.closed_to_departure)],
            "length_of_stay_discounts": [{"label": d.label, "min_nights": d.min_nights, "percent": number(d.percent)} for d in rules.discounts],
            "base_occupancy": rules.base_occupancy,
            "extra_guest_fee_per_night": number(rules.extra_guest_fee),
            "cleaning_fee": number(rules.cleaning_fee),
            "cleaning_fee_label": rules.cleaning_fee_label,
            "city_tax": {
                "per_person_per_night": number(rules.city_tax_per_person_night),
                "max_nights": rules.city_tax_max_nights,
                "exempt_under_age": rules.city_tax_exempt_under_age,
                "note": pricing.city_tax_note(rules),
            },
            "booking_window_days": rules.booking_window_days,
            "display_currencies": {code: number(rate) for code, rate in sorted(rules.display_currencies.items())},
            **offers_json(rules),
        },
        "policies": {
            "check_in_from": prop.check_in_from.strftime("%H:%M"),
            "check_in_until": prop.check_in_until.strftime("%H:%M"),
            "check_out_until": prop.check_out_until.strftime("%H:%M"),
            "house_rules": [line.strip() for line in prop.house_rules.splitlines() if line.strip()],
            # Generated from the tiers the refund is computed from, so the two never disagree.
            "cancellation_policy": pricing.policy_text(rules.cancellation_tiers),
            "cancellation_tiers": [
                {"days_before_arrival": tier.days_before_arrival, "refund_percent": number(tier.refund_percent)}
                for tier in sorted(rules.cancellation_tiers, key=lambda tier: -tier.days_before_arrival)
            ],
            "payment_policy": payment_policy_text(terms),
            "hold_minutes": settings.HOLD_MINUTES,
        },
        "reviews": {
            "average_rating": average,
            "count": len(reviews),
            "items": [
                {"author": r.author, "rating": r.rating, "date": r.date.isoformat(), "text": r.text, "source": r.source, "verified_stay": r.verified_stay}
                for r in reviews
            ],
        },
        "host": {"name": prop.host_name, "languages": [x.strip() for x in prop.languages.split(",") if x.strip()]},
        "booking": {
            "recommended_flow": f"POST {base}/api/v1/payments/checkout-link",
            "availability": f"{base}/api/v1/availability",
            "calendar": f"{base}/api/v1/calendar",
            "quote": f"{base}/api/v1/quote",
        },
    }


def payment_terms_json(prop: Property, rules: pricing.PricingRules) -> dict:
    """The owner's payment terms as data (DESIGN "Payment terms are data"): every sentence about
    when a guest pays is composed from this, never typed."""
    return terms_json(
        prop, deposit_percent=rules.deposit_percent, balance_due_days=rules.balance_due_days, security_deposit=rules.security_deposit, currency=rules.currency
    )


def terms_json(prop: Property, *, deposit_percent, balance_due_days: int, security_deposit: Decimal, currency: str) -> dict:
    """The payment_terms shape, of the owner's terms today or of those a stay was held under."""
    deposit = pricing.money(security_deposit)
    return {
        "deposit_percent": int(deposit_percent),
        "balance_due_days": balance_due_days,
        "security_deposit": (
            {
                "amount": number(deposit),
                "currency": currency,
                "placed_days_before": prop.security_deposit_days_before,
                "released_days_after": prop.security_deposit_release_days,
            }
            if deposit > 0
            else None
        ),
        "currency": currency,
    }


def payment_policy_lines(terms: dict) -> list[str]:
    """payment_terms_json in the reader's language, a sentence a line (schedule: payment_schedule.py)."""
    percent, days = terms["deposit_percent"], terms["balance_due_days"]
    if 0 < percent < 100:
        lines = [
            ngettext(
                "You pay a deposit of {percent}% of the total when you book and the balance {days} day before check-in, charged to the same card.",
                "You pay a deposit of {percent}% of the total when you book and the balance {days} days before check-in, charged to the same card.",
                days,
            ).format(percent=percent, days=days),
            ngettext(
                "A stay that begins within {days} day is paid in full when you book.",
                "A stay that begins within {days} days is paid in full when you book.",
                days,
            ).format(days=days),
        ]
    else:
        lines = [gettext("The full amount is paid when you book.")]
    if deposit := terms["security_deposit"]:
        amount = format_money(deposit["amount"], deposit["currency"])
        before, after = deposit["placed_days_before"], deposit["released_days_after"]
        lines += [
            ngettext(
                "A refundable security deposit of {amount} is held on your card {days} day before check-in; it is not part of the total.",
                "A refundable security deposit of {amount} is held on your card {days} days before check-in; it is not part of the total.",
                before,
            ).format(amount=amount, days=before),
            ngettext(
                "The hold is released {days} day after check-out unless there is damage.",
                "The hold is released {days} days after check-out unless there is damage.",
                after,
            ).format(days=after),
        ]
    return lines


def payment_policy_text(terms: dict) -> str:
    return "\n".join(payment_policy_lines(terms))


# --- A stay managed by its guest's token (services/guest_bookings.py) ------------------------------


def guest_booking_json(booking) -> dict:
    """GET /api/v1/bookings/{manage_token}: the reservation (masked, as the lookup by id) and what
    its guest may do with it now."""
    return {
        **reservation_json(booking.reservation, mask=True),
        "manage": {
            "manage_url": booking.manage_url,
            "can_cancel": booking.can_cancel,
            "refund_if_cancelled_now": number(booking.refund_if_cancelled_now),
            "can_change_dates": booking.can_change_dates,
            "change_dates_refusal": booking.change_dates_refusal,
            "full_refund_days": booking.full_refund_days,
            "balance_owed": number(booking.balance_owed),
            "pay_balance_url": booking.pay_balance_url,
        },
    }


def cancellation_answer_json(cancellation) -> dict:
    return {
        "cancelled": cancellation.cancelled,
        "refund": number(cancellation.refund),
        "currency": cancellation.booking.reservation.currency,
        "booking": guest_booking_json(cancellation.booking),
    }


def date_change_answer_json(answer) -> dict:
    quote = answer.quote
    return {
        "changed": answer.changed,
        "change": {
            "check_in": quote.check_in.isoformat(),
            "check_out": quote.check_out.isoformat(),
            "nights": quote.nights,
            "old_total": number(quote.old_total),
            "total": number(quote.total),
            "difference": number(quote.difference),
            "refund": number(quote.refund),
            "owed": number(quote.owed),
            "owed_due_date": quote.owed_due_date.isoformat() if quote.owed and quote.owed_due_date else None,
            "currency": quote.currency,
            "price_breakdown": english_breakdown(quote.breakdown, answer.booking.reservation.property),
        },
        "booking": guest_booking_json(answer.booking),
    }
