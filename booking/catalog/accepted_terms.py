"""The terms a guest accepted, frozen on the reservation when it is held (DESIGN "Money, second
round": "The policy the guest accepted applies").

The cancellation tiers, the deposit and balance terms and the security deposit are copied from the
rules in force at hold time. Refunds, the manage page, the emails and the API read this copy, so an
owner editing the policy later changes only new bookings. Pure: plain data in, plain data out.
"""

from decimal import Decimal

from booking.catalog import pricing
from booking.catalog.payment_schedule import PaymentTerms


def snapshot(rules: pricing.PricingRules) -> dict:
    """The JSON stored in Reservation.accepted_terms."""
    return {
        "cancellation_tiers": [
            {"days_before_arrival": tier.days_before_arrival, "refund_percent": str(tier.refund_percent)}
            for tier in sorted(rules.cancellation_tiers, key=lambda tier: -tier.days_before_arrival)
        ],
        "deposit_percent": str(rules.deposit_percent),
        "balance_due_days": rules.balance_due_days,
        "security_deposit": str(pricing.money(rules.security_deposit)),
    }


def tiers(terms: dict) -> tuple[pricing.RefundTier, ...]:
    return tuple(pricing.RefundTier(int(t["days_before_arrival"]), Decimal(str(t["refund_percent"]))) for t in terms.get("cancellation_tiers", ()))


def payment_terms(terms: dict) -> PaymentTerms:
    return PaymentTerms(deposit_percent=Decimal(str(terms.get("deposit_percent", "0"))), balance_due_days=int(terms.get("balance_due_days", 0)))


def security_deposit(terms: dict) -> Decimal:
    return pricing.money(str(terms.get("security_deposit", "0")))
