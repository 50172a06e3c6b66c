"""What a reservation's history says, in the reader's language.

An event (ReservationEvent) stores a message code and its parameters (`message`, `params`); the
sentence is built when it is read, in the language active then (the back office's), with times on
the property's clock and its zone ("12 Feb 2027 14:32 CET"). `note` keeps the English sentence
written at the time, for logs and for rows older than the codes (shown as they are). See
docs/back-office.md, "The reservation's history"."""

import re
from collections.abc import Mapping
from datetime import datetime
from decimal import Decimal, InvalidOperation
from functools import cache
from typing import Any

from django.core.exceptions import FieldDoesNotExist
from django.utils.dateparse import parse_date, parse_datetime
from django.utils.formats import date_format, number_format
from django.utils.translation import gettext, gettext_lazy, override, pgettext_lazy

from booking.admin_display import local_time
from booking.outbox.models import OutboundEmail
from booking.reservations.models import Reservation

# message code → sentence; %(name)s parameters are formatted by their name (see _format).
MESSAGES = {
    "held_until": gettext_lazy("held until %(until)s"),
    "hold_lapsed": gettext_lazy("hold time ran out"),
    "payment_succeeded": gettext_lazy("payment succeeded"),
    "late_payment": gettext_lazy("late payment, nights still free"),
    "checkout_opened": gettext_lazy("%(provider)s checkout %(session)s, open until %(until)s"),
    "cancelled": gettext_lazy("cancelled by %(who)s; refund owed %(owed)s"),
    "cancelled_because": gettext_lazy("cancelled by %(who)s; refund owed %(owed)s: %(reason)s"),
    "refunded_so_far": gettext_lazy("%(detail)s; refunded so far %(refunded_so_far)s"),
    "refund_recorded": gettext_lazy("%(kind)s %(refund)s of %(amount)s by %(who)s; refunded so far %(refunded_so_far)s"),
    "refund_recorded_because": gettext_lazy("%(kind)s %(refund)s of %(amount)s by %(who)s: %(reason)s; refunded so far %(refunded_so_far)s"),
    "balance_paid": gettext_lazy("balance of %(amount)s paid (%(payment)s)"),
    "balance_refused": gettext_lazy("balance of %(amount)s refused: %(reason)s"),
    "deposit_placed": gettext_lazy("%(amount)s held on the card (placed, %(hold)s)"),
    "deposit_renewed": gettext_lazy("%(amount)s held on the card (renewed, %(hold)s)"),
    "deposit_released": gettext_lazy("hold of %(amount)s released"),
    "deposit_authorised_by_guest": gettext_lazy("%(amount)s held on the card (authorised by the guest, %(hold)s)"),
    "deposit_surplus_released": gettext_lazy("surplus authorisation %(hold)s released"),
    "deposit_claimed": gettext_lazy("claimed %(amount)s: %(reason)s"),
    "deposit_captured_at_provider": gettext_lazy("%(amount)s found captured at the payment provider (%(hold)s)"),
    "deposit_given_back": gettext_lazy("claimed deposit of %(amount)s given back in full: the stay is no longer confirmed (%(refund)s)"),
    "email_sent": gettext_lazy("%(email)s emailed to the %(recipient)s"),
    "email_unconfirmed": gettext_lazy("%(email)s handed to the mail server for the %(recipient)s, unconfirmed (not resent)"),
    "edited": gettext_lazy("changed: %(fields)s"),
    "dates_changed_owed": gettext_lazy("%(old_check_in)s–%(old_check_out)s → %(check_in)s–%(check_out)s; total %(old_total)s → %(total)s; %(owed)s owed"),
    "dates_changed_refund": gettext_lazy(
        "%(old_check_in)s–%(old_check_out)s → %(check_in)s–%(check_out)s; total %(old_total)s → %(total)s; %(refund)s to refund"
    ),
    "booked_for_guest": gettext_lazy("booked for the guest in the back office, held %(hours)s h; payment link emailed"),
    "booked_for_guest_special_price": gettext_lazy(
        "booked for the guest in the back office, held %(hours)s h; payment link emailed; special price %(price)s before city tax"
    ),
    "payment_link_resent": gettext_lazy("payment link emailed again; it works until %(until)s"),
    "hold_reminder_queued": gettext_lazy("one reminder of the unfinished booking queued"),
    # Why a stay is flagged for staff (flag_for_staff: the flag line of the history and the
    # reservation's "needs attention", see booking/reservations/attention.py).
    "flag_date_change_refund_failed": gettext_lazy("Dates changed: the refund of %(amount)s failed (%(reason)s). Refund it from the refund page."),
    "flag_refund_no_payment_id": gettext_lazy("Refund of %(amount)s owed but no payment id is known: refund it by hand."),
    "flag_refund_pending": gettext_lazy("Refund of %(amount)s pending: %(reason)s It is retried automatically."),
    "flag_refund_failed": gettext_lazy("Refund failed: %(amount)s (%(reason)s)"),
    "flag_balance_answer_lost": gettext_lazy(
        "A balance charge of %(amount)s was sent to the card, but its answer was lost before the stay ended. Look it up in the payment provider's dashboard (idempotency key %(key)s) and refund it if it was taken."
    ),
    "flag_balance_overdue": gettext_lazy("Balance overdue: %(amount)s due on %(due)s was refused for %(days)s days (%(reason)s). Contact the guest."),
    "flag_deposit_unsettled": gettext_lazy(
        "Security deposit %(hold)s of %(amount)s: the payment provider has not confirmed its claim or release after several tries (%(reason)s). Check it in the provider's dashboard."
    ),
    "flag_deposit_taken_after_cancel": gettext_lazy(
        "Security deposit %(hold)s: %(amount)s was taken after the stay stopped being confirmed; it is given back to the guest in full."
    ),
    "flag_deposit_not_held": gettext_lazy(
        "Security deposit not held: %(amount)s could not be held on the card (%(reason)s). The guest was emailed a link to authorise it."
    ),
    "flag_email_gave_up": gettext_lazy("The %(email)s email to the %(recipient)s could not be sent for two days: %(reason)s"),
    "flag_police_unreachable": gettext_lazy("Alloggiati Web could not be reached after %(attempts)s attempts: register the guests by hand. %(reason)s"),
    "flag_police_refused": gettext_lazy("Alloggiati Web refused the records: %(reason)s Correct the check-in and register by hand."),
    "flag_check_in_changed_after_police": gettext_lazy(
        "The check-in was changed after the police registration was sent (%(changes)s). Alloggiati Web has no correction call: correct the registration on the portal."
    ),
    "identity_unverified": gettext_lazy(
        "Identity not verified 12 hours into the check-in day (%(check_in)s): see each guest in person or by live video on the arrivals screen; only verified guests are sent to the police."
    ),
    "flag_payment_refunded": gettext_lazy("Payment of %(amount)s refunded (%(refund)s): %(reason)s. Contact the guest."),
    "flag_payment_not_refunded": gettext_lazy("Payment received but not refunded automatically (no payment id): %(reason)s. Refund it by hand."),
    "flag_payment_refunded_nothing": gettext_lazy("Payment refunded: %(reason)s."),
    "flag_payment_returned": gettext_lazy(
        "Payment of %(amount)s (%(payment)s) arrived for a stay that is no longer confirmed: it is refunded in full. Contact the guest."
    ),
    # Fixed sentences callers pass as a note or reason: recognised when read (see describe).
    "checkout_expired": gettext_lazy("checkout session expired"),
    "payment_failed": gettext_lazy("the payment failed"),
    "released_by_creator": gettext_lazy("hold released by its creator"),
    "paid_after_lapse_taken": gettext_lazy("paid after the hold lapsed, and the nights were taken meanwhile"),
    "second_payment": gettext_lazy("a second payment for a reservation already paid"),
    "date_change_refund": gettext_lazy("dates changed: paid beyond the new total"),
    "balance_paid_twice": gettext_lazy("the balance was paid twice: the card was charged while the guest paid the page"),
    "paid_for_expired": gettext_lazy("paid for a reservation that is expired"),
    "paid_for_cancelled": gettext_lazy("paid for a reservation that is cancelled"),
    "paid_not_confirmed": gettext_lazy("paid for a stay that is no longer confirmed"),
    # A sentence with amounts, written in English by booking.payments.events (see _reason).
    "paid_wrong_amount": gettext_lazy("paid %(paid)s but the total is %(total)s"),
    # Bookings from the channel manager (booking/reservations/services/channel_bookings.py).
    "channel_booked": gettext_lazy("booked on %(channel)s (%(code)s), received from the channel manager"),
    "channel_changed": gettext_lazy("changed on %(channel)s: %(old_check_in)s–%(old_check_out)s → %(check_in)s–%(check_out)s"),
    "channel_cancelled": gettext_lazy("cancelled on %(channel)s; no refund from the host (the channel handles the money)"),
    "flag_overbooking": gettext_lazy("Overbooking: this %(channel)s booking takes nights already sold (%(other)s). Contact the platform or the guest."),
}
# That sentence as events.py writes it: "paid 100.00 EUR but the total is 1128.00 EUR".
PAID_WRONG_AMOUNT = re.compile(r"paid (?P<paid>-?\d+(?:\.\d+)?) (?P<paid_currency>\S+) but the total is (?P<total>-?\d+(?:\.\d+)?) (?P<currency>\S+)")

