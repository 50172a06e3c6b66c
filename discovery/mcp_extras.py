"""MCP beyond tools: resources an agent can read into its context, prompts a person can pick in
their client, completions for prompt arguments, and the server card for discovery.

Resources are markdown rendered from the same documents the tools answer with (the property
document of get_property, the reservation of get_reservation), so they never say something the
API does not. The reservation template needs the reservation's id, which is its capability, as
for GET /api/v1/reservations/{id}.
"""

from dataclasses import dataclass
from urllib.parse import urlsplit

import mcp_types as types
from asgiref.sync import sync_to_async
from django.conf import settings

from booking.callers import Caller
from booking.errors import InvalidInput, NotFound
from config.version import VERSION
from discovery.endpoints import MCP_PATH
from discovery.operations import run_operation_async
from pages.models import FaqEntry

MARKDOWN = "text/markdown"
RESERVATION_TEMPLATE = "reservation://{reservation_id}"
SERVER_VERSION = VERSION
SERVER_CARD_SCHEMA = "https://static.modelcontextprotocol.io/schemas/v2/server-card.schema.json"


# --- Resources -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class PropertyResource:
    uri: str
    name: str
    title: str
    description: str


PROPERTY_RESOURCES = [
    PropertyResource("property://overview", "overview", "The property", "What the place is: rooms, beds, capacity, amenities, host."),
    PropertyResource(
        "property://policies", "policies", "House rules and policies", "Check-in and check-out times, house rules, cancellation and payment policy, city tax."
    ),
    PropertyResource("property://location", "location", "Location and arrival", "Address, neighbourhood, coordinates and how arrival works."),
    PropertyResource("property://faq", "faq", "Questions guests ask", "The site's FAQ, as the owner wrote it."),
]


def icons() -> list[types.Icon]:
    return [types.Icon(src=f"{settings.BASE_URL}{settings.STATIC_URL}img/favicon.svg", mime_type="image/svg+xml", sizes=["any"])]


def resources() -> list[types.Resource]:
    return [types.Resource(uri=r.uri, name=r.name, title=r.title, description=r.description, mime_type=MARKDOWN) for r in PROPERTY_RESOURCES]


def resource_templates() -> list[types.ResourceTemplate]:
    return [
        types.ResourceTemplate(
            uri_template=RESERVATION_TEMPLATE,
            name="reservation",
            title="A reservation",
            description="A reservation's status, dates, guests and price, by its id (as returned by create_checkout_link).",
            mime_type=MARKDOWN,
        )
    ]


async def read(uri: str, caller: Caller) -> list[types.TextResourceContents]:
    """The contents of a resource; NotFound for a URI we do not serve (the caller answers the error)."""
    if uri.startswith("reservation://"):
        reservation_id = uri.removeprefix("reservation://")
        body = await run_operation_async("get_reservation", {"reservation_id": reservation_id}, caller)
        return [types.TextResourceContents(uri=uri, mime_type=MARKDOWN, text=reservation_markdown(body))]
    kind = {r.uri: r.name for r in PROPERTY_RESOURCES}.get(uri)
    if kind is None:
        raise NotFound(f"No resource {uri!r}. The resources are {', '.join(r.uri for r in PROPERTY_RESOURCES)} and {RESERVATION_TEMPLATE}.")
    if kind == "faq":
        return [types.TextResourceContents(uri=uri, mime_type=MARKDOWN, text=faq_markdown(await sync_to_async(faq_entries)()))]
    document = await run_operation_async("get_property", {}, caller)
    render = {"overview": overview_markdown, "policies": policies_markdown, "location": location_markdown}[kind]
    return [types.TextResourceContents(uri=uri, mime_type=MARKDOWN, text=render(document))]


def faq_entries() -> list[tuple[str, str]]:
    return list(FaqEntry.objects.filter(published=True).values_list("question", "answer"))


def overview_markdown(doc: dict) -> str:
    capacity = doc["capacity"]
    lines = [
        f"# {doc['name']}",
        "",
        doc["headline"],
        "",
        doc["summary"],
        "",
        f"- Up to {capacity['max_guests']} guests; {capacity['bedrooms']} bedrooms, {capacity['beds']} beds, "
        f"{_number(capacity['bathrooms'])} bathrooms" + (f", {capacity['size_sqm']} m²" if capacity.get("size_sqm") else ""),
        f"- Host: {doc['host']['name']} (speaks {', '.join(doc['host']['languages'])})",
        f"- Page: {doc['url']}",
        "",
        "## Amenities",
        "",
    ]
    lines += [f"- {a['name']} ({a['category']})" for a in doc["amenities"]]
    lines += ["", "## Description", "", doc["description"]]
    return "\n".join(lines) + "\n"


