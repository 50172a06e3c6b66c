"""The discovery files (llms.txt, ai-plugin.json) and the pages for agent developers (/api, /mcp,
/agents): generated from the live configuration, with absolute URLs from BASE_URL, and every link
an agent follows resolves."""

import re

import pytest
import requests

from tests.agents.conftest import TIMEOUT, TOOL_NAMES

LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")


def parse_llms_txt(text: str) -> dict:
    """The llms.txt structure (llmstxt.org): an H1, a > summary, then H2 sections of link lists."""
    lines = text.splitlines()
    assert lines[0].startswith("# "), lines[0]
    summary = next(line for line in lines[1:] if line.strip())  # the first block after the H1
    assert summary.startswith("> "), summary
    sections, current = {}, None
    for line in lines:
        if line.startswith("## "):
            current = sections.setdefault(line[3:].strip(), [])
        elif current is not None and line.startswith("- "):
            match = LINK.match(line[2:])
            assert match, f"a list item of a section is a link: {line!r}"
            current.append((match[1], match[2], line))
    return {"title": lines[0][2:], "summary": summary[2:], "sections": sections, "text": text}


@pytest.mark.live
class TestLlmsTxt:
    def test_both_paths_serve_the_same_plain_text_for_get_and_head(self, live_url):
        root = requests.get(live_url + "/llms.txt", timeout=TIMEOUT)
        well_known = requests.get(live_url + "/.well-known/llms.txt", timeout=TIMEOUT)
        head = requests.head(live_url + "/llms.txt", timeout=TIMEOUT)
        assert root.status_code == well_known.status_code == head.status_code == 200
        assert root.headers["Content-Type"] == head.headers["Content-Type"] == "text/plain; charset=utf-8"
        assert root.text == well_known.text and head.content == b""
        assert requests.get(live_url + "/llms.txt", headers={"If-None-Match": root.headers["ETag"]}, timeout=TIMEOUT).status_code == 304

    def test_it_gives_the_quick_start_and_the_rule_on_guest_details(self, live_url):
        llms = parse_llms_txt(requests.get(live_url + "/llms.txt", timeout=TIMEOUT).text)
        assert llms["title"].endswith("direct booking")
        quick_start = [url for _, url, _ in llms["sections"]["Quick start"]]
        assert quick_start[0] == live_url + "/api/v1/property"
        assert quick_start[1].startswith(live_url + "/api/v1/availability?check_in=")
        booking_step = llms["sections"]["Quick start"][2][2]
        assert "payments/checkout-link" in booking_step and "/api/v1/reservations" in booking_step
        assert "Do NOT collect guest details" in llms["text"] and "checkout_url" in llms["text"]
        interfaces = {url for _, url, _ in llms["sections"]["Interfaces"]}
        assert {live_url + "/api/openapi.json", live_url + "/mcp", live_url + "/.well-known/agent-card.json"} <= interfaces
        assert all(name in llms["text"] for name in TOOL_NAMES)

    def test_every_link_is_absolute_and_resolves(self, live_url):
        llms = parse_llms_txt(requests.get(live_url + "/llms.txt", timeout=TIMEOUT).text)
        links = [url for section in llms["sections"].values() for _, url, _ in section]
        assert len(links) >= 12
        for url in links:
            assert url.startswith(live_url + "/"), url
            answer = requests.get(url, timeout=TIMEOUT)
            assert answer.status_code == 200, (url, answer.status_code)


@pytest.mark.live
class TestAiPlugin:
    def test_the_manifest_has_every_field_and_points_to_the_openapi_document(self, live_url):
        manifest = requests.get(live_url + "/.well-known/ai-plugin.json", timeout=TIMEOUT).json()
        assert {
            "schema_version",
            "name_for_human",
            "name_for_model",
            "description_for_human",
            "description_for_model",
            "auth",
            "api",
            "logo_url",
            "contact_email",
            "legal_info_url",
        } <= set(manifest)
        assert manifest["schema_version"] == "v1" and manifest["auth"] == {"type": "none"}
        assert len(manifest["name_for_human"]) <= 20 and re.fullmatch(r"[a-z_]{1,50}", manifest["name_for_model"])
        assert len(manifest["description_for_human"]) <= 100 and "checkout-link" in manifest["description_for_model"]
        assert manifest["api"]["type"] == "openapi" and manifest["api"]["url"] == live_url + "/.well-known/openapi.json"
        document = requests.get(manifest["api"]["url"], timeout=TIMEOUT).json()
        assert document["openapi"].startswith("3.") and document["info"]["version"] == "1.0.0"
        for key in ("logo_url", "legal_info_url"):
            assert manifest[key].startswith(live_url) and requests.get(manifest[key], timeout=TIMEOUT).status_code == 200, key
        assert "@" in manifest["contact_email"]


