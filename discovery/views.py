"""Discovery files and pages for agent developers, generated from the live configuration.

Every URL in them is absolute, from settings.BASE_URL. The files carry an ETag and Cache-Control,
and answer 304 to a matching If-None-Match, so agents can poll them cheaply.
"""

import hashlib
import json
from urllib.parse import urlencode, urlsplit

from asgiref.sync import async_to_sync
from django.conf import settings
from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.cache import get_conditional_response, patch_cache_control
from django.views.decorators.http import require_safe

from booking.catalog.selectors import get_property, today
from booking.errors import NotFound
from discovery.endpoints import A2A_PATH, MCP_PATH, brand
from discovery.operations import OPERATIONS, example_arguments
from pages.seo import PageMeta

DISCOVERY_MAX_AGE = 300  # seconds: the files change only when the owner edits the property


def property_or_none():
    try:
        return get_property()
    except NotFound:
        return None


def cacheable(request, content: bytes, content_type: str) -> HttpResponse:
    """`content` with a strong ETag and Cache-Control; 304 when the client already has it."""
    etag = '"' + hashlib.sha256(content).hexdigest()[:32] + '"'
    response = get_conditional_response(request, etag=etag) or HttpResponse(content, content_type=content_type)
    response["ETag"] = etag
    patch_cache_control(response, public=True, max_age=DISCOVERY_MAX_AGE)
    return response


def cacheable_json(request, body: dict) -> HttpResponse:
    content = json.dumps(body, ensure_ascii=False, indent=2).encode()
    return cacheable(request, content, "application/json")


def quick_start(prop) -> dict:
    """The agent quick start (docs/agents.md), with example requests that are bookable today."""
    base = settings.BASE_URL
    stay = example_arguments(OPERATIONS["check_availability"], today())
    return {
        "stay": stay,
        "property_url": f"{base}/api/v1/property",
        "availability_url": f"{base}/api/v1/availability?{urlencode(stay)}",
        "calendar_url": f"{base}/api/v1/calendar?{urlencode({'months': 3})}",
        "checkout_link_url": f"{base}/api/v1/payments/checkout-link",
        "reservations_url": f"{base}/api/v1/reservations",
        "quote_url": f"{base}/api/v1/quote",
        "stay_json": json.dumps(stay),
        "checkout_body": json.dumps({**stay, "agent_name": "your-agent-name"}),
        "a2a_example": json.dumps({"skill": "check_availability", **stay}),
        "quote_body": json.dumps({**stay, "currency": "EUR"}),
    }


def discovery_context(prop) -> dict:
    base = settings.BASE_URL
    return {
        "base_url": base,
        "property": prop,
        "brand": brand(prop),
        "summary": " ".join(prop.summary.split()) if prop else "",
        "max_guests": prop.max_guests if prop else 7,
        "hold_minutes": settings.HOLD_MINUTES,
        "quick": quick_start(prop),
        "operations": list(OPERATIONS.values()),
        "urls": {
            "openapi": f"{base}/api/openapi.json",
            "openapi_well_known": f"{base}/.well-known/openapi.json",
            "mcp": base + MCP_PATH,
            "a2a": base + A2A_PATH,
            "agent_card": f"{base}/.well-known/agent-card.json",
            "ai_plugin": f"{base}/.well-known/ai-plugin.json",
            "llms_txt": f"{base}/llms.txt",
            "sitemap": f"{base}/sitemap.xml",
            "robots": f"{base}/robots.txt",
            "api_page": f"{base}/api",
            "mcp_page": f"{base}/mcp",
            "agents_page": f"{base}/agents",
        },
    }


@require_safe
def llms_txt(request):
    text = render_to_string("discovery/llms.txt", discovery_context(property_or_none()))
    return cacheable(request, text.encode(), "text/plain; charset=utf-8")


@require_safe
def ai_plugin(request):
    prop = property_or_none()
    base = settings.BASE_URL
    name = brand(prop)
    return cacheable_json(
        request,
        {
            "schema_version": "v1",
            "name_for_human": name[:20],  # the manifest format allows 20 characters
            "name_for_model": "direct_booking",
            "description_for_human": f"Check dates and prices and book {name} directly with the host.",
            "description_for_model": (
                f"Direct booking of {prop.name if prop else 'a short-stay rental'} (up to {prop.max_guests if prop else 7} guests, EUR). "
                "Order: GET /api/v1/property, GET /api/v1/availability?check_in=YYYY-MM-DD&check_out=YYYY-MM-DD&guests=N, "
                "then POST /api/v1/payments/checkout-link {check_in, check_out, guests} and give the returned checkout_url "
                "to the user to pay. Do not collect guest details before payment: the payment page collects them. "
                "check_out is the departure day. Invalid input answers 422 with detail[].loc/msg/type."
            ),
            "auth": {"type": "none"},
            "api": {"type": "openapi", "url": f"{base}/.well-known/openapi.json", "is_user_authenticated": False},
            "logo_url": base + settings.STATIC_URL + "img/favicon.svg",
            "contact_email": (prop.contact_email if prop and prop.contact_email else settings.DEFAULT_FROM_EMAIL),
            "legal_info_url": f"{base}/booking-policies",
        },
    )