# A provider refund's kind and state (booking.payments.models.ProviderRefund), for the history and the
# reservation page's refunds.
REFUND_KINDS = {
    "staff": gettext_lazy("refund by staff"),
    "cancellation": gettext_lazy("cancellation refund"),
    "returned": gettext_lazy("payment given back (stay no longer confirmed)"),
}
REFUND_STATES = {
    "requested": pgettext_lazy("refund", "asked of the provider"),
    "succeeded": pgettext_lazy("refund", "refunded"),
    "failed": pgettext_lazy("refund", "failed"),
}

ACTIONS = {
    "hold": pgettext_lazy("history", "hold"),
    "extend_hold": pgettext_lazy("history", "hold extended"),
    "expire": pgettext_lazy("history", "expired"),
    "checkout": pgettext_lazy("history", "checkout opened"),
    "confirm": pgettext_lazy("history", "confirmed"),
    "cancel": pgettext_lazy("history", "cancelled"),
    "release": pgettext_lazy("history", "hold released"),
    "refund": pgettext_lazy("history", "refund"),
    "balance": pgettext_lazy("history", "balance paid"),
    "balance_declined": pgettext_lazy("history", "balance refused"),
    "security_deposit": pgettext_lazy("history", "security deposit"),
    "email": pgettext_lazy("history", "email"),
    "edit": pgettext_lazy("history", "edited"),
    "change_stay": pgettext_lazy("history", "stay changed"),
    "flag": pgettext_lazy("history", "flagged for staff"),
    "change_dates": pgettext_lazy("history", "dates changed"),
    "owner_booking": pgettext_lazy("history", "booked by staff"),
    "resend_payment_link": pgettext_lazy("history", "payment link sent again"),
    "channel_booking": pgettext_lazy("history", "channel booking"),
}