@pytest.mark.django_db
class TestPagesForDevelopers:
    def test_the_api_page_explains_the_quick_start_with_curl_examples(self, client, demo_property, settings):
        page = client.get("/api")
        assert page.status_code == 200 and page["Content-Type"].startswith("text/html")
        html = page.content.decode()
        assert '<main id="main"' in html and "<title>Booking API for agents and developers" in html
        assert f"curl {settings.BASE_URL}/api/v1/property" in html
        assert f"curl -X POST {settings.BASE_URL}/api/v1/payments/checkout-link" in html
        assert f'href="{settings.BASE_URL}/api/openapi.json"' in html
        assert html.index("/api/v1/property") < html.index("/api/v1/availability?") < html.index("/api/v1/payments/checkout-link")
        assert "Do not collect guest details before payment" in html

    def test_the_mcp_page_says_how_to_connect_and_lists_the_tools(self, client, demo_property, settings):
        html = client.get("/mcp").content.decode()
        assert f"{settings.BASE_URL}/mcp" in html and "Streamable HTTP" in html
        assert [name for name in re.findall(r'id="tool-([a-z_]+)"', html)] == TOOL_NAMES

    def test_the_mcp_page_has_a_snippet_for_each_client_in_its_own_format(self, client, demo_property, settings):
        import html as entities

        page = entities.unescape(client.get("/mcp").content.decode())
        url = f"{settings.BASE_URL}/mcp"
        assert "claude mcp add --transport http" in page and url in page
        vscode = page[page.index('id="connect-vscode"') : page.index('id="connect-cursor"')]
        assert '"servers"' in vscode and '"mcpServers"' not in vscode  # VS Code reads "servers"
        cursor = page[page.index('id="connect-cursor"') : page.index('id="connect-inspector"')]
        assert '"mcpServers"' in cursor
        assert f"npx @modelcontextprotocol/inspector --cli {url} --transport http --method tools/list" in page

    def test_the_agents_page_lists_every_way_in(self, client, demo_property, settings):
        html = client.get("/agents").content.decode()
        for way in ('id="rest"', 'id="mcp"', 'id="a2a"', 'id="plugin"'):
            assert way in html
        for path in (
            "/llms.txt",
            "/api/openapi.json",
            "/.well-known/openapi.json",
            "/.well-known/agent-card.json",
            "/.well-known/ai-plugin.json",
            "/sitemap.xml",
            "/robots.txt",
        ):
            assert f'href="{settings.BASE_URL}{path}"' in html, path

    def test_the_discovery_files_work_before_any_property_exists(self, client, db):
        # A fresh install: no property yet. Nothing crashes; the files say what they can.
        assert client.get("/llms.txt").status_code == 200
        assert client.get("/.well-known/ai-plugin.json").json()["auth"] == {"type": "none"}
        assert client.get("/.well-known/agent-card.json").json()["name"] == "Direct booking"


def test_older_a2a_clients_find_the_card_at_agent_json(client, demo_property):
    assert client.get("/.well-known/agent.json").json() == client.get("/.well-known/agent-card.json").json()


def test_agents_read_the_ucp_profile_and_section_in_llms_txt_and_the_agents_page(client, demo_property):
    llms = client.get("/llms.txt").content.decode()
    assert "/.well-known/ucp" in llms and "create_booking_session" in llms and "continue_url" in llms and "TRUSTED_RETURN_HOSTS" in llms
    agents = client.get("/agents").content.decode()
    assert 'id="ucp"' in agents and "/ucp/v1/booking-sessions" in agents and "continue_url" in agents
    assert "create_booking_session" in client.get("/mcp", HTTP_ACCEPT="text/html").content.decode()
