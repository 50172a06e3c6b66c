"""The payment provider boundary: Stripe Checkout through the official SDK, or the built-in sandbox.

Both speak Stripe's shapes. A checkout session carries the whole session object as Stripe would
send it (id, url, status, payment_status, expires_at, amount_total, metadata, customer_details,
payment_intent), so one table of event handlers (events.py) serves Stripe webhooks, the sandbox
page and the reconciliation job alike. Every provider failure becomes PaymentProviderError.
"""

import logging

from django.conf import settings

from booking.errors import PaymentProviderError
from booking.payments.checkout import CheckoutRequest, CheckoutSession, PaymentProvider, Refund
from booking.payments.sandbox_provider import SandboxProvider

__all__ = ["CheckoutRequest", "CheckoutSession", "PaymentProvider", "Refund", "SandboxProvider", "StripeProvider", "get_provider"]

logger = logging.getLogger(__name__)

# Pinned: the API version stripe-python 16.1.0 was generated for. Changing it is a deliberate act.
STRIPE_API_VERSION = "2026-10-28.endive"
STRIPE_TIMEOUT_SECONDS = 20
STRIPE_MAX_NETWORK_RETRIES = 2
STRIPE_LOCALES = ("en", "it", "de", "fr")  # the site's languages, all among Checkout's `locale` values
KEEP_CARD = {
    "setup_future_usage": "off_session"
}  # docs/money.md: later charges without the guest  # the SDK adds an idempotency key, so a retried POST is safe


class StripeProvider:
    """Checkout Session create, retrieve and expire; Refund create. Nothing else is called."""

    name = "stripe"

    def client(self):
        import stripe
        from stripe._base_address import BaseAddresses

        base_addresses: BaseAddresses | None = {"api": settings.STRIPE_API_BASE.rstrip("/")} if settings.STRIPE_API_BASE else None
        return stripe.StripeClient(
            settings.STRIPE_SECRET_KEY,
            stripe_version=STRIPE_API_VERSION,
            base_addresses=base_addresses,
            max_network_retries=STRIPE_MAX_NETWORK_RETRIES,
            http_client=stripe.RequestsClient(timeout=STRIPE_TIMEOUT_SECONDS),
        )

    def create_checkout_session(self, checkout: CheckoutRequest) -> CheckoutSession:
        metadata = {"reservation_id": checkout.reservation_id, **({"purpose": checkout.purpose} if checkout.purpose else {})}
        capture = {"capture_method": "manual"} if checkout.capture_manual else {}
        options = {"idempotency_key": checkout.idempotency_key} if checkout.idempotency_key else {}
        params = {
            "mode": "payment",
            "line_items": [
                {
                    "quantity": 1,
                    "price_data": {
                        "currency": checkout.currency.lower(),
                        "unit_amount": checkout.amount_cents,
                        # One line of exactly the amount charged (Stripe sums line items into
                        # amount_total, and takes no negative line for a discount): its name says
                        # what is paid now, its description lists the whole breakdown (docs/money.md).
                        "product_data": {
                            "name": (checkout.item_name or checkout.description)[:250],
                            **({"description": checkout.item_description[:1000]} if checkout.item_description else {}),
                        },
                    },
                }
            ],
            "client_reference_id": checkout.reservation_id,
            "metadata": metadata,
            # Charges and refunds carry the reservation too, so charge.refunded finds it.
            "payment_intent_data": {"metadata": metadata, "description": checkout.description[:250], **KEEP_CARD, **capture},
            "customer_creation": "always",  # the card is kept on a Customer for the balance and the security deposit
            "phone_number_collection": {"enabled": True},
            "expires_at": int(checkout.expires_at.timestamp()),
            "success_url": checkout.success_url,
            "cancel_url": checkout.cancel_url,
            **({"locale": checkout.locale} if checkout.locale in STRIPE_LOCALES else {}),
            **({"customer_email": checkout.customer_email} if checkout.customer_email else {}),
        }
        return self._call("create a checkout session", lambda client: client.v1.checkout.sessions.create(params, options))

    def retrieve_checkout_session(self, session_id: str) -> CheckoutSession:
        return self._call("read a checkout session", lambda client: client.v1.checkout.sessions.retrieve(session_id))

    def expire_checkout_session(self, session_id: str) -> CheckoutSession:
        return self._call("expire a checkout session", lambda client: client.v1.checkout.sessions.expire(session_id))

    def refund(self, *, payment_intent_id: str, amount_cents: int, idempotency_key: str) -> Refund:
        import stripe

        try:
            refund = self.client().v1.refunds.create(
                {"payment_intent": payment_intent_id, "amount": amount_cents},
                {"idempotency_key": idempotency_key},
            )
        except stripe.StripeError as error:
            logger.warning("stripe refund of %s failed: %s", payment_intent_id, error)
            message = getattr(error, "user_message", None) or "the payment provider did not answer"
            raise PaymentProviderError(f"The refund failed: {message}") from error
        return Refund(id=refund.id, amount_cents=int(refund.amount), status=refund.status or "")

    def _call(self, what: str, request) -> CheckoutSession:
        import stripe

        try:
            session = request(self.client())
        except stripe.StripeError as error:
            logger.warning("stripe: could not %s: %s", what, error)
            raise PaymentProviderError() from error
        try:
            return CheckoutSession.from_object(session.to_dict())
        except (KeyError, TypeError, ValueError) as error:  # an answer without the fields we need
            logger.warning("stripe: unexpected answer to %s: %s", what, error)
            raise PaymentProviderError() from error


def active_provider_name() -> str:
    """docs/contract.md, "Payments": Stripe when STRIPE_SECRET_KEY is set, the sandbox otherwise (read per call)."""
    return "stripe" if settings.STRIPE_SECRET_KEY else "sandbox"


def get_provider(name: str | None = None) -> PaymentProvider:
    """The active provider, or the one named (a refund goes back through whoever took the money)."""
    name = name or active_provider_name()
    if name == "stripe":
        if not settings.STRIPE_SECRET_KEY:
            raise PaymentProviderError("This payment was taken by Stripe, but STRIPE_SECRET_KEY is not set.")
        return StripeProvider()
    if name == "sandbox":
        return SandboxProvider()
    raise PaymentProviderError(f"Unknown payment provider {name!r}.")
