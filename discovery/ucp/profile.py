"""What this business speaks of UCP: the versions, the stable ids of its one accommodation type and
rate plan, and the business profile served at /.well-known/ucp.

Versions and spec links (docs/ucp.md, "Versions"): core, its services and the payment-terms
extension belong to the release `RELEASE`. The lodging booking capability and its
cancellation-policy extension are not in a release yet; they follow the pinned drafts
(tests/agents/ucp_schemas/README.md), and their `spec` links name the exact commits of those drafts'
documents in the UCP repository, so a platform reads the text this implementation follows.
"""

from django.conf import settings

from booking.api.presenters import ACCOMMODATION_TYPE_ID, RATE_PLAN_ID

RELEASE = "2026-08-25"
UCP_VERSION = RELEASE
# The schema every answer is validated against (ucp.json#/$defs/version) and the overview ("Pre-release
# Versions") accept only a dated version, so the unreleased lodging capabilities state the release
# they are built on; the pinned spec links below say which draft they follow.
LODGING_VERSION = RELEASE
BOOKING = "dev.ucp.lodging.booking"
CANCELLATION_POLICY = "dev.ucp.lodging.policy.cancellation"
PAYMENT_TERMS = "dev.ucp.common.payment.terms"
SCHEMAS = "https://ucp.dev/schemas"

# The UCP repository's documents at the commits the pinned schemas come from.
_DOCS = "https://github.com/Universal-Commerce-Protocol/ucp/blob"
LODGING_DRAFT = "0030fd791fecf6ce2877ddc303047744d7d283a6"
CANCELLATION_DRAFT = "176881fa9a337f494a91eb31c429380aca7c5e43"
PAYMENT_REFACTOR = "f62be4f4b96df3cac97096cba1fc16aa7c637bd0"
SPECS = {
    "rest": f"{_DOCS}/{LODGING_DRAFT}/docs/specification/lodging/booking/rest.md",
    "mcp": f"{_DOCS}/{LODGING_DRAFT}/docs/specification/lodging/booking/mcp.md",
    BOOKING: f"{_DOCS}/{LODGING_DRAFT}/docs/specification/lodging/booking/index.md",
    CANCELLATION_POLICY: f"{_DOCS}/{CANCELLATION_DRAFT}/docs/specification/lodging/extensions/cancellation-policy.md",
    PAYMENT_TERMS: f"{_DOCS}/{PAYMENT_REFACTOR}/docs/specification/payment/extensions/terms.md",
}
VERSIONS = {BOOKING: LODGING_VERSION, CANCELLATION_POLICY: LODGING_VERSION, PAYMENT_TERMS: RELEASE}

# One accommodation type (the whole home) and one rate plan: their ids never change, so a platform
# may keep them (also at the top level of GET /api/v1/property and get_property).
STAY_ID = f"{ACCOMMODATION_TYPE_ID}__{RATE_PLAN_ID}"
PAYMENT_TERM_ID = "standard"  # one payment term: the schedule the stay's terms give it
REST_PATH = "/ucp/v1"


def capability_versions() -> dict:
    """The `ucp.capabilities` of every booking response: what the answer carries."""
    return {name: [{"version": version}] for name, version in VERSIONS.items()}


def response_meta() -> dict:
    # No payment handler yet: the guest pays on our own payment page (continue_url).
    return {"version": UCP_VERSION, "status": "success", "capabilities": capability_versions(), "payment_handlers": {}}


def error_meta() -> dict:
    return {"version": UCP_VERSION, "status": "error"}


def business_profile() -> dict:
    base = settings.BASE_URL
    services = [
        {
            "version": UCP_VERSION,
            "spec": SPECS[transport],
            "transport": transport,
            "schema": f"https://ucp.dev/{UCP_VERSION}/services/lodging/{'rest.openapi' if transport == 'rest' else 'mcp.openrpc'}.json",
            "endpoint": base + (REST_PATH if transport == "rest" else "/mcp"),
        }
        for transport in ("rest", "mcp")
    ]
    schemas = {
        BOOKING: f"{SCHEMAS}/lodging/booking.json",
        CANCELLATION_POLICY: f"{SCHEMAS}/lodging/policy_cancellation.json",
        PAYMENT_TERMS: f"{SCHEMAS}/common/payment_terms.json",
    }
    capabilities = {
        name: [{"version": VERSIONS[name], "spec": SPECS[name], "schema": schemas[name], **({} if name == BOOKING else {"extends": BOOKING})}]
        for name in VERSIONS
    }
    return {
        "ucp": {
            "version": UCP_VERSION,
            "services": {"dev.ucp.lodging": services},
            "capabilities": capabilities,
            # Until a delegated-payment handler exists the guest pays on our own page (continue_url).
            "payment_handlers": {},
        }
    }
