"""Payment services: open a checkout for a hold, release a hold, reconcile open checkouts
(refunds are booking/payments/services/refunds.py; the provider adapters live in booking/payments/).

REST views, MCP tools, the sandbox page, admin actions and Celery tasks are thin adapters over
these functions. The provider is called outside any database transaction (no lock is held while
Stripe answers); what it returns is then written under the property lock.
"""

import logging
from datetime import date, datetime, timedelta
from typing import Any
from urllib.parse import parse_qsl, quote, urlencode, urlsplit, urlunsplit

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from booking.callers import Caller
from booking.errors import BookingError, NotReleasable, PaymentProviderError, ReservationNotPayable
from booking.formatting import site_languages, site_path, time_with_date
from booking.payments import return_hosts
from booking.payments.events import MalformedEvent, apply_payment_event
from booking.payments.ledger import record_checkout, to_cents
from booking.payments.models import PaymentEvent
from booking.payments.money_lines import checkout_item
from booking.payments.providers import CheckoutRequest, PaymentProvider, get_provider
from booking.payments.services import balances, guest_checkouts
from booking.reservations.models import Reservation
from booking.reservations.services.holds import GuestDetails, hold_stay
from booking.reservations.services.locking import lock_reservation, writer_transaction
from booking.reservations.services.reservations import extend_hold, get_reservation, release_hold_after_failure, release_live_hold

logger = logging.getLogger(__name__)
Status = Reservation.Status

# Stripe refuses a Checkout Session that expires in under 30 minutes or over 24 hours; we ask for
# 31 when the hold leaves room, so the request's own travel time never trips the floor.
PROVIDER_MIN_CHECKOUT_MINUTES = 30
MIN_CHECKOUT_MINUTES = 31
CEILING_SLACK_SECONDS = 5
MAX_CHECKOUT_HOURS = 24
# A session about to close is replaced rather than handed to a guest who needs time to pay.
REUSE_MARGIN = timedelta(minutes=2)
# How long after a hold ended the reconciliation job still asks about its checkout (lost webhooks).
RECONCILE_LOOKBACK = timedelta(days=1)
THANK_YOU_PATH, BOOK_PATH = "/thank-you", "/book"


# --- Opening a checkout -------------------------------------------------------------------------


def create_checkout_link(
    *,
    check_in: date,
    check_out: date,
    guests: int,
    success_url: str | None = None,
    cancel_url: str | None = None,
    special_requests: str | None = None,
    agent_name: str | None = None,
    caller: Caller | None = None,
    children_ages: list[int] | None = None,
    promo_code: str | None = None,
    extras: list[dict[str, Any]] | None = None,
    language: str = "en",
) -> Reservation:
    """The one-step flow: hold the nights, then open a checkout for them. No guest details needed:
    the provider collects them and the payment event backfills them. `language` is the one the
    guest booked in (their emails are written in it), as the interface knows it. If the provider fails, the
    hold is released and PaymentProviderError propagates: nothing is left behind."""
    caller = caller or Caller(Reservation.Source.API)
    actor = caller.actor(agent_name)
    reservation = hold_stay(
        check_in=check_in,
        check_out=check_out,
        guests=guests,
        guest=GuestDetails(),
        special_requests=special_requests,
        agent_name=agent_name,
        caller=caller,
        children_ages=children_ages,
        promo_code=promo_code,
        extras=extras,
        language=language,
    )
    try:
        return open_checkout(reservation.pk, success_url=success_url, cancel_url=cancel_url, actor=actor)
    except BaseException as error:
        reason = error.detail if isinstance(error, BookingError) else "the checkout could not be opened"
        release_hold_after_failure(reservation.pk, actor=actor, reason=reason)
        raise


