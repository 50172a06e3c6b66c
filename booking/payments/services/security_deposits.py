"""The refundable security deposit: a card authorisation (manual capture) on the guest's saved card,
placed shortly before arrival, renewed before it lapses, released after check-out unless staff
claim from it (docs/money.md).

Every provider call that moves money (a hold, a capture, a release, a give-back) is written on the
deposit's row with its idempotency key under the reservation's lock and committed before it is made,
outside the lock; its key names the hold and the try, never an amount. A lost or refused answer is
settled by reading the payment intent (canceled → released, succeeded → claimed, requires_capture →
still held); only a provider that cannot be read leaves the call pending, and the release job sends
it again with the same key (flagging the stay once after repeated failures). One row per stay and
day (unique) and one open hold per stay (unique) mean two workers, or the command beside the beat
job, never hold the card twice; a claimed or released deposit is never held again. A refused
authorisation never touches the stay: it is flagged for staff, the guest is emailed a link to
authorise the deposit on a checkout page (manual capture), and the owner is told (at most once a
day). That authorisation is then held, renewed, released or claimed like any other.
docs/reliability.md, "Security deposit", lists the guarantees.
"""

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date, timedelta
from decimal import Decimal
from typing import NamedTuple

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from booking.catalog import accepted_terms
from booking.catalog.pricing import money
from booking.errors import BookingError, InvalidTransition, PaymentProviderError
from booking.outbox.models import OutboundEmail
from booking.outbox.notifications import deliver_soon, email_address, header_safe
from booking.payments.ledger import from_cents, to_cents
from booking.payments.models import GuestCheckout, SecurityDeposit
from booking.payments.providers import get_provider
from booking.payments.saved_cards import Charge, saved_cards
from booking.payments.services import money_alerts
from booking.payments.services.balances import manage_url, queue_guest_notice
from booking.payments.services.guest_checkouts import open_checkout_of, start_guest_checkout
from booking.reservations.models import Reservation
from booking.reservations.services.audit import flag, record_event, resolve_flags
from booking.reservations.services.locking import reservation_transaction

logger = logging.getLogger(__name__)
Status = Reservation.Status
Held = SecurityDeposit.Status
ACTOR = "security deposit job"
ZERO = Decimal("0.00")
FINAL = (Held.CLAIMED, Held.RELEASED)
Pending = SecurityDeposit.Pending
# A call still marked sent this long after it was sent was cut short (the process died).
CUT_SHORT_AFTER = timedelta(minutes=5)
KEY_KEPT_FOR = timedelta(hours=23)  # Stripe answers a repeated key with its first answer for 24 hours
FLAG_AFTER_FAILURES = 3  # tries in a row the provider did not settle before staff are flagged (once)
RENEW_AFTER_DAYS = SecurityDeposit.LAPSES_AFTER_DAYS - 1  # a day's margin before Stripe cancels it


def hold_window(reservation: Reservation) -> tuple[date, date]:
    """[place_on, release_on): the local dates the card is held (the owner's settings)."""
    prop = reservation.property
    return (
        reservation.check_in - timedelta(days=prop.security_deposit_days_before),
        reservation.check_out + timedelta(days=prop.security_deposit_release_days),
    )


def deposit_amount(reservation: Reservation) -> Decimal:
    """The amount the guest accepted when booking (0: none)."""
    return accepted_terms.security_deposit(reservation.accepted_terms)


def place_security_deposits(*, as_of: date | None = None) -> dict[str, int]:
    """The placing job (beat, and `manage.py place_security_deposits [--as-of]`): authorise the
    deposit of each stay whose hold window has begun, and renew holds about to lapse."""
    as_of = as_of or timezone.localdate()
    counts: dict[str, int] = {}
    near = Reservation.objects.filter(status=Status.CONFIRMED, check_in__lte=as_of + timedelta(days=30), check_out__gte=as_of - timedelta(days=30))
    for reservation_id in near.values_list("pk", flat=True):
        outcome = place_or_renew(reservation_id, as_of=as_of)
        counts[outcome] = counts.get(outcome, 0) + 1
    return counts