def policies_markdown(doc: dict) -> str:
    policies, rules = doc["policies"], doc["pricing_rules"]
    lines = [
        f"# House rules and policies — {doc['name']}",
        "",
        f"- Check-in from {policies['check_in_from']} to {policies['check_in_until']}; check-out by {policies['check_out_until']}.",
        f"- Stays of {rules['min_nights']} to {rules['max_nights']} nights; prices in {rules['currency']}.",
        f"- City tax: {rules['city_tax']['note']}.",
        "",
        "## House rules",
        "",
    ]
    lines += [f"- {rule}" for rule in policies["house_rules"]]
    lines += ["", "## Cancellation", "", policies["cancellation_policy"], "", "## Payment", "", policies["payment_policy"]]
    return "\n".join(lines) + "\n"


def location_markdown(doc: dict) -> str:
    address, policies = doc["address"], doc["policies"]
    coordinates = doc.get("coordinates") or {}
    lines = [
        f"# Location and arrival — {doc['name']}",
        "",
        f"{address['street_address']}, {address['postal_code']} {address['city']} ({address.get('region') or address['country_code']})",
        f"Neighbourhood: {address.get('neighbourhood') or '—'}",
    ]
    if coordinates.get("latitude") is not None:
        lines.append(f"Coordinates: {coordinates['latitude']}, {coordinates['longitude']}")
    lines += [
        "",
        "## Arrival",
        "",
        f"Check-in is from {policies['check_in_from']} to {policies['check_in_until']}; check-out by {policies['check_out_until']}.",
        "The exact address details and the host's phone number are emailed to the guest before arrival.",
    ]
    return "\n".join(lines) + "\n"


def faq_markdown(entries: list[tuple[str, str]]) -> str:
    lines = ["# Questions guests ask", ""]
    for question, answer in entries:
        lines += [f"## {question}", "", answer.strip(), ""]
    return "\n".join(lines)


def reservation_markdown(body: dict) -> str:
    breakdown, payment = body.get("price_breakdown") or {}, body["payment"]
    lines = [
        f"# Reservation {body['reservation_id']}",
        "",
        f"- Status: {body['status']}",
        f"- Stay: {body['check_in']} → {body['check_out']} ({body['nights']} nights), {body['guests']} guests",
        f"- Total: {breakdown.get('total')} {breakdown.get('currency') or payment['currency']}",
        f"- Payment: {payment['status']}; paid {payment['amount_paid']}, refunded {payment['amount_refunded']} {payment['currency']}",
    ]
    if body.get("hold_expires_at"):
        lines.append(f"- Held until: {body['hold_expires_at']} (unpaid holds lapse then)")
    if payment.get("checkout_url"):
        lines.append(f"- Payment page for the guest: {payment['checkout_url']}")
    return "\n".join(lines) + "\n"


def _number(value) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


# --- Prompts -------------------------------------------------------------------------------------


PROMPTS = [
    types.Prompt(
        name="plan_a_stay",
        title="Plan a stay",
        description="Find dates and a price for a trip: the agent reads the property, finds the cheapest stays and quotes them, without holding anything.",
        arguments=[
            types.PromptArgument(name="guests", description="How many guests, children included (1–7).", required=True),
            types.PromptArgument(name="nights", description="How many nights.", required=False),
            types.PromptArgument(name="from_date", description="Earliest arrival, YYYY-MM-DD.", required=False),
            types.PromptArgument(name="to_date", description="Latest departure, YYYY-MM-DD.", required=False),
            types.PromptArgument(name="currency", description="Currency to show prices in (the charge stays in EUR).", required=False),
        ],
    ),
    types.Prompt(
        name="book_these_dates",
        title="Book these dates",
        description="Check the dates, show the price line by line, and on the guest's yes hand over the payment page.",
        arguments=[
            types.PromptArgument(name="check_in", description="Arrival, YYYY-MM-DD.", required=True),
            types.PromptArgument(name="check_out", description="Departure, YYYY-MM-DD.", required=True),
            types.PromptArgument(name="guests", description="How many guests, children included.", required=True),
            types.PromptArgument(
                name="children_ages", description="Ages of the children, comma-separated (optional; children are exempt from the city tax).", required=False
            ),
        ],
    ),
]