def open_checkout(
    reservation_id: str, *, success_url: str | None = None, cancel_url: str | None = None, actor: str = "api", prefill_guest: bool = False
) -> Reservation:
    """Open (or reuse) the checkout session of a held reservation and return the reservation.

    `prefill_guest`: the payer came with the owner's signed link (booking/payments/guest_prefill.py),
    so a new session is given the guest's email to prefill.

    ReservationNotPayable unless it is held and the hold has not lapsed; NotFound for an unknown id.
    An open session with time left is reused, so retries never create a second way to pay.
    """
    provider = get_provider()
    reservation = get_reservation(reservation_id)
    now = timezone.now()
    hold_until = _ensure_payable(reservation, now)
    if _reusable_checkout(reservation, provider.name):
        return reservation
    expires_at = checkout_expiry(hold_until, now, ceiling=hold_ceiling(reservation))
    if expires_at is None:
        # A new session would have to outlive the hold's ceiling: the one still open is the last.
        if _reusable_checkout(reservation, provider.name, margin=timedelta(0)):
            return reservation
        raise ReservationNotPayable(
            f"This hold ends at {time_with_date(reservation.hold_expires_at, 'en', zone=True)} and cannot be extended again; "
            "create a new reservation or checkout link."
        )
    due_now = balances.due_at_checkout(reservation)  # the deposit, or the total
    item_name, item_description = checkout_item(reservation, due_now)
    session = provider.create_checkout_session(
        CheckoutRequest(
            reservation_id=reservation.pk,
            amount_cents=to_cents(due_now),
            currency=reservation.currency,
            description=checkout_description(reservation),
            item_name=item_name,
            item_description=item_description,
            locale=reservation.language,
            success_url=return_url(success_url, THANK_YOU_PATH, reservation.pk, with_session=not success_url or is_own_thank_you_page(success_url)),
            cancel_url=return_url(cancel_url, BOOK_PATH, reservation.pk),
            expires_at=expires_at,
            # No customer_email from the id alone: whoever holds the reservation id must not see the
            # guest's address on the payment page (README "What a reservation id reveals").
            customer_email=reservation.guest_email if prefill_guest else "",
        )
    )
    replaced = ""
    try:
        with writer_transaction():
            locked = lock_reservation(reservation.pk)
            locked_until = _ensure_payable(locked, timezone.now())
            if _reusable_checkout(locked, provider.name):
                winner = locked  # a concurrent call stored its session first: everyone uses that one
            else:
                winner = None
                if locked.payment_provider == provider.name:
                    replaced = locked.checkout_session_id
                record_checkout(locked.pk, provider=provider.name, session_id=session.id, url=session.url, expires_at=session.expires_at, actor=actor)
                if session.expires_at > locked_until:
                    # The session may outlive the hold (Stripe's 30-minute floor): the hold follows it.
                    extend_hold(locked.pk, until=session.expires_at, actor=actor)
    except BaseException:
        _expire_quietly(provider, session.id)
        raise
    if winner is not None:
        _expire_quietly(provider, session.id)
    elif replaced:
        _expire_quietly(provider, replaced)
    return get_reservation(reservation.pk)


def _ensure_payable(reservation: Reservation, now: datetime) -> datetime:
    """The end of the hold, or ReservationNotPayable when there is no live hold to pay."""
    if reservation.status != Status.HELD:
        raise ReservationNotPayable(f"This reservation is {reservation.status}; only a held reservation can be paid.")
    if reservation.hold_expires_at is None or reservation.hold_expires_at <= now:
        raise ReservationNotPayable("The hold on these dates has expired; create a new reservation or checkout link.")
    return reservation.hold_expires_at


def _reusable_checkout(reservation: Reservation, provider_name: str, margin: timedelta = REUSE_MARGIN) -> bool:
    return bool(
        reservation.checkout_session_id
        and reservation.payment_provider == provider_name
        and reservation.checkout_expires_at
        and reservation.checkout_expires_at > timezone.now() + margin
    )


def hold_ceiling(reservation: Reservation) -> datetime:
    """The latest a hold may ever last: HOLD_MINUTES (or the hours the owner gave a booking made for a
    guest) plus one provider minimum (Stripe's 30 minutes) from its creation, however many checkout
    sessions are opened for it."""
    return reservation.created_at + timedelta(minutes=(reservation.hold_minutes or settings.HOLD_MINUTES) + PROVIDER_MIN_CHECKOUT_MINUTES)


def checkout_expiry(hold_expires_at: datetime, now: datetime, *, ceiling: datetime | None = None) -> datetime | None:
    """When a new checkout session should close: the hold's expiry, but at least 31 minutes from
    now (Stripe's 30 plus a minute for the request) and under Stripe's 24-hour limit; never past
    the hold's ceiling. None when no session the provider accepts fits under the ceiling."""
    earliest = now + timedelta(minutes=MIN_CHECKOUT_MINUTES)
    latest = now + timedelta(hours=MAX_CHECKOUT_HOURS) - timedelta(minutes=5)
    expires_at = min(max(hold_expires_at, earliest), latest)
    if ceiling is not None and expires_at > ceiling:
        # Near the ceiling the provider still gets its 30 minutes (and a few seconds for the
        # request), or no new session at all.
        if ceiling < now + timedelta(minutes=PROVIDER_MIN_CHECKOUT_MINUTES, seconds=CEILING_SLACK_SECONDS):
            return None
        expires_at = ceiling
    return expires_at.replace(microsecond=0)


