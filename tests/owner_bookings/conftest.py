"""The owner-booking tests pay through the payment tests' sandbox."""

from tests.payments.conftest import sandbox  # noqa: F401
