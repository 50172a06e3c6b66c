"""Payments: Stripe Checkout (STRIPE_SECRET_KEY set) or the built-in sandbox (TEST PAYMENT — no money
moves). See docs/contract.md, "Payments".

checkout.py          what every provider speaks (Stripe's shapes) and the provider protocol
providers.py         Stripe through the official SDK, and choosing the provider
sandbox_provider.py  the sandbox provider: test sessions and refunds kept in the database
sandbox.py           the sandbox checkout page's actions (pay, cancel) → the same events as Stripe's
services.py          open a checkout for a hold, refund a payment, reconcile open checkouts
events.py            payment events → reservation changes (webhook, sandbox page and reconciliation alike)
ledger.py            money on a reservation, written under the property lock
views.py             the endpoints under /api/v1/payments/ and the sandbox checkout page
"""

# Said wherever a sandbox payment shows (its page, emails, the admin): nothing was charged.
TEST_PAYMENT_NOTICE = "TEST PAYMENT — no money moves"
