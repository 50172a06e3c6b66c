"""What the reservation's page says about money and arrival, in the reader's language (DESIGN
"Finishing what a guest and an owner see"): the stay's lines with extras and the total
(booking/payments/money_lines.py, the lines the guest paid from), what was paid, refunded and is
still due and when, the security deposit's state, the online check-in's state, dates one way
(`day`) and the guest's language by its name."""

from datetime import date

from django.contrib import admin
from django.utils.dateformat import format as date_format
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from booking.admin_display import with_currency
from booking.catalog.accepted_terms import security_deposit
from booking.italy.checkin import check_in_for, check_in_open
from booking.payments.models import SecurityDeposit
from booking.payments.money_lines import balance_entry, stay_lines
from booking.payments.services.balances import balance_owed
from booking.reservations.models import Reservation

DEPOSIT_STATES = {
    SecurityDeposit.Status.HELD: gettext_lazy("held on the card"),
    SecurityDeposit.Status.RELEASED: gettext_lazy("released"),
    SecurityDeposit.Status.CLAIMED: gettext_lazy("claimed"),
    SecurityDeposit.Status.RENEWED: gettext_lazy("renewed (a new hold replaced it)"),
    SecurityDeposit.Status.REPLACED: gettext_lazy("renewed (a new hold replaced it)"),
    SecurityDeposit.Status.PLACING: gettext_lazy("being placed"),
    SecurityDeposit.Status.FAILED: gettext_lazy("refused by the card"),
}


def day(value: date | None) -> str:
    """A date as the back office shows every date: "26 Dec 2026" (the month in the reader's
    language), the same pattern as its times (booking/admin_display.local_time)."""
    return date_format(value, "d M Y") if value else "–"


def lines_table(reservation: Reservation) -> str:
    currency = reservation.currency
    rows = [(line.label, with_currency(line.amount, currency)) for line in stay_lines(reservation)]
    rows.append((format_html("<strong>{}</strong>", _("Total")), format_html("<strong>{}</strong>", with_currency(reservation.total, currency))))
    return format_html('<table class="stay-lines">{}</table>', format_html_join("", "<tr><td>{}</td><td style='text-align:right'>{}</td></tr>", rows))


def money_table(reservation: Reservation) -> str:
    """Paid, refunded, still due and when."""
    currency = reservation.currency
    owed = balance_owed(reservation)
    balance = balance_entry(reservation)
    if owed > 0:
        when = _("due on %(date)s") % {"date": day(balance.due_date)} if balance and balance.due_date else _("due now")
        due = format_html("<span data-balance-due>{} ({})</span>", with_currency(owed, currency), when)
    else:
        due = format_html("<span data-balance-due>{}</span>", with_currency(owed, currency))
    rows = [
        (_("Paid"), with_currency(reservation.amount_paid, currency)),
        (_("Refunded"), with_currency(reservation.amount_refunded, currency)),
        (_("Kept (paid − refunded)"), with_currency(reservation.amount_paid - reservation.amount_refunded, currency)),
        (_("Still due"), due),
    ]
    return format_html('<table class="stay-money">{}</table>', format_html_join("", "<tr><td>{}</td><td style='text-align:right'>{}</td></tr>", rows))


def deposit_state(reservation: Reservation) -> str:
    """The refundable security deposit (card hold): its amount and where it stands."""
    amount = security_deposit(reservation.accepted_terms or {})
    latest = reservation.security_deposits.order_by("-created_at").first()
    if latest is not None:
        state = str(DEPOSIT_STATES.get(latest.status, latest.status))
        if latest.status == SecurityDeposit.Status.CLAIMED:
            state += f" ({with_currency(latest.claimed_amount, latest.currency)})"
        return f"{with_currency(latest.amount, latest.currency)}: {state}"
    if amount <= 0:
        return _("none asked for this stay")
    if reservation.status != Reservation.Status.CONFIRMED:
        return _("%(amount)s: not held (the stay is not confirmed)") % {"amount": with_currency(amount, reservation.currency)}
    return _("%(amount)s: not held yet (placed on the card shortly before arrival)") % {"amount": with_currency(amount, reservation.currency)}


def check_in_state(reservation: Reservation) -> str:
    """Where the guests' online check-in stands (booking/italy/checkin.py, read only)."""
    check_in = check_in_for(reservation)
    if check_in is not None and check_in.is_complete:
        return _("complete (%(guests)s of %(expected)s guests)") % {"guests": check_in.guests.count(), "expected": reservation.guests}
    if not check_in_open(reservation) and check_in is None:
        return _("not open for this stay")
    if check_in is not None:
        return _("started, not complete (%(guests)s of %(expected)s guests)") % {"guests": check_in.guests.count(), "expected": reservation.guests}
    return _("not started")


class MoneyAndArrivalFields:
    """The reservation page's read-only fields of this module (ReservationAdmin mixes it in)."""

    def get_fieldsets(self, request, obj=None):
        """ "Hold expires" only on a hold: a confirmed or cancelled stay has none."""
        fieldsets = super().get_fieldsets(request, obj)
        if obj is not None and obj.status == Reservation.Status.HELD:
            return fieldsets
        return [(name, {**options, "fields": [f for f in options["fields"] if f != "hold_expires_until"]}) for name, options in fieldsets]

    @admin.display(description=gettext_lazy("check-in"))
    def arrival(self, obj):
        return day(obj.check_in)

    @admin.display(description=gettext_lazy("check-out"))
    def departure(self, obj):
        return day(obj.check_out)

    @admin.display(description=gettext_lazy("money"))
    def money_shown(self, obj):
        return money_table(obj)

    @admin.display(description=gettext_lazy("refundable security deposit (card hold)"))
    def security_deposit_shown(self, obj):
        return deposit_state(obj)

    @admin.display(description=gettext_lazy("online check-in"))
    def check_in_shown(self, obj):
        return check_in_state(obj)
