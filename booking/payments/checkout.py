"""What every payment provider speaks: Stripe's shapes for a checkout and a refund, and the
provider protocol (providers.py: Stripe; sandbox_provider.py: the built-in sandbox)."""

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Protocol

from django.conf import settings


def pay_page_url(reservation_id: str) -> str:
    """The one way to pay a hold that every interface hands out: the site's own page, which opens
    (or reopens) the provider's checkout while the hold lasts and shows the stay's state afterwards
    (discovery/ucp/views.continue_booking)."""
    return f"{settings.BASE_URL}/pay/{reservation_id}"


@dataclass(frozen=True)
class CheckoutRequest:
    reservation_id: str
    amount_cents: int
    currency: str
    description: str
    success_url: str
    cancel_url: str
    expires_at: datetime
    # A checkout for a confirmed stay says what it pays (metadata.purpose: "balance", or
    # "security_deposit": an authorisation only, capture_method=manual); a booking's has none.
    purpose: str = ""
    capture_manual: bool = False
    idempotency_key: str = ""  # empty: the SDK's own per-request key
    # The line item the payer reads (money_lines.checkout_item): its name says what is paid now, its
    # description the stay's lines; and the payment page's language. Empty: `description` alone.
    item_name: str = ""
    item_description: str = ""
    locale: str = ""
    # Only when the payer came with the owner's signed link (guest_prefill.py): Stripe prefills it.
    customer_email: str = ""


@dataclass(frozen=True)
class CheckoutSession:
    id: str
    url: str
    expires_at: datetime
    status: str  # open | complete | expired
    payment_status: str  # paid | unpaid | no_payment_required
    data: dict[str, Any]  # the session object, Stripe-shaped

    @classmethod
    def from_object(cls, data: dict[str, Any]) -> "CheckoutSession":
        return cls(
            id=data["id"],
            url=data.get("url") or "",
            expires_at=datetime.fromtimestamp(int(data["expires_at"]), tz=UTC),
            status=data.get("status") or "open",
            payment_status=data.get("payment_status") or "unpaid",
            data=data,
        )


@dataclass(frozen=True)
class Refund:
    id: str
    amount_cents: int
    status: str


class PaymentProvider(Protocol):
    name: str

    def create_checkout_session(self, checkout: CheckoutRequest) -> CheckoutSession: ...

    def retrieve_checkout_session(self, session_id: str) -> CheckoutSession: ...

    def expire_checkout_session(self, session_id: str) -> CheckoutSession: ...

    def refund(self, *, payment_intent_id: str, amount_cents: int, idempotency_key: str) -> Refund: ...
