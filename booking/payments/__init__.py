"""Payments: Stripe Checkout (STRIPE_SECRET_KEY set) or the built-in sandbox (TEST PAYMENT — no money
moves). See docs/contract.md, "Payments".

providers.py  the provider boundary (Stripe through the official SDK; sandbox.py for the sandbox)
services.py   open a checkout for a hold, refund a payment, reconcile open checkouts
events.py     payment events → reservation changes (webhook, sandbox page and reconciliation alike)
ledger.py     money on a reservation, written under the property lock
views.py      the endpoints under /api/v1/payments/ and the sandbox checkout page
"""

# Said wherever a sandbox payment shows (its page, emails, the admin): nothing was charged.
TEST_PAYMENT_NOTICE = "TEST PAYMENT — no money moves"