# Who acted, when it was not a person: the names services write into `actor`.
ACTORS = {
    "the guest": gettext_lazy("the guest"),
    "api": gettext_lazy("the API"),
    "web": gettext_lazy("the website"),
    "mcp": gettext_lazy("an MCP agent"),
    "a2a": gettext_lazy("an A2A agent"),
    "stripe webhook": gettext_lazy("the Stripe webhook"),
    "expiry job": gettext_lazy("the expiry job"),
    "hold path": gettext_lazy("a new hold"),
    "notifications": gettext_lazy("the outbox"),
    "balance job": gettext_lazy("the balance job"),
    "refund job": gettext_lazy("the refund job"),
    "security deposit job": gettext_lazy("the security deposit job"),
    "idempotency recovery": gettext_lazy("a repeated request"),
    "police registration": gettext_lazy("the police registration"),
    "guest (manage page)": gettext_lazy("the guest (booking page)"),
    "hold reminders": gettext_lazy("the reminder job"),
    "channel manager": gettext_lazy("the channel manager"),
}

INSTANTS = {"until"}
DATES = {"check_in", "check_out", "old_check_in", "old_check_out", "due"}
AMOUNTS = {"amount", "owed", "refunded_so_far", "refund", "total", "old_total", "price"}


def to_params(values: Mapping[str, Any]) -> dict[str, Any]:
    """JSON-safe parameters: instants as ISO 8601 with their offset, amounts as decimal strings."""
    safe: dict[str, Any] = {}
    for name, value in values.items():
        if isinstance(value, datetime):
            safe[name] = value.isoformat()
        elif isinstance(value, Decimal):
            safe[name] = str(value)
        elif isinstance(value, (list, tuple)):
            safe[name] = [str(item) for item in value]
        else:
            safe[name] = value if isinstance(value, (int, float)) else str(value)
    return safe


def actor_label(actor: str) -> str:
    if actor.startswith("staff "):
        return gettext("staff %(name)s") % {"name": actor.removeprefix("staff ")}
    known = ACTORS.get(actor)
    if known is not None:
        return str(known)
    base, _, agent = actor.partition(" (")  # "mcp (Claude)"
    return f"{ACTORS[base]} ({agent}" if agent and base in ACTORS else actor


def action_label(action: str) -> str:
    return str(ACTIONS.get(action, action))


