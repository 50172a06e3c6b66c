"""MCP beyond tools, with the official client against a live server: resources an agent reads into
its context (the property, its policies, location and FAQ as markdown, a reservation by id),
prompts a person picks in their client, completions for prompt arguments, icons, and the server
card of the MCP discovery draft (SEP-2127)."""

import mcp_types as types
import pytest
import requests
from mcp import Client
from mcp.shared.exceptions import MCPError

from tests.agents.conftest import TIMEOUT, first_free_stay, rest, run

pytestmark = pytest.mark.live


def mcp_url(live_url: str) -> str:
    return live_url + "/mcp"


def test_the_server_offers_resources_prompts_completions_and_an_icon(live_url):
    async def connect():
        async with Client(mcp_url(live_url)) as client:
            return client.server_capabilities, client.server_info

    capabilities, info = run(connect)
    assert capabilities.resources is not None and capabilities.prompts is not None and capabilities.completions is not None
    assert info.icons and info.icons[0].src.endswith("/static/img/favicon.svg")


def test_property_resources_are_markdown_from_the_same_document_as_get_property(live_url):
    from pages import demo

    demo.load()  # the FAQ

    async def read_all():
        async with Client(mcp_url(live_url)) as client:
            listed = (await client.list_resources()).resources
            return listed, {r.uri: (await client.read_resource(str(r.uri))).contents for r in listed}

    listed, contents = run(read_all)
    assert [str(r.uri) for r in listed] == ["property://overview", "property://policies", "property://location", "property://faq"]
    assert all(r.mime_type == "text/markdown" and r.title and r.description for r in listed)
    document = rest(live_url, "GET", "/api/v1/property").json()
    overview = contents["property://overview"][0].text
    assert overview.startswith(f"# {document['name']}") and f"Up to {document['capacity']['max_guests']} guests" in overview
    policies = contents["property://policies"][0].text
    assert document["policies"]["cancellation_policy"] in policies and document["policies"]["house_rules"][0] in policies
    assert f"Check-in from {document['policies']['check_in_from']}" in policies
    terms = document["payment_terms"]  # the payment section says the owner's terms, as get_property gives them
    assert document["policies"]["payment_policy"] in policies and f"deposit of {terms['deposit_percent']}% of the total" in policies
    assert "The full amount is paid when you book" not in policies
    assert document["address"]["street_address"] in contents["property://location"][0].text
    assert "## " in contents["property://faq"][0].text  # one heading per question


def test_a_reservation_is_a_resource_by_its_id(live_url):
    created = rest(live_url, "POST", "/api/v1/payments/checkout-link", first_free_stay(live_url)).json()

    async def read():
        async with Client(mcp_url(live_url)) as client:
            templates = (await client.list_resource_templates()).resource_templates
            return templates, (await client.read_resource(f"reservation://{created['reservation_id']}")).contents[0].text

    templates, text = run(read)
    assert [t.uri_template for t in templates] == ["reservation://{reservation_id}"]
    assert text.startswith(f"# Reservation {created['reservation_id']}") and "Status: held" in text
    assert created["checkout_url"] in text


@pytest.mark.parametrize("uri", ["reservation://res_does_not_exist", "property://nothing"])
def test_an_unknown_resource_is_an_invalid_params_error_with_the_rest_body(live_url, uri):
    async def read():
        async with Client(mcp_url(live_url)) as client:
            with pytest.raises(MCPError) as raised:
                await client.read_resource(uri)
            return raised.value

    error = run(read)
    assert error.error.code == -32602 and error.error.data["status"] == 404


def test_prompts_guide_the_agent_through_the_tools(live_url):
    async def prompts():
        async with Client(mcp_url(live_url)) as client:
            listed = (await client.list_prompts()).prompts
            plan = await client.get_prompt("plan_a_stay", {"guests": "4", "nights": "5", "currency": "USD"})
            book = await client.get_prompt("book_these_dates", {"check_in": "2027-05-03", "check_out": "2027-05-07", "guests": "3", "children_ages": "5, 9"})
            with pytest.raises(MCPError) as missing:
                await client.get_prompt("book_these_dates", {"check_in": "2027-05-03"})
            return listed, plan, book, missing.value

    listed, plan, book, missing = run(prompts)
    assert [p.name for p in listed] == ["plan_a_stay", "book_these_dates"]
    plan_text = plan.messages[0].content.text
    assert plan.messages[0].role == "user" and "5 nights for 4 guests" in plan_text and "find_stays" in plan_text and "USD" in plan_text
    book_text = book.messages[0].content.text
    assert "2027-05-03 to 2027-05-07 for 3 guests, children aged 5, 9" in book_text
    assert "idempotency_key" in book_text and "release_hold" in book_text
    assert missing.error.code == -32602 and "check_out" in missing.error.message


def test_completions_offer_currencies_and_free_arrival_dates(live_url):
    stay = first_free_stay(live_url)

    async def complete():
        async with Client(mcp_url(live_url)) as client:
            prompt = types.PromptReference(type="ref/prompt", name="plan_a_stay")
            currencies = await client.complete(prompt, {"name": "currency", "value": "U"})
            dates = await client.complete(
                types.PromptReference(type="ref/prompt", name="book_these_dates"), {"name": "check_in", "value": stay["check_in"][:7]}
            )
            secret = await client.complete(
                types.ResourceTemplateReference(type="ref/resource", uri="reservation://{reservation_id}"), {"name": "reservation_id", "value": "res_"}
            )
            return currencies.completion, dates.completion, secret.completion

    currencies, dates, secret = run(complete)
    assert currencies.values == ["USD"]
    calendar = rest(live_url, "GET", "/api/v1/calendar", {"months": 3}).json()["days"]
    free_arrivals = {d["date"] for d in calendar if d["available"] and d["check_in_allowed"]}
    assert dates.values and set(dates.values) <= free_arrivals and all(v.startswith(stay["check_in"][:7]) for v in dates.values)
    assert secret.values == []  # reservation ids are capabilities: never suggested


@pytest.mark.parametrize("path", ["/.well-known/mcp/server-card.json", "/mcp/server-card"])
def test_the_server_card_says_who_the_server_is_and_where_to_connect(live_url, path):
    response = requests.get(live_url + path, timeout=TIMEOUT)
    assert response.status_code == 200 and response.headers["Content-Type"].startswith("application/json")
    assert response.headers["Access-Control-Allow-Origin"] == "*" and "max-age" in response.headers["Cache-Control"]
    card = response.json()
    assert card["$schema"] == "https://static.modelcontextprotocol.io/schemas/v2/server-card.schema.json"
    assert card["name"].endswith("/direct-booking") and card["version"] == "1.0.0" and 0 < len(card["description"]) <= 100
    [remote] = card["remotes"]
    assert remote["type"] == "streamable-http" and remote["url"].endswith("/mcp") and remote["supportedProtocolVersions"]
    asked = requests.get(live_url + path, headers={"Accept": "application/mcp-server-card+json"}, timeout=TIMEOUT)
    assert asked.headers["Content-Type"] == "application/mcp-server-card+json"


def test_the_catalog_points_at_the_card(live_url):
    catalog = requests.get(live_url + "/.well-known/mcp/catalog.json", timeout=TIMEOUT).json()
    [entry] = catalog["entries"]
    assert catalog["specVersion"] == "draft" and entry["type"] == "application/mcp-server-card+json"
    assert requests.get(entry["url"], timeout=TIMEOUT).json()["name"].endswith("/direct-booking")
