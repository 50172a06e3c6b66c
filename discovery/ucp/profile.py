"""What this business speaks of UCP: the version, the stable ids of its one accommodation type and
rate plan, and the business profile served at /.well-known/ucp."""

from django.conf import settings

from booking.presenters import ACCOMMODATION_TYPE_ID, RATE_PLAN_ID

UCP_VERSION = "2026-04-08"
BOOKING = "dev.ucp.lodging.booking"
CANCELLATION_POLICY = "dev.ucp.lodging.policy.cancellation"
PAYMENT_TERMS = "dev.ucp.common.payment.terms"
SCHEMAS = "https://ucp.dev/schemas"

# One accommodation type (the whole home) and one rate plan: their ids never change, so a platform
# may keep them (also at the top level of GET /api/v1/property and get_property).
STAY_ID = f"{ACCOMMODATION_TYPE_ID}__{RATE_PLAN_ID}"
REST_PATH = "/ucp/v1"


def capability_versions() -> dict:
    """The `ucp.capabilities` of every booking response: what the answer carries."""
    return {name: [{"version": UCP_VERSION}] for name in (BOOKING, CANCELLATION_POLICY, PAYMENT_TERMS)}


def response_meta() -> dict:
    # No payment handler yet: the guest pays on our own payment page (continue_url).
    return {"version": UCP_VERSION, "status": "success", "capabilities": capability_versions(), "payment_handlers": {}}


def error_meta() -> dict:
    return {"version": UCP_VERSION, "status": "error"}


def business_profile() -> dict:
    base = settings.BASE_URL
    spec = f"https://ucp.dev/{UCP_VERSION}/specification"
    return {
        "ucp": {
            "version": UCP_VERSION,
            "services": {
                "dev.ucp.lodging": [
                    {
                        "version": UCP_VERSION,
                        "spec": f"{spec}/overview",
                        "transport": "rest",
                        "schema": f"https://ucp.dev/{UCP_VERSION}/services/lodging/rest.openapi.json",
                        "endpoint": base + REST_PATH,
                    },
                    {
                        "version": UCP_VERSION,
                        "spec": f"{spec}/overview",
                        "transport": "mcp",
                        "schema": f"https://ucp.dev/{UCP_VERSION}/services/lodging/mcp.openrpc.json",
                        "endpoint": base + "/mcp",
                    },
                ]
            },
            "capabilities": {
                BOOKING: [{"version": UCP_VERSION, "spec": f"{spec}/lodging/booking", "schema": f"{SCHEMAS}/lodging/booking.json"}],
                CANCELLATION_POLICY: [
                    {
                        "version": UCP_VERSION,
                        "spec": f"{spec}/lodging/extensions/cancellation-policy",
                        "schema": f"{SCHEMAS}/lodging/policy_cancellation.json",
                        "extends": BOOKING,
                    }
                ],
                PAYMENT_TERMS: [
                    {"version": UCP_VERSION, "spec": f"{spec}/common/payment-terms", "schema": f"{SCHEMAS}/common/payment_terms.json", "extends": BOOKING}
                ],
            },
            # Until a delegated-payment handler exists the guest pays on our own page (continue_url).
            "payment_handlers": {},
        }
    }
