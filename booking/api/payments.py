"""Payment endpoints under /api/v1/payments/: checkout-link, checkout-session, the Stripe webhook and
the sandbox checkout page. Each is a thin adapter over booking/payments/services/checkouts.py and booking/payments/events.py."""

import json
import logging
from decimal import Decimal
from typing import Any

import stripe
from django import forms
from django.conf import settings
from django.db import DatabaseError
from django.http import HttpResponseRedirect, JsonResponse
from django.shortcuts import render
from django.utils import translation
from django.utils.decorators import method_decorator
from django.utils.translation import gettext_lazy as _lazy
from django.views import View
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework.response import Response

from booking.api import own_holds, validation
from booking.api.base import VALIDATION_ERROR, ApiView, error
from booking.api.committed_holds import checkout_link_arguments
from booking.api.errors import json_error
from booking.api.payment_presenters import checkout_json
from booking.api.schemas.payments import CheckoutResult
from booking.api.views import IDEMPOTENCY_KEY
from booking.callers import Caller
from booking.errors import BookingError, NotFound, ServiceUnavailable
from booking.formatting import active_language, format_money
from booking.payments import guest_prefill, sandbox
from booking.payments.events import MalformedEvent, apply_payment_event
from booking.payments.ledger import from_cents
from booking.payments.money_lines import paid_now_sentence, stay_lines
from booking.payments.providers import active_provider_name
from booking.payments.services import checkouts as services
from booking.reservations.emails import test_payment_notice
from booking.reservations.models import Reservation
from booking.reservations.services.idempotency import run_idempotent

logger = logging.getLogger(__name__)

# Stripe's own default: a signature older than five minutes is refused (replay protection).
WEBHOOK_TOLERANCE_SECONDS = 300


def booking_source(request) -> str:
    # The site's own /book page calls this from the browser; browsers mark that as same-origin.
    return Reservation.Source.WEB if request.headers.get("Sec-Fetch-Site") == "same-origin" else Reservation.Source.API


class CheckoutLinkView(ApiView):
    @extend_schema(
        operation_id="create_checkout_link",
        summary="Recommended: hold the dates and get a payment checkout URL (no guest details needed)",
        description=(
            "Holds the stay (the dates are blocked at once) and opens a payment checkout for its total. "
            "Send the guest to checkout_url: the payment page collects email, name and phone, and the "
            "reservation is confirmed when the payment succeeds. After paying the guest returns to "
            "success_url (default: the site's /thank-you page) with ?reservation_id=…"
        ),
        request=validation.CheckoutLinkCreate,
        parameters=[IDEMPOTENCY_KEY],
        responses={
            200: CheckoutResult,
            409: error("dates_unavailable, or idempotency_key_reused"),
            422: VALIDATION_ERROR,
            429: error("rate_limited (see Retry-After)"),
            502: error("payment_provider_error: nothing was booked, the dates are free again"),
        },
        examples=[
            OpenApiExample(
                "Four nights for two",
                value={"check_in": "2027-05-10", "check_out": "2027-05-14", "guests": 2, "agent_name": "example-agent"},
                request_only=True,
            )
        ],
    )
    def post(self, request):
        data = self.body(validation.CheckoutLinkCreate)

        def create():
            caller = Caller.from_request(booking_source(request), request, actor_prefix="api")
            return 200, checkout_json(services.create_checkout_link(**checkout_link_arguments(data, caller)))

        status, body = run_idempotent(scope="checkout-link", key=request.headers.get("Idempotency-Key"), payload=request.data, produce=create)
        response = Response(body, status=status)
        if status == 200 and booking_source(request) == Reservation.Source.WEB:
            # Our own /book page: this browser may come back to its hold (booking/api/own_holds.py).
            own_holds.remember(request, response, body["reservation_id"])
        return response