def checkout_description(reservation: Reservation) -> str:
    nights, guests = reservation.nights, reservation.guests
    return (
        f"{reservation.property.name}: {nights} night{'s' if nights != 1 else ''}, "
        f"{reservation.check_in:%d %b %Y} to {reservation.check_out:%d %b %Y}, {guests} guest{'s' if guests != 1 else ''}"
    )


# Stripe (and the sandbox) put the session id in place of this literal on the way back: only the
# payer's browser then knows it, which is what lets our thank-you page show the manage link.
SESSION_ID_PLACEHOLDER = "{CHECKOUT_SESSION_ID}"


def is_own_thank_you_page(url: str) -> bool:
    """Our thank-you page in any language (/thank-you, /it/thank-you …): like the default return
    address, it is told the checkout session, so it can show the payer the manage link."""
    parts, base = urlsplit(url), urlsplit(settings.BASE_URL)
    if (parts.scheme, parts.netloc.lower()) != (base.scheme, base.netloc.lower()):
        return False
    path = parts.path.removeprefix(base.path.rstrip("/"))
    return path in {site_path(THANK_YOU_PATH, language) for language in site_languages()}


def return_url(url: str | None, default_path: str, reservation_id: str, *, with_session: bool = False) -> str:
    """The payer's way back (validated upstream), defaulting to the site's page, always carrying
    reservation_id so the page can show the reservation (and, to our own thank-you page, the
    checkout session id). A URL on a host we do not trust is not followed: our own page offers it
    as a link (return_hosts.py), and only our thank-you page is told the session."""
    onward = None
    if url and not return_hosts.is_trusted(url):
        onward, url = url, None
        with_session = default_path == THANK_YOU_PATH
    parts = urlsplit(url or settings.BASE_URL + default_path)
    query = [(key, value) for key, value in parse_qsl(parts.query, keep_blank_values=True) if key != "reservation_id"]
    query.append(("reservation_id", reservation_id))
    if onward:
        query.append((return_hosts.CONTINUE_PARAMETER, return_hosts.sign(onward, reservation_id)))
    # Stripe substitutes the literal placeholder only: an agent's "?session={CHECKOUT_SESSION_ID}"
    # must reach it unencoded (urlencode would write %7B…%7D, which Stripe leaves alone).
    encoded = urlencode(query).replace(quote(SESSION_ID_PLACEHOLDER, safe=""), SESSION_ID_PLACEHOLDER)
    encoded += f"&session_id={SESSION_ID_PLACEHOLDER}" if with_session else ""
    return urlunsplit(parts._replace(query=encoded))


def _expire_quietly(provider: PaymentProvider, session_id: str) -> None:
    """Close a session nobody should pay any more; if that fails, its expiry event or the
    reconciliation job settles it (an older session's expiry never releases a newer hold)."""
    try:
        provider.expire_checkout_session(session_id)
    except BookingError as error:
        logger.info("could not expire checkout %s: %s", session_id, error.detail)


# --- Releasing a hold ---------------------------------------------------------------------------


def release_hold(reservation_id: str, *, actor: str) -> Reservation:
    """Let go of an unpaid hold at once (an agent exploring prices, a guest who changed their mind):
    its checkout session is closed at the provider first, so nobody can pay it afterwards, then the
    hold is cancelled and its nights are free. NotReleasable for anything but a live, unpaid hold.

    If the provider cannot be reached the hold is released anyway: a payment that slipped through
    meets a cancelled reservation and is refunded automatically (events.RefundOwed).
    """
    reservation = get_reservation(reservation_id)
    _ensure_releasable(reservation)
    close_checkout(reservation)
    return release_live_hold(reservation_id, actor=actor, reason="hold released by its creator")


def close_checkout(reservation: Reservation) -> None:
    """Before a hold is released or cancelled: close its checkout at the provider, so nobody can pay
    it afterwards. NotReleasable if it has just been paid. If the provider cannot be reached the
    caller goes on: a payment that slips through meets a cancelled reservation and is refunded."""
    if not reservation.checkout_session_id:
        return
    provider = get_provider(reservation.payment_provider or None)
    try:
        session = provider.retrieve_checkout_session(reservation.checkout_session_id)
        if session.status == "complete":
            raise NotReleasable("This hold has just been paid; it is being confirmed.")
        if session.status == "open":
            provider.expire_checkout_session(session.id)
    except PaymentProviderError as error:
        logger.warning("releasing %s: the checkout could not be closed at the provider: %s", reservation.pk, error.detail)


