"""Who is calling: built once per request by each interface (the site and REST from the Django
request; MCP and A2A from their HTTP request) and handed to the services that record it.

- `source`: the interface, recorded as the reservation's source (Reservation.Source).
- `client_ip`: the client's address, for the per-client hold limits; X-Forwarded-For is believed
  only from TRUSTED_PROXIES, the same rule everywhere.
- `actor(agent_name)`: how the audit trail names who acted.
"""

import ipaddress
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.conf import settings


def client_ip_from(meta: Mapping[str, Any]) -> str | None:
    """The client's address from WSGI-style META; X-Forwarded-For only from TRUSTED_PROXIES."""
    peer = meta.get("REMOTE_ADDR") or None
    forwarded = meta.get("HTTP_X_FORWARDED_FOR", "") or ""
    if peer and forwarded and peer in settings.TRUSTED_PROXIES:
        for candidate in reversed([part.strip() for part in forwarded.split(",")]):
            try:
                ipaddress.ip_address(candidate)
            except ValueError:
                break
            if candidate not in settings.TRUSTED_PROXIES:
                return candidate
    return peer


def client_ip(request: Any) -> str | None:
    """The client's address of a Django request."""
    return client_ip_from(request.META)


@dataclass(frozen=True)
class Caller:
    source: str
    client_ip: str | None = None
    # The REST API's audit name is "api (agent)"; the agents' "mcp (agent)" and "a2a (agent)".
    actor_prefix: str = ""

    @classmethod
    def from_request(cls, source: str, request: Any, *, actor_prefix: str = "") -> "Caller":
        return cls(source, client_ip(request), actor_prefix)

    @classmethod
    def from_http(cls, source: str, *, peer: str | None, forwarded_for: str | None) -> "Caller":
        return cls(source, client_ip_from({"REMOTE_ADDR": peer or "", "HTTP_X_FORWARDED_FOR": forwarded_for or ""}))

    def actor(self, agent_name: str | None = None) -> str:
        name = self.actor_prefix or self.source
        return f"{name} ({agent_name})" if agent_name else name
