"""A reservation's payment state, the one computation the API (`payment.status`), the back office's
reservation list and the dashboard all show (DESIGN "Apps as the design card draws them": one
operation, one code path). Pure: it reads three amounts, never the database.

It sits in the catalog, beside the pure payment schedule, rather than in booking/payments: the
dashboard is reachable from partner_sync's admin (through config.admin), and the import contract
keeps partner_sync away from the money app, even indirectly.
"""

from decimal import Decimal

from django.db import models
from django.utils.translation import pgettext_lazy


class PaymentState(models.TextChoices):
    UNPAID = "unpaid", pgettext_lazy("payment", "unpaid")
    DEPOSIT_PAID = "deposit_paid", pgettext_lazy("payment", "deposit paid")
    PAID = "paid", pgettext_lazy("payment", "paid")
    PARTIALLY_REFUNDED = "partially_refunded", pgettext_lazy("payment", "partially refunded")
    REFUNDED = "refunded", pgettext_lazy("payment", "refunded")


def payment_state(*, total: Decimal, amount_paid: Decimal, amount_refunded: Decimal) -> PaymentState:
    """unpaid, deposit_paid, paid, partially_refunded or refunded (docs/contract.md, "Money").

    - everything paid was given back: refunded;
    - what was given back is only what was paid beyond a lower total (a date change made the stay
      cheaper): paid;
    - some of it given back: partially_refunded;
    - the total (or more) paid: paid; something but less: deposit_paid; nothing: unpaid (a stay
      whose total is 0 and that nobody paid is unpaid, not paid).
    """
    paid, refunded = amount_paid, amount_refunded
    if refunded > 0 and refunded >= paid > 0:
        return PaymentState.REFUNDED
    if refunded > 0 and paid - refunded == total:
        return PaymentState.PAID
    if refunded > 0:
        return PaymentState.PARTIALLY_REFUNDED
    if paid > 0 and paid >= total:
        return PaymentState.PAID
    if paid > 0:
        return PaymentState.DEPOSIT_PAID
    return PaymentState.UNPAID


def reservation_payment_state(reservation) -> PaymentState:
    """payment_state() of anything carrying `total`, `amount_paid` and `amount_refunded`."""
    return payment_state(total=reservation.total, amount_paid=reservation.amount_paid, amount_refunded=reservation.amount_refunded)