def place_or_renew(reservation_id: str, *, as_of: date) -> str:
    """Hold the deposit (or renew the hold) for `as_of`. The hold is written down (a `placing` row
    with its key) before it is asked for; a hold whose answer was lost is asked again with the same
    key on the next run, so the provider answers with the hold it made, never a second one."""
    with reservation_transaction(reservation_id) as locked:
        place_on, release_on = hold_window(locked)
        amount = deposit_amount(locked)
        if locked.status != Status.CONFIRMED or amount <= 0 or not place_on <= as_of < release_on:
            return "not_due"
        if locked.security_deposits.filter(status__in=FINAL).exists():
            return "closed"  # claimed or released: a deposit is held once per stay
        placing = locked.security_deposits.filter(status=Held.PLACING).first()
        if placing is not None:  # asked for earlier, its answer lost: asked again, same key
            if _in_flight(placing):
                return "in_flight"
            deposit_id = placing.pk
        else:
            if locked.security_deposits.filter(placed_on=as_of).exists():
                return "done_today"
            current = locked.security_deposits.filter(status=Held.HELD).first()
            if current is not None and (current.pending or as_of < current.placed_on + timedelta(days=RENEW_AFTER_DAYS)):
                return "held"
            card = _card_to_hold(locked)
            if card is None:
                return _refused(locked, as_of, amount, "No saved card to hold the deposit on.")
            try:
                with transaction.atomic():
                    placing = SecurityDeposit.objects.create(
                        reservation=locked, amount=amount, currency=locked.currency, provider=card.provider, placed_on=as_of, status=Held.PLACING
                    )
            except IntegrityError:  # another worker wrote today's hold first
                return "done_today"
            placing.pending_key = f"security-deposit-{reservation_id}-{as_of.isoformat()}"  # one hold per stay and day
            _write_pending(placing, Pending.PLACE, amount=amount, key=placing.pending_key)
            deposit_id = placing.pk
    return _call_provider(deposit_id)


def _ask_for_hold(deposit: SecurityDeposit) -> Charge:
    reservation = Reservation.objects.get(pk=deposit.reservation_id)
    card = _card_to_hold(reservation)
    if card is None:
        return Charge("", "requires_payment_method", to_cents(deposit.amount), "No saved card to hold the deposit on.")
    cards = saved_cards(card.provider)
    method = card.payment_method_id or cards.payment_method_of(card.provider_id)
    return cards.charge(
        customer_id=card.customer_id,
        payment_method_id=method,
        amount_cents=to_cents(deposit.amount),
        currency=deposit.currency,
        idempotency_key=deposit.pending_key,
        metadata={"reservation_id": deposit.reservation_id, "purpose": "security deposit"},
        hold=True,
    )


def _record_hold(deposit_id: int, hold: Charge) -> str:
    """Under the lock: the provider's answer to a hold. A refusal flags the stay (_refused); a hold
    replaces the one held before, whose release is written down and then asked for."""
    with _locked_deposit(deposit_id) as (locked, deposit):
        if deposit.status != Held.PLACING:
            return "done"
        if hold.declined:
            deposit.status, deposit.error, deposit.provider_id = Held.FAILED, hold.decline[:300], hold.id
            _clear_pending(deposit)
            return _refused(locked, deposit.placed_on, deposit.amount, hold.decline, recorded=True)
        deposit.provider_id = hold.id
        if not _hold_wanted(locked):
            # Claimed, released or being claimed meanwhile, or the stay is over: this hold is let go
            # (written down first), never kept beside them.
            _clear_pending(deposit)
            _write_pending(deposit, Pending.RELEASE, status=Held.REPLACED)
            surplus = {"hold": hold.id}
            record_event(locked, action="security_deposit", actor=ACTOR, from_status=locked.status, message="deposit_surplus_released", params=surplus)
            to_release, what = [deposit.pk], "surplus"
        else:
            replaced = list(locked.security_deposits.filter(status=Held.HELD))
            for old in replaced:  # done (renewed) only once its release is confirmed
                _write_pending(old, Pending.RELEASE, status=Held.REPLACED)
            deposit.status = Held.HELD
            _clear_pending(deposit)
            to_release, what = [old.pk for old in replaced], "renewed" if replaced else "placed"
            params = {"amount": deposit.amount, "currency": deposit.currency, "hold": hold.id}
            record_event(locked, action="security_deposit", actor=ACTOR, from_status=locked.status, message=f"deposit_{what}", params=params)
    for old_id in to_release:
        _call_provider(old_id)
    return what


def _hold_wanted(locked: Reservation) -> bool:
    deposits = locked.security_deposits
    return (
        locked.status == Status.CONFIRMED
        and timezone.localdate() < hold_window(locked)[1] + timedelta(days=1)  # --as-of runs may trail by a day
        and not deposits.filter(status__in=FINAL).exists()
        and not deposits.filter(status=Held.HELD).exclude(pending=Pending.NONE).exists()
    )


