"""Names the site and the ASGI router share with the agent servers, kept apart from the SDKs so
that a process loads the MCP and A2A SDKs only when an agent first calls (see config/asgi.py)."""

MCP_PATH = "/mcp"
A2A_PATH = "/a2a"


def brand(prop) -> str:
    """The property's short name, as the site shows it: "Casa Example — Apartment by the sea" → "Casa Example"."""
    return prop.name.split(" — ")[0].strip() or prop.name if prop else "Direct booking"
