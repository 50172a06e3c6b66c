"""The money tests use the payment tests' Stripe-compatible fake, sandbox and signed webhooks."""

from tests.payments.conftest import fake_stripe, sandbox, webhook  # noqa: F401