class CheckoutSessionView(ApiView):
    @extend_schema(
        operation_id="create_checkout_session",
        summary="Open (or reuse) the payment checkout of a held reservation",
        request=validation.CheckoutSessionCreate,
        parameters=[IDEMPOTENCY_KEY],
        responses={
            200: CheckoutResult,
            404: error("not_found"),
            409: error("reservation_not_payable (not held, or the hold lapsed), or idempotency_key_reused"),
            422: VALIDATION_ERROR,
            502: error("payment_provider_error"),
        },
    )
    def post(self, request):
        data = self.body(validation.CheckoutSessionCreate)

        def create():
            reservation = services.open_checkout(
                data["reservation_id"],
                success_url=data.get("success_url"),
                cancel_url=data.get("cancel_url"),
                actor="api",
            )
            return 200, checkout_json(reservation)

        status, body = run_idempotent(scope="checkout-session", key=request.headers.get("Idempotency-Key"), payload=request.data, produce=create)
        return Response(body, status=status)


@method_decorator(csrf_exempt, name="dispatch")
class StripeWebhookView(View):
    """Stripe → us. The raw body is verified against Stripe-Signature before anything is read from
    it. Any non-2xx answer makes Stripe retry, so temporary trouble answers 503 (or 502), never 500."""

    http_method_names = ["post"]

    def post(self, request):
        payload = request.body
        try:
            stripe.WebhookSignature.verify_header(
                payload,
                request.headers.get("Stripe-Signature"),
                settings.STRIPE_WEBHOOK_SECRET,
                tolerance=WEBHOOK_TOLERANCE_SECONDS,
            )
        except (stripe.SignatureVerificationError, UnicodeDecodeError) as failure:
            logger.warning("webhook refused: %s", failure)
            return json_error(
                "The Stripe-Signature header does not verify this body (wrong secret, altered body or stale timestamp).", "invalid_signature", 400
            )
        try:
            event = json.loads(payload)
        except ValueError:
            event = None
        if not isinstance(event, dict):
            return json_error("The event is not a JSON object.", "invalid_payload", 400)
        try:
            outcome = apply_payment_event(event, source="stripe webhook")
        except MalformedEvent as failure:
            # Permanent: a retry carries the same body. 400 stops Stripe retrying; the log keeps it.
            logger.warning("webhook: event %s could not be read: %s", str(event.get("id"))[:80], failure)
            return json_error(f"The event could not be read: {failure}", "invalid_payload", 400)
        except BookingError as failure:  # 503 when the calendar lock timed out, 502 when a refund failed
            return JsonResponse(failure.as_body(), status=failure.status)
        except DatabaseError:
            logger.exception("webhook: database unavailable")
            return json_error("The database is unavailable; the event will be retried.", "service_unavailable", 503)
        except Exception:
            logger.exception("webhook: event %s could not be applied", event.get("id"))
            return json_error("The event could not be applied now; it will be retried.", "service_unavailable", 503)
        return JsonResponse({"received": True, "event_id": event.get("id"), "type": event.get("type"), "outcome": outcome.summary})


class SandboxPayerForm(forms.Form):
    email = forms.EmailField(label=_lazy("Email"), max_length=254)
    name = forms.CharField(label=_lazy("Full name"), max_length=200)
    phone = forms.CharField(label=_lazy("Phone"), max_length=40)
    card_number = forms.CharField(
        label=_lazy("Test card number"),
        max_length=30,
        required=False,
        initial="4242 4242 4242 4242",
        help_text=_lazy("4000 0000 0000 0341 is kept but refused later (to try a refused balance)."),
    )

    def clean(self) -> dict[str, Any]:
        # No line breaks or control characters: these details end up in email headers and the admin.
        cleaned = super().clean() or {}
        return {key: " ".join(value.split()) if isinstance(value, str) else value for key, value in cleaned.items()}


