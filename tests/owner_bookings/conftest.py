"""The owner-booking tests pay through the payment tests' sandbox and Stripe-compatible fake."""

from tests.payments.conftest import fake_stripe, sandbox, webhook  # noqa: F401
