"""The Universal Commerce Protocol's lodging booking (`dev.ucp.lodging.booking`, docs/ucp.md).

A booking session is a hold: the same lock, idempotency and strict input as the REST holds. The
modules: `profile` (versions, ids and the business profile at /.well-known/ucp), `requests` (a UCP
request → the REST hold input, through booking.api.validation), `present` (a reservation → a UCP
booking), `sessions` (the five operations, for both bindings), `views` (REST binding and the
continue page) and `tools` (MCP binding).
"""