def _ensure_releasable(reservation: Reservation) -> None:
    if reservation.status != Status.HELD or not reservation.is_blocking():
        status = reservation.status if reservation.status != Status.HELD else Status.EXPIRED
        raise NotReleasable(f"This reservation is {status}; only an unpaid hold can be released.")


# --- Reconciliation -----------------------------------------------------------------------------


def reconcile_open_checkouts(*, now: datetime | None = None) -> int:
    """Ask the provider about every checkout still open on our side (and those of holds that ended
    in the last day, in case a payment's webhook was lost) and apply what it says through the same
    handlers as the webhook. Returns how many sessions it settled."""
    now = now or timezone.now()
    provider = get_provider()
    candidates = list(
        Reservation.objects.filter(payment_provider=provider.name)
        .exclude(checkout_session_id="")
        .filter(Q(status=Status.HELD) | Q(status=Status.EXPIRED, checkout_expires_at__gte=now - RECONCILE_LOOKBACK))
        # An expired hold that carries a payment had it refunded as unbookable: that is final.
        .exclude(status=Status.EXPIRED, payment_intent_id__gt="")
        .values_list("pk", "checkout_session_id")
    )
    finished = set(
        PaymentEvent.objects.filter(event_id__in=[_reconcile_event_id(s, final) for _, s in candidates for final in ("complete", "expired")]).values_list(
            "event_id", flat=True
        )
    )
    settled = 0
    for reservation_id, session_id in candidates:
        if {_reconcile_event_id(session_id, "complete"), _reconcile_event_id(session_id, "expired")} & finished:
            continue  # a final state is final: no need to ask again
        try:
            session = provider.retrieve_checkout_session(session_id)
            if session.status == "complete" and session.payment_status == "paid":
                event_type = "checkout.session.completed"
            elif session.status == "expired":
                event_type = "checkout.session.expired"
            else:
                continue
            outcome = apply_payment_event(
                {"id": _reconcile_event_id(session.id, session.status), "type": event_type, "data": {"object": session.data}},
                source="reconciliation job",
            )
        except (BookingError, MalformedEvent) as error:
            logger.warning("reconciling %s (%s) failed: %s", reservation_id, session_id, getattr(error, "detail", error))
            continue
        if not outcome.summary.startswith("duplicate"):
            settled += 1
            logger.info("reconciled %s: %s", reservation_id, outcome.summary)
    return settled + _reconcile_guest_checkouts(provider)


def _reconcile_guest_checkouts(provider: PaymentProvider) -> int:
    """Checkouts of confirmed stays (the balance, the security deposit's authorisation) whose
    outcome was never recorded: a completed one is applied through the same handlers as its lost
    webhook would have been (they record it once, by its payment intent); a closed one is settled."""
    settled = 0
    for checkout in guest_checkouts.unsettled(provider.name, since=RECONCILE_LOOKBACK):
        try:
            session = provider.retrieve_checkout_session(checkout.session_id)
            if session.status == "expired":
                guest_checkouts.settle(session.id)
                continue
            # A balance paid by a delayed method completes unpaid: asked again until it is paid. An
            # authorisation is complete when the card is held (nothing is "paid").
            if session.status != "complete" or (checkout.purpose == checkout.Purpose.BALANCE and session.payment_status != "paid"):
                continue
            outcome = apply_payment_event(
                {"id": _reconcile_event_id(session.id, "complete"), "type": "checkout.session.completed", "data": {"object": session.data}},
                source="reconciliation job",
            )
        except (BookingError, MalformedEvent) as error:
            logger.warning("reconciling %s checkout %s failed: %s", checkout.purpose, checkout.session_id, getattr(error, "detail", error))
            continue
        if not outcome.summary.startswith("duplicate"):  # the handler settled it when it recorded the payment
            settled += 1
            logger.info("reconciled %s checkout of %s: %s", checkout.purpose, checkout.reservation_id, outcome.summary)
    return settled


def _reconcile_event_id(session_id: str, status: str) -> str:
    return f"reconcile_{session_id}_{status}"[:255]
