"""What each id a caller can hand us looks like: the one place that knows.

A reservation id (also a UCP booking session's id and the payment link's /pay/<id>), a manage
token and a sandbox checkout id are capabilities we issued, so anything not of their shape is not
one of ours: it is answered as not found, before any query. A NUL is a DataError on PostgreSQL, a
lone surrogate cannot be encoded for either database and an overlong id cannot be in the column, so
none of them may reach the database (each would otherwise be a 500, or a 503 "try again" for a
request that can never succeed). Every adapter (REST, UCP REST, MCP and A2A tools, the pages) and
the services that look an id up ask here; the shapes follow booking.models' generators and columns.
"""

import re

# new_reservation_id(): "res_" + secrets.token_urlsafe(16) (22 characters); the column holds 40.
RESERVATION_ID = re.compile(r"res_[A-Za-z0-9_-]{1,36}")
# new_manage_token(): secrets.token_urlsafe(32) (43 characters); the column holds 64.
MANAGE_TOKEN = re.compile(r"[A-Za-z0-9_-]{20,64}")
# The sandbox provider's checkout sessions: "cs_sandbox_" + secrets.token_urlsafe(24); the column holds 100.
SANDBOX_CHECKOUT_ID = re.compile(r"cs_sandbox_[A-Za-z0-9_-]{1,89}")


def is_reservation_id(text: object) -> bool:
    return isinstance(text, str) and RESERVATION_ID.fullmatch(text) is not None


def is_manage_token(text: object) -> bool:
    return isinstance(text, str) and MANAGE_TOKEN.fullmatch(text) is not None


def is_sandbox_checkout_id(text: object) -> bool:
    return isinstance(text, str) and SANDBOX_CHECKOUT_ID.fullmatch(text) is not None