def prompt_messages(name: str, arguments: dict[str, str]) -> types.GetPromptResult:
    prompt = next((p for p in PROMPTS if p.name == name), None)
    if prompt is None:
        raise NotFound(f"No prompt {name!r}; the prompts are {', '.join(p.name for p in PROMPTS)}.")
    missing = [a.name for a in prompt.arguments if a.required and not arguments.get(a.name)]
    if missing:
        raise InvalidInput.single(["arguments", missing[0]], f"The prompt {name} needs {', '.join(missing)}.", "missing")
    if name == "plan_a_stay":
        window = ""
        if arguments.get("from_date") or arguments.get("to_date"):
            window = f" between {arguments.get('from_date') or 'now'} and {arguments.get('to_date') or 'the end of the booking window'}"
        nights = f"{arguments['nights']} nights" if arguments.get("nights") else "a stay"
        currency = (
            f" Show prices in {arguments['currency']} too (get_property lists the display currencies); the charge is in EUR."
            if arguments.get("currency")
            else ""
        )
        text = (
            f"I'd like to plan {nights} for {arguments['guests']} guests{window}. "
            "Read get_property (or the property://overview and property://policies resources) first. "
            "Use find_stays to find the cheapest bookable stays, then check_availability for the ones I like, "
            "and show me each total line by line (nights, cleaning, city tax). "
            f"Do not hold any dates until I say which stay I want.{currency}"
        )
    else:
        ages = arguments.get("children_ages")
        children = f", children aged {ages}" if ages else ""
        text = (
            f"Please book {arguments['check_in']} to {arguments['check_out']} for {arguments['guests']} guests{children}. "
            "First call check_availability and show me the price line by line. When I confirm, call create_checkout_link "
            "with an idempotency_key you reuse if you have to retry, and give me its checkout_url: I pay and enter my "
            "details on that page. If I change my mind before paying, call release_hold."
        )
    return types.GetPromptResult(
        description=prompt.description,
        messages=[types.PromptMessage(role="user", content=types.TextContent(type="text", text=text))],
    )


# --- Completions ---------------------------------------------------------------------------------


COMPLETION_LIMIT = 20


async def complete(ref, argument_name: str, value: str, caller: Caller) -> types.Completion:
    """Values for a prompt argument: the display currencies, and dates (free arrival days from the
    calendar for check_in and from_date; days after the typed check-in for check_out)."""
    if not isinstance(ref, types.PromptReference):
        return types.Completion(values=[], has_more=False)  # a reservation id is a secret: never suggested
    if argument_name == "currency":
        document = await run_operation_async("get_property", {}, caller)
        codes = sorted(document["pricing_rules"]["display_currencies"])
        return _completion([code for code in codes if code.startswith(value.upper())])
    if argument_name in ("check_in", "from_date", "check_out", "to_date"):
        calendar = await run_operation_async("get_calendar", {"months": 3}, caller)
        days = calendar.get("days", [])
        if argument_name in ("check_in", "from_date"):
            candidates = [d["date"] for d in days if d.get("available") and d.get("check_in_allowed", True)]
        else:
            candidates = [d["date"] for d in days if d.get("check_out_allowed")]
        return _completion([day for day in candidates if day.startswith(value)])
    return types.Completion(values=[], has_more=False)


def _completion(values: list[str]) -> types.Completion:
    return types.Completion(values=values[:COMPLETION_LIMIT], total=len(values), has_more=len(values) > COMPLETION_LIMIT)


# --- Server card ---------------------------------------------------------------------------------


def server_card() -> dict:
    """The MCP Server Card of SEP-2127 (draft; schema in modelcontextprotocol/experimental-ext-server-card):
    who the server is and where to connect, not its tools (those are listed at runtime)."""
    from mcp_types.version import SUPPORTED_PROTOCOL_VERSIONS

    host = urlsplit(settings.BASE_URL).hostname or "localhost"
    # Reverse-DNS namespace of the site's host (stay.example.com → com.example.stay); an address stays as it is.
    namespace = host if host.replace(".", "").isdigit() or ":" in host else ".".join(reversed(host.split(".")))
    return {
        "$schema": SERVER_CARD_SCHEMA,
        "name": f"{namespace.replace(':', '-')}/direct-booking",
        "version": SERVER_VERSION,
        "title": "Direct booking",
        "description": "Availability, prices, holds and payment links for a direct-booking rental.",
        "websiteUrl": settings.BASE_URL + MCP_PATH,
        "icons": [icon.model_dump(by_alias=True, exclude_none=True) for icon in icons()],
        "remotes": [{"type": "streamable-http", "url": settings.BASE_URL + MCP_PATH, "supportedProtocolVersions": list(SUPPORTED_PROTOCOL_VERSIONS)}],
    }
