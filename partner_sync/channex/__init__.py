"""The Channex channel manager: ARI out (availability, rates and restrictions), bookings in (the
booking revisions feed and webhooks). The contract is docs/channex.md (from Channex's API docs).

| Module | What it does |
|---|---|
| `client.py` | HTTP only: the calls the engine makes, with timeouts; errors as `ChannexError` |
| `ari.py` | pure: what each night is worth on the channels (availability, rate, restrictions) and the `values` bodies |
| `push.py` | dirty nights (marked in booking's transactions), the coalesced push, back-off, full sync |
| `revisions.py` | pure: a revision's attributes → a `ChannelStay`, or the problem that stops it |
| `bookings.py` | storing, applying (once) and acknowledging revisions; the feed drain; webhook fetches |
| `connection.py` | the connection row, seeded from CHANNEX_*; whether the connection is on |
"""
