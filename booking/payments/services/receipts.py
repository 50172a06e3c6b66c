"""Receipts: one for every successful payment (deposit, balance, in full), numbered per calendar
year, issued in the transaction that records the payment (under the property's lock, so two
payments never get one number), written in the guest's language (docs/money.md)."""

from decimal import Decimal

from django.core.mail import EmailMultiAlternatives
from django.db.models import Max
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from booking.catalog.breakdown_words import read_breakdown
from booking.formatting import format_date, format_money
from booking.outbox.models import OutboundEmail
from booking.payments.models import Payment, Receipt
from booking.payments.receipt_pdf import ReceiptDocument, render
from booking.reservations.models import Reservation

STAMP_DUTY, STAMP_DUTY_ABOVE = Decimal("2.00"), Decimal("77.47")


def issue_receipt(payment: Payment) -> Receipt:
    """Number the payment's receipt (call in the transaction that records the payment)."""
    existing = Receipt.objects.filter(payment=payment).first()
    if existing is not None:
        return existing
    issued_on = timezone.localdate()
    last = Receipt.objects.filter(year=issued_on.year).aggregate(last=Max("sequence"))["last"] or 0
    return Receipt.objects.create(payment=payment, year=issued_on.year, sequence=last + 1, issued_on=issued_on)


def receipt_for(reservation: Reservation, year: int, sequence: int) -> Receipt | None:
    return Receipt.objects.select_related("payment").filter(payment__reservation=reservation, year=year, sequence=sequence).first()


def receipts_of(reservation: Reservation) -> list[Receipt]:
    return list(Receipt.objects.select_related("payment").filter(payment__reservation=reservation).order_by("year", "sequence"))


def receipt_pdf(receipt: Receipt) -> bytes:
    reservation = receipt.payment.reservation
    with translation.override(reservation.language or "en"):
        return render(receipt_document(receipt))


def receipt_document(receipt: Receipt) -> ReceiptDocument:
    payment = receipt.payment
    reservation, prop = payment.reservation, payment.reservation.property
    currency = reservation.currency
    breakdown = read_breakdown(reservation.price_breakdown or {}, prop)  # in the booking's language

    def money(value: object) -> str:
        return format_money(Decimal(str(value or 0)), currency)

    paid_until_now = sum((p.amount for p in reservation.payments.filter(paid_at__lte=payment.paid_at)), Decimal("0.00"))
    kinds = {Payment.Kind.DEPOSIT: _("Deposit"), Payment.Kind.BALANCE: _("Balance"), Payment.Kind.FULL: _("Payment in full")}
    prices = [(_("Accommodation (%(nights)s nights)") % {"nights": reservation.nights}, money(breakdown.get("accommodation")))]
    if breakdown.get("discount_amount"):
        prices.append((breakdown.get("discount_label") or _("Discount"), money(breakdown["discount_amount"])))
    if breakdown.get("cleaning_fee"):
        prices.append((breakdown.get("cleaning_fee_label") or _("Cleaning"), money(breakdown["cleaning_fee"])))
    for line in breakdown.get("extras") or []:  # sold with the stay, in the booking's language (docs/offers.md)
        if Decimal(str(line["amount"])):
            prices.append((f"{line['label']} × {line['quantity']}", money(line["amount"])))
    if breakdown.get("city_tax"):
        prices.append((_("City tax, collected on behalf of the municipality of %(city)s") % {"city": prop.city}, money(breakdown["city_tax"])))
    prices.append((_("Total of the stay"), money(reservation.total)))
    notes = []
    if prop.receipt_stamp_duty and payment.amount > STAMP_DUTY_ABOVE:
        notes.append(_("Stamp duty of %(amount)s paid (imposta di bollo, art. 13 DPR 642/1972).") % {"amount": format_money(STAMP_DUTY, currency)})
    return ReceiptDocument(
        title=_("Receipt %(number)s") % {"number": receipt.number},
        issued=_("Issued on %(date)s") % {"date": format_date(receipt.issued_on, "j F Y")},
        host_lines=[
            x
            for x in [
                prop.host_name or prop.name,
                *prop.receipt_host_address.splitlines(),
                _("Tax code: %(code)s") % {"code": prop.receipt_tax_code} if prop.receipt_tax_code else "",
            ]
            if x
        ],
        guest_lines=[x for x in [_("Guest"), reservation.guest_name, reservation.guest_email] if x],
        stay_lines=[
            prop.name,
            _("%(arrival)s to %(departure)s, %(guests)s guests")
            % {
                "arrival": format_date(reservation.check_in, "j F Y"),
                "departure": format_date(reservation.check_out, "j F Y"),
                "guests": reservation.guests,
            },
            _("Reservation %(id)s") % {"id": reservation.reference},
        ],
        price_lines=prices,
        payment_lines=[
            (
                _("%(kind)s paid on %(date)s") % {"kind": kinds[Payment.Kind(payment.kind)], "date": format_date(timezone.localtime(payment.paid_at), "j F Y")},
                money(payment.amount),
            ),
            (_("Paid so far"), money(paid_until_now)),
            (_("Still due"), money(max(Decimal("0.00"), reservation.total - paid_until_now))),
        ],
        notes=notes,
    )


def attach_receipts(row: OutboundEmail, message: EmailMultiAlternatives | None) -> EmailMultiAlternatives | None:
    """The guest's confirmation carries the receipt of the payment that confirmed the stay; a
    "payment received" email the receipt of that payment (the newest issued before it was queued)."""
    kinds = (OutboundEmail.Kind.CONFIRMATION, OutboundEmail.Kind.PAYMENT_RECEIVED)
    if message is None or row.reservation_id is None or row.recipient != OutboundEmail.Recipient.GUEST or row.kind not in kinds:
        return message
    issued = Receipt.objects.select_related("payment__reservation__property").filter(payment__reservation_id=row.reservation_id)
    if row.kind == OutboundEmail.Kind.CONFIRMATION:  # queued a moment before its payment was recorded, in one transaction
        receipt = issued.order_by("payment__paid_at", "sequence").first()
    else:
        receipt = issued.filter(payment__paid_at__lte=row.created_at).order_by("-payment__paid_at", "-sequence").first()
    if receipt is not None:
        message.attach(f"receipt-{receipt.year}-{receipt.sequence:04d}.pdf", receipt_pdf(receipt), "application/pdf")
    return message