class Card(NamedTuple):
    provider: str
    provider_id: str  # a payment intent made with the card (to read its payment method from)
    customer_id: str
    payment_method_id: str


def _card_to_hold(locked: Reservation) -> Card | None:
    """The card the guest authorised on the checkout page (after the saved one was refused), else
    the card saved at the last payment."""
    authorised = locked.security_deposits.exclude(customer_id="").order_by("-created_at", "-pk").first()
    if authorised is not None:
        return Card(authorised.provider, authorised.provider_id, authorised.customer_id, authorised.payment_method_id)
    paid = locked.payments.exclude(customer_id="").order_by("-paid_at", "-pk").first()
    return Card(paid.provider, paid.provider_id, paid.customer_id, paid.payment_method_id) if paid is not None else None


def _refused(locked: Reservation, as_of: date, amount: Decimal, reason: str, *, recorded: bool = False) -> str:
    """Under the lock: the card refused the hold (its row is written unless `recorded`): the stay
    stands. Staff are flagged, the guest is emailed a link to authorise it on a checkout page (once
    per refusal since the last hold) and the owner at most once a day."""
    if not recorded:
        try:
            with transaction.atomic():
                SecurityDeposit.objects.create(
                    reservation=locked,
                    amount=amount,
                    currency=locked.currency,
                    provider=locked.payment_provider or "",
                    status=Held.FAILED,
                    placed_on=as_of,
                    error=reason[:300],
                )
        except IntegrityError:
            return "done_today"
    params = {"amount": amount, "currency": locked.currency, "reason": reason}
    flag(locked, actor=ACTOR, message="flag_deposit_not_held", params=params)
    _email_guest_the_link(locked, amount)
    money_alerts.alert_deposit_refused(locked, amount=amount, reason=reason, manage_url=manage_url(locked))
    return "failed"


def _email_guest_the_link(locked: Reservation, amount: Decimal) -> None:
    last_hold = locked.security_deposits.exclude(status=Held.FAILED).order_by("-created_at").first()
    sent = OutboundEmail.objects.filter(reservation=locked, kind=OutboundEmail.Kind.DEPOSIT_AUTHORISATION_NEEDED)
    if last_hold is not None:
        sent = sent.filter(created_at__gt=last_hold.created_at)
    if sent.exists():
        return
    _, release_on = hold_window(locked)
    queue_guest_notice(
        locked,
        OutboundEmail.Kind.DEPOSIT_AUTHORISATION_NEEDED,
        "emails/guest_deposit_authorise.txt",
        amount=amount,
        release_on=release_on,
        authorise_url=manage_url(locked) + AUTHORISE_PATH,
    )


# --- The guest authorises the deposit on a checkout page ------------------------------------------

AUTHORISE_PATH = "/authorise-deposit"


def needs_authorisation(reservation: Reservation, *, today: date | None = None) -> bool:
    """The card refused the hold and nothing is held now, while the hold window lasts: the guest may
    authorise it on a checkout page (the manage page shows the link)."""
    if reservation.status != Status.CONFIRMED or deposit_amount(reservation) <= 0:
        return False
    _, release_on = hold_window(reservation)
    if (today or timezone.localdate()) >= release_on:
        return False
    last = reservation.security_deposits.order_by("-placed_on", "-pk").first()
    return last is not None and last.status == Held.FAILED


def start_authorisation(reservation: Reservation, *, return_url: str) -> str:
    """A checkout page (mode=payment, capture_method=manual) for exactly the deposit; returns its
    URL. A page still open is reused; each new one has its own idempotency key. The authorisation
    is recorded by the payment event handlers (record_authorisation)."""
    if not needs_authorisation(reservation):
        raise InvalidTransition("The security deposit needs no authorisation now.")
    purpose = GuestCheckout.Purpose.SECURITY_DEPOSIT
    if (still_open := open_checkout_of(reservation, purpose)) is not None:
        return still_open.url
    attempt = reservation.guest_checkouts.filter(purpose=purpose).count() + 1
    checkout = start_guest_checkout(
        reservation,
        purpose=purpose,
        amount=deposit_amount(reservation),
        description=(
            f"{reservation.property.name}: refundable security deposit (card hold), {reservation.check_in:%d %b %Y} to {reservation.check_out:%d %b %Y}"
        ),
        return_url=return_url,
        capture_manual=True,
        idempotency_key=f"security-deposit-authorise-{reservation.pk}-{attempt}",
    )
    return checkout.url


