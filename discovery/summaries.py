"""One short, human sentence (or a few lines) per tool result, for an LLM's context.

MCP results carry the full REST body as structured content; repeating it as JSON text doubled the
size of every answer (a year's calendar: 50–75 kB twice). The text block says what matters in
words instead, and points to the structured content for the rest.
"""

from collections.abc import Callable


def money(amount, currency: str = "EUR") -> str:
    symbol = {"EUR": "€", "USD": "$", "GBP": "£"}.get(currency, currency + " ")
    return f"{symbol}{float(amount):,.2f}"


def _property(body: dict) -> str:
    rules = body.get("pricing_rules", {})
    return (
        f"{body.get('name')}: up to {body.get('capacity', {}).get('max_guests', '?')} guests, "
        f"from {money(rules.get('base_nightly_rate', 0), rules.get('currency', 'EUR'))} a night, minimum {rules.get('min_nights')} nights. "
        f"Cancellation: {body.get('policies', {}).get('cancellation_policy', '')}"
    )


def _availability(body: dict) -> str:
    stay = f"{body['check_in']} → {body['check_out']} ({body['nights']} nights, {body['guests']} guests)"
    total = money(body["price_breakdown"]["total"], body["price_breakdown"]["currency"])
    if body["available"]:
        return f"Available: {stay}, total {total}. Book with create_checkout_link."
    extra = f" Try again after {body['held_until']}." if body.get("held_until") else ""
    return f"Not available ({body['unavailable_reason']}): {stay}. {body['message']}{extra} (It would cost {total}.)"


def _calendar(body: dict) -> str:
    """Free ranges with their lowest nightly rate: what a date picker needs, in a few lines."""
    ranges, current = [], None
    for day in body["days"]:
        if day["available"]:
            if current is None:
                current = {"first": day["date"], "last": day["date"], "low": day["nightly_rate"]}
            else:
                current["last"], current["low"] = day["date"], min(current["low"], day["nightly_rate"])
        elif current is not None:
            ranges.append(current)
            current = None
    if current is not None:
        ranges.append(current)
    lines = [f"Free nights {body['start']} to {body['end']} ({len(ranges)} free range{'s' if len(ranges) != 1 else ''}):"]
    lines += [f"- {r['first']} to {r['last']}: from {money(r['low'], body['currency'])} a night" for r in ranges[:40]]
    if len(ranges) > 40:
        lines.append(f"- … and {len(ranges) - 40} more ranges (see the structured result)")
    lines.append("Minimum stays and allowed arrival days per date are in the structured result.")
    return "\n".join(lines)


def _stays(body: dict) -> str:
    if not body["stays"]:
        return f"No bookable stay of {body['nights']} nights arrives between {body['start']} and {body['end']}."
    lines = [f"Cheapest {body['nights']}-night stays arriving {body['start']} to {body['end']}:"]
    lines += [f"- {s['check_in']} → {s['check_out']}: {money(s['total'], s['currency'])}" for s in body["stays"]]
    return "\n".join(lines)


def _quote(quote: dict) -> str:
    body = {**quote, **quote["price_breakdown"]}
    currency = body.get("currency", "EUR")
    parts = [f"accommodation {money(body['accommodation'], currency)}"]
    if body.get("discount_amount"):
        parts.append(f"{body.get('discount_label') or 'discount'} {money(body['discount_amount'], currency)}")
    parts += [f"cleaning {money(body['cleaning_fee'], currency)}", f"city tax {money(body['city_tax'], currency)}"]
    availability = "" if body.get("available") else f" Not bookable as asked ({body.get('unavailable_reason')})."
    return f"{body['check_in']} → {body['check_out']}, {body['guests']} guests: total {money(body['total'], currency)} ({', '.join(parts)}).{availability}"


def _checkout(body: dict) -> str:
    test = " (TEST payment: no money moves)" if body.get("test_mode") else ""
    return (
        f"Held {body['reservation_id']} ({body['check_in']} → {body['check_out']}) until {body.get('hold_expires_at')}. "
        f"Give the guest this link to pay {money(body['amount'], body['currency'])}{test}: {body['checkout_url']}"
    )


def _reservation(body: dict) -> str:
    payment = body.get("payment") or {}
    line = f"Reservation {body['reservation_id']} is {body['status']}: {body['check_in']} → {body['check_out']}, {body['guests']} guests, payment {payment.get('status')}."
    if body.get("hold_expires_at"):
        line += f" Held until {body['hold_expires_at']}."
    if payment.get("pay_url"):
        line += f" The guest pays {money(payment['amount_due'], payment.get('currency', 'EUR'))} at {payment['pay_url']}."
    if body.get("cancellation"):
        line += f" Cancelling today would refund {money(body['cancellation']['refund_if_cancelled_now'], body['cancellation']['currency'])}."
    if "refunded_amount" in body:
        line += f" Refunded {money(body['refunded_amount'], payment.get('currency', 'EUR'))}."
    return line


def _booking(body: dict) -> str:
    manage = body["manage"]
    can = [f"cancel (refund {money(manage['refund_if_cancelled_now'], body['payment']['currency'])})"] if manage["can_cancel"] else []
    can += ["change the dates"] if manage["can_change_dates"] else []
    line = _reservation(body) + (f" The guest may {' or '.join(can)}." if can else " Nothing can be changed online now.")
    if manage.get("pay_balance_url"):
        line += f" {money(manage['balance_owed'], body['payment']['currency'])} is owed: {manage['pay_balance_url']}."
    return line


def _cancel(body: dict) -> str:
    refund = money(body["refund"], body["currency"])
    if body["cancelled"]:
        return f"Cancelled {body['booking']['reservation_id']}; {refund} goes back to the guest's card."
    if body["booking"]["status"] == "cancelled":
        return f"{body['booking']['reservation_id']} was cancelled already; nothing more is refunded."
    return f"Cancelling {body['booking']['reservation_id']} now would refund {refund}. Call again with confirm=true to cancel."


def _change(body: dict) -> str:
    change = body["change"]
    stay = f"{change['check_in']} → {change['check_out']} ({change['nights']} nights), total {money(change['total'], change['currency'])}"
    money_line = (
        f" {money(change['refund'], change['currency'])} goes back to the guest's card."
        if change["refund"]
        else f" {money(change['owed'], change['currency'])} remains to pay."
        if change["owed"]
        else ""
    )
    if body["changed"]:
        return f"Moved to {stay}.{money_line}"
    return f"Moving to {stay} (difference {money(change['difference'], change['currency'])}).{money_line} Call again with confirm=true to change."


SUMMARIES: dict[str, Callable[[dict], str]] = {
    "get_property": _property,
    "check_availability": _availability,
    "get_calendar": _calendar,
    "find_stays": _stays,
    "get_quote": _quote,
    "create_reservation": _reservation,
    "create_checkout_link": _checkout,
    "create_checkout_session": _checkout,
    "get_reservation": _reservation,
    "get_booking": _booking,
    "cancel_booking": _cancel,
    "change_booking_dates": _change,
    "release_hold": lambda body: f"Released {body['reservation_id']}: the dates are free again.",
}


def summary(name: str, body: dict) -> str:
    """The tool's summary, or (should a body not have the expected shape) a plain pointer."""
    try:
        return SUMMARIES[name](body)
    except (KeyError, TypeError, ValueError):
        return "Done; the full answer is in the structured result."