def _format(name: str, value: Any, params: Mapping[str, Any], *, for_note: bool) -> str:
    if name in INSTANTS:
        moment = parse_datetime(str(value))
        return local_time(moment) if moment else str(value)
    if name in DATES and not for_note:
        day = parse_date(str(value))
        return date_format(day, "SHORT_DATE_FORMAT") if day else str(value)
    if name in AMOUNTS:
        currency = params.get("currency", "")
        try:
            amount = Decimal(str(value))
        except InvalidOperation:
            return str(value)
        shown = str(amount) if for_note else number_format(amount, 2, force_grouping=True)
        return f"{shown} {currency}".strip()
    if name == "reason" and not for_note:  # a fixed sentence is translated; a provider's or a person's words stay
        return _reason(str(value).strip())
    if name == "kind":
        return str(REFUND_KINDS.get(str(value), value))
    if name == "who":
        return actor_label(str(value))
    if name in ("fields", "changes"):
        return _listed(name, value, for_note=for_note)
    if name in ("email", "recipient"):
        label = _choice_label(name, str(value))
        return label.lower() if for_note else label  # the note as it always read; German keeps its nouns' capitals
    return str(value)


# A check-in's fields as a change names them ("1:last_name": guest 2's last name; "party").
CHECK_IN_FIELDS = {
    "party": gettext_lazy("Family or group"),
    "first_name": gettext_lazy("First name"),
    "last_name": gettext_lazy("Last name"),
    "sex": gettext_lazy("Sex"),
    "date_of_birth": gettext_lazy("Date of birth"),
    "citizenship": gettext_lazy("Citizenship"),
    "country_of_birth": gettext_lazy("Country of birth"),
    "comune_of_birth_code": gettext_lazy("Comune of birth"),
    "document_type": gettext_lazy("Identity document"),
    "document_number": gettext_lazy("Document number"),
    "document_issued_in_code": gettext_lazy("Issued in"),
}


def _check_in_changes(changes) -> list[str]:
    """["0:last_name", "0:sex", "1:date_of_birth"] -> ["Lead guest: Last name, Sex", "Guest 2: Date of birth"]."""
    by_guest: dict[str, list[str]] = {}
    for change in changes if isinstance(changes, list) else [changes]:
        position, _sep, name = str(change).rpartition(":")
        who = "" if not position.isdigit() else gettext("Lead guest") if position == "0" else gettext("Guest %(number)s") % {"number": int(position) + 1}
        by_guest.setdefault(who, []).append(str(CHECK_IN_FIELDS.get(name, name)))
    return [f"{who}: {', '.join(names)}" if who else ", ".join(names) for who, names in by_guest.items()]


def _listed(name: str, value, *, for_note: bool) -> str:
    if name == "changes":
        return "; ".join(_check_in_changes(value))  # english_note renders under override("en")
    return ", ".join(value if for_note else (_field_label(field) for field in value))


def _field_label(field: str) -> str:
    try:
        return str(Reservation._meta.get_field(field).verbose_name)
    except FieldDoesNotExist:
        return field


def _choice_label(kind: str, value: str) -> str:
    choices = OutboundEmail.Kind if kind == "email" else OutboundEmail.Recipient
    try:
        return gettext(str(choices(value).label))
    except ValueError:
        return value


def render(message: str, params: Mapping[str, Any], *, for_note: bool = False) -> str:
    """The sentence of a message code in the active language; "" for an unknown code."""
    template = MESSAGES.get(message)
    if template is None:
        return ""
    values = {name: _format(name, value, params, for_note=for_note) for name, value in params.items()}
    try:
        return str(template) % values
    except (KeyError, TypeError, ValueError):
        return ""


def english_note(message: str, params: Mapping[str, Any]) -> str:
    """What `note` keeps: the sentence in English, as written at the time."""
    with override("en"):
        return render(message, params, for_note=True)


def _reason(reason: str) -> str:
    code = _fixed_sentences().get(reason)
    if code:
        return str(MESSAGES[code])
    wrong_amount = PAID_WRONG_AMOUNT.fullmatch(reason)
    if wrong_amount:
        paid = _format("amount", wrong_amount["paid"], {"currency": wrong_amount["paid_currency"]}, for_note=False)
        total = _format("amount", wrong_amount["total"], {"currency": wrong_amount["currency"]}, for_note=False)
        return str(MESSAGES["paid_wrong_amount"]) % {"paid": paid, "total": total}
    return reason


@cache
def _fixed_sentences() -> dict[str, str]:
    """English sentence → code, for the messages without parameters."""
    with override("en"):
        return {str(template): code for code, template in MESSAGES.items() if "%(" not in str(template)}


def describe(message: str, params: Mapping[str, Any], note: str) -> str:
    """What the history shows: the sentence in the reader's language. A row without a code whose
    note is one of the fixed sentences (older rows: "hold time ran out", "payment succeeded") is
    translated too; any other note (a person's words, older rows) is shown as written."""
    if not message:
        message, params = _fixed_sentences().get(note.strip(), ""), {}
    return render(message, params) or note