def record_authorisation(
    reservation_id: str, *, payment_intent_id: str, amount: Decimal, currency: str, provider: str, customer_id: str, payment_method_id: str, actor: str
) -> str:
    """The guest authorised the deposit on the checkout page (webhook, sandbox page or
    reconciliation job): record the hold once, by its payment intent, and clear the flag. A hold
    nobody needs any more (one is already held, the stay is over or cancelled, the amount is not the
    deposit) is released at the provider after commit."""
    with reservation_transaction(reservation_id) as locked:
        if locked.security_deposits.filter(provider_id=payment_intent_id).exists():
            return "already recorded"
        today = timezone.localdate()
        same_day = locked.security_deposits.filter(placed_on=today).first()
        wanted = (
            locked.status == Status.CONFIRMED
            and amount == deposit_amount(locked)
            and currency.upper() == locked.currency
            and not locked.security_deposits.filter(status__in=(Held.HELD, *FINAL)).exists()
            and (same_day is None or same_day.status == Held.FAILED)
            and today < hold_window(locked)[1]
        )
        if not wanted:
            record_event(
                locked,
                action="security_deposit",
                actor=actor,
                from_status=locked.status,
                message="deposit_surplus_released",
                params={"hold": payment_intent_id},
            )
            transaction.on_commit(lambda: _release_quietly(provider, payment_intent_id))
            return "released: no security deposit is to be held with this authorisation"
        fields = {
            "status": Held.HELD,
            "provider": provider,
            "provider_id": payment_intent_id,
            "error": "",
            "customer_id": customer_id,
            "payment_method_id": payment_method_id,
            "amount": amount,
            "currency": locked.currency,
        }
        if same_day is not None:
            SecurityDeposit.objects.filter(pk=same_day.pk).update(**fields)
        else:
            SecurityDeposit.objects.create(reservation=locked, placed_on=today, **fields)
        resolve_flags(locked, "flag_deposit_not_held", by=ACTOR)
        record_event(
            locked,
            action="security_deposit",
            actor=actor,
            from_status=locked.status,
            message="deposit_authorised_by_guest",
            params={"amount": amount, "currency": locked.currency, "hold": payment_intent_id},
        )
    return f"security deposit of {amount} {currency.upper()} authorised"


def _release_quietly(provider: str, payment_intent_id: str) -> None:
    try:
        saved_cards(provider).cancel(payment_intent_id)
    except BookingError as error:  # it lapses at the provider within 7 days anyway
        logger.warning("surplus security deposit authorisation %s not released: %s", payment_intent_id, error.detail)


def release_security_deposits(*, as_of: date | None = None) -> dict[str, int]:
    """The releasing job: let go of every hold whose stay ended `release_days` ago, or was cancelled;
    let go of holds replaced by a renewal; and settle every provider call whose answer was lost."""
    as_of = as_of or timezone.localdate()
    counts: dict[str, int] = {}
    open_or_pending = SecurityDeposit.objects.filter(Q(status__in=(Held.HELD, Held.REPLACED)) | ~Q(pending=Pending.NONE))
    for deposit in open_or_pending.select_related("reservation__property"):
        if deposit.pending:
            outcome = "in_flight" if _in_flight(deposit) else _call_provider(deposit.pk)
        else:
            _, release_on = hold_window(deposit.reservation)
            if deposit.status == Held.HELD and deposit.reservation.status == Status.CONFIRMED and as_of < release_on:
                continue
            outcome = release_hold(deposit.pk)
        counts[outcome] = counts.get(outcome, 0) + 1
    return counts


def release_hold(deposit_id: int) -> str:
    """Write the release down (its key), then ask the provider: "released" once confirmed."""
    with _locked_deposit(deposit_id) as (_, deposit):
        if deposit.pending or deposit.status not in (Held.HELD, Held.REPLACED):
            return "busy" if deposit.pending else "done"
        _write_pending(deposit, Pending.RELEASE)
    return _call_provider(deposit_id)


