"""The security deposit's books against the provider's: after every step of a scenario, what the
service records (each SecurityDeposit: status, amount claimed, amount given back) is what the
Stripe fake holds (each PaymentIntent: status, amount_capturable, amount_received, its refunds).

A row with a provider call written down and not yet settled (`pending`: the answer was lost and the
provider could not be read) may stand either side of that call; nothing else may differ."""

from decimal import Decimal

from booking.payments.ledger import to_cents
from booking.payments.models import SecurityDeposit
from booking.reservations.models import Reservation

# The service's status → the provider's status for that payment intent.
PROVIDER_STATUS = {
    "held": "requires_capture",
    "replaced": "requires_capture",  # replaced by a renewal, its release not confirmed yet
    "released": "canceled",
    "renewed": "canceled",
    "claimed": "succeeded",
}
# A call whose outcome is not known yet: the intent as it was before, or after.
EITHER_SIDE = {"capture": {"requires_capture", "succeeded"}, "release": {"requires_capture", "canceled"}, "give_back": {"succeeded"}}


def assert_deposits_match_provider(reservation: Reservation, fake_stripe) -> list[SecurityDeposit]:
    deposits = list(SecurityDeposit.objects.filter(reservation_id=reservation.pk).order_by("pk"))
    placing = sum(d.status == "placing" for d in deposits)  # asked for, answer lost: its intent is not known yet
    for deposit in deposits:
        if deposit.status == "placing":
            assert not deposit.provider_id and getattr(deposit, "pending", "") == "place", deposit
            continue
        intent = fake_stripe.payment_intents.get(deposit.provider_id)
        if deposit.status == "failed":
            assert intent is None or intent["status"] != "requires_capture", deposit
            continue
        assert intent is not None, f"{deposit}: no such payment intent at the provider"
        given_back = sum(r["amount"] for r in fake_stripe.refunds if r["payment_intent"] == deposit.provider_id)
        assert given_back == to_cents(getattr(deposit, "given_back", 0)), f"{deposit}: the provider refunded {given_back}"
        pending = getattr(deposit, "pending", "")
        if pending:
            assert intent["status"] in EITHER_SIDE[pending], f"{deposit} ({pending} pending): the provider has it {intent['status']}"
            continue
        assert intent["status"] == PROVIDER_STATUS[deposit.status], f"{deposit}: the provider has it {intent['status']}"
        if intent["status"] == "requires_capture":
            assert (intent["amount_capturable"], intent["amount_received"]) == (to_cents(deposit.amount), 0), deposit
        elif intent["status"] == "succeeded":
            assert (intent["amount_capturable"], intent["amount_received"]) == (0, to_cents(deposit.claimed_amount)), deposit
        else:
            assert (intent["amount_capturable"], intent["amount_received"], deposit.claimed_amount) == (0, 0, Decimal("0")), deposit
    # Every hold the provider keeps for the stay is one the service knows (none forgotten on the card).
    known = {d.provider_id for d in deposits}
    unknown = [
        intent
        for intent in fake_stripe.payment_intents.values()
        if intent.get("metadata", {}).get("reservation_id") == reservation.pk
        and intent.get("capture_method") == "manual"
        and intent["id"] not in known
        and intent["status"] not in ("canceled", "requires_payment_method")
    ]
    assert len(unknown) <= placing, f"holds unknown to the service: {unknown}"
    assert sum(d.status == "held" for d in deposits) <= 1
    taken = sum(fake_stripe.payment_intents[d.provider_id]["amount_received"] for d in deposits if d.provider_id in fake_stripe.payment_intents)
    amount = max((d.amount for d in deposits), default=Decimal("0"))
    assert taken <= to_cents(amount), f"{taken} cents taken from a deposit of {amount}"
    return deposits