@method_decorator(never_cache, name="dispatch")
class SandboxCheckoutView(View):
    """The sandbox's checkout page (TEST PAYMENT — no money moves). Paying or cancelling hands the
    event Stripe would send to the same handlers as the webhook (see sandbox.py)."""

    http_method_names = ["get", "post"]
    template_name = "payments/sandbox_checkout.html"

    def get(self, request, session_id: str):
        checkout = self._checkout(session_id)
        if checkout is None:
            return self._page(request, None, state="not_found", status=404)
        # The owner's link for a guest (guest_prefill.py): their details filled in, only with its token.
        prefilled = guest_prefill.prefilled_payer(request.GET.get(guest_prefill.QUERY), checkout.reservation) if checkout.reservation else {}
        return self._page(request, checkout, form=SandboxPayerForm(initial=prefilled))

    def post(self, request, session_id: str):
        checkout = self._checkout(session_id)
        if checkout is None:
            return self._page(request, None, state="not_found", status=404)
        if request.POST.get("action") == "cancel":
            return self._cancel(request, checkout)
        form = SandboxPayerForm(request.POST)
        if not form.is_valid():
            return self._page(request, checkout, form=form, status=400)
        if checkout.status != checkout.Status.OPEN:
            return self._page(request, checkout, status=409)
        try:
            checkout, _ = sandbox.pay(checkout.pk, sandbox.PayerInput(**form.cleaned_data))
        except sandbox.SandboxCheckoutClosed:
            return self._page(request, sandbox.get_checkout(checkout.pk), status=409)
        except (ServiceUnavailable, DatabaseError):
            # The test payment is recorded; the reconciliation job confirms it shortly.
            logger.warning("sandbox payment %s recorded, confirmation delayed", checkout.pk, exc_info=True)
            return self._page(request, sandbox.get_checkout(checkout.pk), state="delayed", status=202)
        return HttpResponseRedirect(checkout.success_url, status=303)

    def _cancel(self, request, checkout):
        try:
            checkout, _ = sandbox.cancel(checkout.pk)
        except (ServiceUnavailable, DatabaseError):
            logger.warning("sandbox cancel %s: hold release delayed", checkout.pk, exc_info=True)
        target = checkout.success_url if checkout.status in (checkout.Status.COMPLETE, checkout.Status.AUTHORISED) else checkout.cancel_url
        return HttpResponseRedirect(target, status=303)

    @staticmethod
    def _checkout(session_id: str):
        # With Stripe configured the sandbox never takes a payment, not even for old test sessions.
        if active_provider_name() != "sandbox":
            return None
        try:
            return sandbox.get_checkout(session_id)
        except NotFound:
            return None

    def _page(self, request, checkout, *, form=None, state=None, status=200):
        """The page speaks the language the guest booked in (the stay remembers it)."""
        reservation = checkout.reservation if checkout else None
        with translation.override(reservation.language if reservation else "en"):
            return self._render(request, checkout, reservation, form=form, state=state, status=status)

    def _render(self, request, checkout, reservation, *, form, state, status):
        context = {
            "language": translation.get_language(),
            "notice": test_payment_notice(),  # "TEST PAYMENT" in every language, the rest translated
            "checkout": checkout,
            "reservation": reservation,
            "property": reservation.property if reservation else None,
            "amount": money_label(checkout.amount_cents, checkout.currency) if checkout else "",
            # A card hold (the security deposit) is not the stay's price: its own line only.
            "price_lines": ([] if checkout.capture_method == "manual" else price_lines(reservation)) if reservation else [],
            "stay_total": money_label(round(reservation.total * 100), reservation.currency) if reservation else "",
            # What this checkout takes of the total: "Deposit 30 % of 849,00 €: 254,70 €; balance … on …".
            "paid_now": paid_now_sentence(reservation, from_cents(checkout.amount_cents), purpose=sandbox.purpose_of(checkout), money=format_money)
            if reservation and checkout.capture_method != "manual"
            else "",
            "form": form or SandboxPayerForm(),
            "purpose": sandbox.purpose_of(checkout) if checkout else "",
            "state": state or (("complete" if checkout.status == checkout.Status.AUTHORISED else checkout.status) if checkout else "not_found"),
        }
        return render(request, self.template_name, context, status=status)


def price_lines(reservation) -> list[tuple[str, str]]:
    """The stay's lines (booking/payments/money_lines.py: extras included) in the page's language."""
    return [(line.label, money_label(round(line.amount * 100), reservation.currency)) for line in stay_lines(reservation)]


def money_label(cents: int, currency: str) -> str:
    if active_language() != "en":
        return format_money(Decimal(cents) / 100, currency.upper())
    amount = f"{abs(cents) / 100:,.2f}"
    sign = "−" if cents < 0 else ""
    return f"{sign}€{amount}" if currency.upper() == "EUR" else f"{sign}{amount} {currency.upper()}"