def claim_security_deposit(deposit_id: int, *, amount: Decimal, reason: str, actor: str) -> SecurityDeposit:
    """Staff keep part or all of the held deposit (damage), with a reason the guest is emailed.

    Under the stay's lock the claim is written down with its key before the capture is sent, so a
    second claim (another staff member, a resent page) is refused while it is at the provider, and
    a claim is recorded and emailed once per capture. A lost or refused answer is settled by reading
    the payment intent (InvalidTransition / PaymentProviderError tell staff what happened)."""
    amount, reason = money(amount), reason.strip()
    earlier = SecurityDeposit.objects.get(pk=deposit_id)
    if earlier.pending and not _in_flight(earlier):
        _call_provider(deposit_id)  # an earlier call whose answer was lost is settled first (same key)
    with reservation_transaction(earlier.reservation_id) as locked:
        deposit = SecurityDeposit.objects.select_for_update().get(pk=deposit_id)
        if deposit.pending:
            raise InvalidTransition(SETTLING)
        if deposit.status != Held.HELD:
            raise InvalidTransition("Only a deposit still held on the card can be claimed.")
        if locked.status != Status.CONFIRMED:
            raise InvalidTransition(NOT_CONFIRMED)
        if not Decimal("0.01") <= amount <= deposit.amount:
            raise InvalidTransition(f"The claim must be between 0.01 and {deposit.amount} {deposit.currency}.")
        if not reason:
            raise InvalidTransition("Say why: the guest is emailed the reason.")
        _write_pending(deposit, Pending.CAPTURE, amount=amount, actor=actor, reason=reason)
    _call_provider(deposit_id)
    deposit = SecurityDeposit.objects.get(pk=deposit_id)
    if deposit.status == Held.CLAIMED:
        return deposit
    if deposit.pending == Pending.CAPTURE:
        raise PaymentProviderError(UNANSWERED)
    raise InvalidTransition(RELEASED_MEANWHILE if deposit.status == Held.RELEASED else NOT_TAKEN)


# Staff read these (the claim page translates them: locale/*/LC_MESSAGES/django.po).
SETTLING = "This deposit's last claim or release is still being settled with the payment provider; look again in a few minutes."
NOT_CONFIRMED = "The stay is no longer confirmed: its deposit is released, not claimed."
UNANSWERED = "The payment provider did not answer. The claim is sent again automatically (the same request: it is taken once at most) and the guest is emailed once it is; do not claim again meanwhile."
RELEASED_MEANWHILE = "Nothing was taken: the hold had already been released at the payment provider."
NOT_TAKEN = "Nothing was taken: the payment provider refused the claim. The deposit is still held; try again."


def _in_flight(deposit: SecurityDeposit) -> bool:
    """Another process is waiting for this call's answer now (one that died is not, after a while)."""
    return deposit.sent_at is not None and deposit.sent_at > timezone.now() - CUT_SHORT_AFTER


@contextmanager
def _locked_deposit(deposit_id: int) -> Iterator[tuple[Reservation, SecurityDeposit]]:
    reservation_id = SecurityDeposit.objects.values_list("reservation_id", flat=True).get(pk=deposit_id)
    with reservation_transaction(reservation_id) as locked:
        yield locked, SecurityDeposit.objects.select_for_update().get(pk=deposit_id)


def _write_pending(
    deposit: SecurityDeposit, what: str, *, status: str | None = None, amount: Decimal | None = None, actor: str = ACTOR, reason: str = "", key: str = ""
) -> None:
    """Under the lock: the call about to be made, with a key of the hold and the try's number (never
    of an amount), committed before the call."""
    deposit.attempts += 1
    deposit.pending = what
    deposit.pending_key = key or f"security-{what.replace('_', '-')}-{deposit.pk}-{deposit.attempts}"
    deposit.pending_amount = amount
    deposit.pending_actor = actor[:100]
    deposit.sent_at = timezone.now()  # it is sent right after this commits
    if reason:
        deposit.claim_reason = reason
    if status:
        deposit.status = status
    deposit.save(update_fields=["attempts", "pending", "pending_key", "pending_amount", "pending_actor", "sent_at", "claim_reason", "status"])