@require_safe
def agent_card(request):
    # The SDKs load here, not at import: a web process that serves no agent never pays for them.
    from a2a.server.request_handlers.response_helpers import agent_card_to_dict

    from discovery import a2a_agent

    return cacheable_json(request, agent_card_to_dict(a2a_agent.agent_card(property_or_none())))


SERVER_CARD_TYPE = "application/mcp-server-card+json"


def discovery_json(request, body: dict, content_type: str = "application/json") -> HttpResponse:
    """Public, read-only discovery metadata: cacheable, and readable by browser-based clients (CORS)."""
    response = cacheable(request, json.dumps(body, ensure_ascii=False, indent=2).encode(), content_type)
    response["Access-Control-Allow-Origin"] = "*"
    response["Access-Control-Allow-Methods"] = "GET"
    response["Access-Control-Allow-Headers"] = "Content-Type"
    return response


@require_safe
def mcp_server_card(request):
    """The MCP Server Card (SEP-2127, draft) at /.well-known/mcp/server-card.json and at the location
    the draft reserves, <MCP URL>/server-card. Answered as application/mcp-server-card+json to a
    client that asks for it, else as application/json."""
    from discovery.mcp_extras import server_card

    wants_card_type = SERVER_CARD_TYPE in request.headers.get("Accept", "")
    return discovery_json(request, server_card(), SERVER_CARD_TYPE if wants_card_type else "application/json")


@require_safe
def mcp_catalog(request):
    """The MCP Catalog of the discovery draft: this site's one server and where its card is."""
    return discovery_json(
        request,
        {
            "specVersion": "draft",
            "entries": [
                {
                    "identifier": f"urn:air:{urlsplit(settings.BASE_URL).hostname}:direct-booking",
                    "displayName": "Direct booking",
                    "type": SERVER_CARD_TYPE,
                    "url": f"{settings.BASE_URL}{MCP_PATH}/server-card",
                }
            ],
        },
    )


def page(request, template: str, title: str, description: str, **extra):
    context = discovery_context(property_or_none())
    context["meta"] = PageMeta(title=title, description=description, path=request.path)
    return render(request, template, {**context, **extra})


@require_safe
def api_page(request):
    return page(
        request,
        "discovery/api.html",
        "Booking API for agents and developers",
        "How to check availability, get prices and book through the JSON API: the quick-start order, curl examples and the OpenAPI schema.",
    )


@require_safe
def mcp_page(request):
    from discovery import mcp_server

    # The tools as the server itself lists them to MCP clients.
    listed = async_to_sync(mcp_server.list_tools)(None, None).tools
    return page(
        request,
        "discovery/mcp.html",
        "MCP tool server",
        "Connect an MCP client to book this stay: the Streamable HTTP endpoint and every tool with its arguments.",
        tools=[tool_summary(tool) for tool in listed],
    )


@require_safe
def agents_page(request):
    return page(
        request,
        "discovery/agents.html",
        "For AI agents",
        "Every way an AI agent can book this stay: the JSON API, the MCP tool server, the A2A agent and the discovery files.",
    )


def tool_summary(tool) -> dict:
    """A tool as the server lists it, flattened for the page: its arguments from its input schema."""
    schema = tool.input_schema or {}
    required = set(schema.get("required", []))
    arguments = []
    for name, spec in schema.get("properties", {}).items():
        arguments.append(
            {
                "name": name,
                "type": schema_type(spec),
                "required": name in required,
                "default": json.dumps(spec["default"]) if "default" in spec else "",
                "description": spec.get("description", ""),
            }
        )
    annotations = tool.annotations
    return {
        "name": tool.name,
        "title": tool.title,
        "description": tool.description,
        "arguments": arguments,
        "read_only": bool(annotations and annotations.read_only_hint),
        "idempotent": bool(annotations and annotations.idempotent_hint),
        "open_world": bool(annotations and annotations.open_world_hint),
    }


def schema_type(spec: dict) -> str:
    if "anyOf" in spec:
        return " or ".join(schema_type(option) for option in spec["anyOf"])
    kind = spec.get("type", "any")
    kinds = kind if isinstance(kind, list) else [kind]
    described = []
    for item in kinds:
        if item == "string" and spec.get("format"):
            described.append(f"string ({spec['format']})")
        elif item == "integer" and "minimum" in spec and "maximum" in spec:
            described.append(f"integer {spec['minimum']}–{spec['maximum']}")
        else:
            described.append(item)
    return " or ".join(described)


def a2a_endpoint_description(request):
    """GET /a2a: the A2A endpoint speaks JSON-RPC over POST (config/asgi.py routes those); a GET,
    e.g. a link checker following llms.txt, learns how to use it instead of meeting a 404."""
    base = settings.BASE_URL
    return JsonResponse(
        {
            "name": "A2A endpoint",
            "protocol": "A2A 1.0, JSON-RPC 2.0 binding",
            "usage": 'POST JSON-RPC messages (method SendMessage) with a data part {"skill": …, …}.',
            "agent_card": f"{base}/.well-known/agent-card.json",
            "documentation": f"{base}/agents",
        }
    )