def _call_provider(deposit_id: int) -> str:
    """Make (or make again, same key) the call written on the deposit, then settle it from the
    provider's answer or, when the answer was lost or refused, from the payment intent as the
    provider has it. Returns the outcome: placed, renewed, failed, claimed, released, held,
    given_back or pending."""
    deposit = SecurityDeposit.objects.get(pk=deposit_id)
    if not deposit.pending:
        return "done"
    SecurityDeposit.objects.filter(pk=deposit_id).update(sent_at=timezone.now())
    if deposit.pending == Pending.PLACE:
        return _place(deposit)
    if deposit.pending == Pending.GIVE_BACK:
        return _give_back(deposit)
    cards = saved_cards(deposit.provider)
    try:
        if deposit.pending == Pending.CAPTURE:
            answer = cards.capture(deposit.provider_id, amount_cents=to_cents(deposit.pending_amount or ZERO), idempotency_key=deposit.pending_key)
        else:
            answer = cards.cancel(deposit.provider_id, idempotency_key=deposit.pending_key)
    except BookingError as error:
        logger.warning("security deposit %s: %s not confirmed (%s); reading the hold", deposit.provider_id, deposit.pending, error.detail)
        try:
            answer = cards.retrieve(deposit.provider_id)
        except BookingError as unreachable:
            return _settle(deposit_id, None, failure=unreachable.detail)
    outcome = _settle(deposit_id, answer)
    if SecurityDeposit.objects.filter(pk=deposit_id, pending=Pending.GIVE_BACK).exists():
        _call_provider(deposit_id)  # a capture for a stay no longer confirmed goes back at once
    return outcome


def _place(deposit: SecurityDeposit) -> str:
    if deposit.created_at < timezone.now() - KEY_KEPT_FOR:
        return _leave_hold_to_staff(deposit.pk)
    try:
        hold = _ask_for_hold(deposit)
    except BookingError as error:  # no payment intent to read yet: asked again, same key, next run
        logger.warning("security deposit of %s not placed now: %s", deposit.reservation_id, error.detail)
        return _settle(deposit.pk, None, failure=error.detail)
    return _record_hold(deposit.pk, hold)


def _give_back(deposit: SecurityDeposit) -> str:
    try:
        refund = get_provider(deposit.provider).refund(
            payment_intent_id=deposit.provider_id, amount_cents=to_cents(deposit.pending_amount or ZERO), idempotency_key=deposit.pending_key
        )
    except BookingError as error:  # asked again by the release job, same key
        return _settle(deposit.pk, None, failure=error.detail)
    return _record_given_back(deposit.pk, refund_id=refund.id, amount=from_cents(refund.amount_cents))


def _settle(deposit_id: int, intent: Charge | None, *, failure: str = "") -> str:
    """Under the lock: record what the provider holds (canceled → released, succeeded → claimed,
    requires_capture → still held). No answer at all leaves the call pending for the release job;
    after FLAG_AFTER_FAILURES tries in a row the stay is flagged, once."""
    with _locked_deposit(deposit_id) as (locked, deposit):
        if not deposit.pending:
            return "done"  # another process settled it
        if intent is None:
            deposit.sent_at, deposit.provider_failures = None, deposit.provider_failures + 1
            deposit.save(update_fields=["sent_at", "provider_failures"])
            _flag_after_failures(locked, deposit, failure)
            return "pending"
        if intent.status == "succeeded":
            return _settle_captured(locked, deposit, from_cents(intent.amount_received_cents or intent.amount_cents))
        if intent.status == "canceled":
            deposit.status = Held.RENEWED if deposit.status == Held.REPLACED else Held.RELEASED
            deposit.closed_at = timezone.now()
            if deposit.status == Held.RELEASED:
                params = {"amount": deposit.amount, "currency": deposit.currency}
                record_event(locked, action="security_deposit", actor=ACTOR, from_status=locked.status, message="deposit_released", params=params)
            _clear_pending(deposit)
            _clear_unsettled_flag(locked, deposit)
            return "released"
        # Still authorised: the call was not made (refused). A claim is dropped (staff are told); a
        # release is asked again, with a new key, by the next run of the job.
        logger.warning("security deposit %s: %s refused, still %s", deposit.provider_id, deposit.pending, intent.status)
        if deposit.pending == Pending.CAPTURE:
            deposit.claim_reason = ""
            _clear_pending(deposit, failures=deposit.provider_failures)
            return "held"
        _clear_pending(deposit, failures=deposit.provider_failures + 1)
        _flag_after_failures(locked, deposit, failure or intent.status)
        return "held"


def _settle_captured(locked: Reservation, deposit: SecurityDeposit, captured: Decimal) -> str:
    """Under the lock: the provider took `captured` from the hold: recorded once (this row), the guest
    emailed for a staff claim; for a stay no longer confirmed it is given back in full at once."""
    claimed_by_staff = deposit.pending == Pending.CAPTURE
    deposit.status, deposit.claimed_amount, deposit.closed_at = Held.CLAIMED, captured, timezone.now()
    if claimed_by_staff:
        message, params = "deposit_claimed", {"amount": captured, "currency": deposit.currency, "reason": deposit.claim_reason}
    else:  # captured in the provider's dashboard, found when releasing
        message, params = "deposit_captured_at_provider", {"amount": captured, "currency": deposit.currency, "hold": deposit.provider_id}
    record_event(locked, action="security_deposit", actor=deposit.pending_actor or ACTOR, from_status=locked.status, message=message, params=params)
    _clear_pending(deposit)
    if locked.status != Status.CONFIRMED:
        # Money for a stay no longer confirmed goes back in full, at once (docs/reliability.md).
        _write_pending(deposit, Pending.GIVE_BACK, amount=captured)
        flag(locked, actor=ACTOR, message="flag_deposit_taken_after_cancel", params={**params, "hold": deposit.provider_id})
        return "claimed"
    if claimed_by_staff:
        _queue_claim_email(locked, captured, deposit.claim_reason)
    _clear_unsettled_flag(locked, deposit)
    return "claimed"


def _flag_after_failures(locked: Reservation, deposit: SecurityDeposit, failure: str) -> None:
    if deposit.provider_failures != FLAG_AFTER_FAILURES:
        return
    hold = deposit.provider_id or deposit.pending_key  # a hold being placed: its idempotency key
    params = {"amount": deposit.pending_amount or deposit.amount, "currency": deposit.currency, "hold": hold, "reason": failure}
    flag(locked, actor=ACTOR, message="flag_deposit_unsettled", params=params)


def _clear_unsettled_flag(locked: Reservation, deposit: SecurityDeposit) -> None:
    if deposit.provider_id:
        resolve_flags(locked, "flag_deposit_unsettled", "flag_deposit_taken_after_cancel", by=ACTOR, params={"hold": deposit.provider_id})


def _leave_hold_to_staff(deposit_id: int) -> str:
    """A hold whose answer stayed lost longer than the provider keeps its key: asking again would
    hold the card twice. Staff look it up by its key (flagged once)."""
    with _locked_deposit(deposit_id) as (locked, deposit):
        if deposit.status != Held.PLACING:
            return "done"
        params = {"amount": deposit.amount, "currency": deposit.currency, "hold": deposit.pending_key, "reason": "answer lost"}
        deposit.status, deposit.error = Held.FAILED, f"The provider's answer was lost (key {deposit.pending_key})."[:300]
        _clear_pending(deposit)
        flag(locked, actor=ACTOR, message="flag_deposit_unsettled", params=params)
    return "failed"


def _clear_pending(deposit: SecurityDeposit, *, failures: int = 0) -> None:
    deposit.pending, deposit.pending_key, deposit.pending_amount, deposit.sent_at = Pending.NONE, "", None, None
    deposit.provider_failures = failures
    deposit.save()


def _record_given_back(deposit_id: int, *, refund_id: str, amount: Decimal) -> str:
    with _locked_deposit(deposit_id) as (locked, deposit):
        if deposit.given_back_id or deposit.pending != Pending.GIVE_BACK:
            return "done"
        deposit.given_back, deposit.given_back_id = amount, refund_id
        _clear_pending(deposit)
        params = {"amount": amount, "currency": deposit.currency, "refund": refund_id}
        record_event(locked, action="security_deposit", actor=ACTOR, from_status=locked.status, message="deposit_given_back", params=params)
    return "given_back"


def _queue_claim_email(reservation: Reservation, amount: Decimal, reason: str) -> None:
    to = email_address(reservation.guest_email)
    if not to:
        return
    with translation.override(reservation.language or "en"):
        subject = _("Security deposit for your stay at %(name)s") % {"name": reservation.property.name}
        body = render_to_string(
            "emails/guest_deposit_claimed.txt",
            {"reservation": reservation, "property": reservation.property, "amount": amount, "reason": reason, "manage_url": manage_url(reservation)},
        )
    OutboundEmail.objects.create(
        reservation=reservation,
        kind=OutboundEmail.Kind.DEPOSIT_CLAIMED,
        recipient=OutboundEmail.Recipient.GUEST,
        subject=header_safe(subject)[:300],
        body=body,
        to_address=to,
    )
    transaction.on_commit(deliver_soon)
