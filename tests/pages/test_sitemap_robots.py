"""/sitemap.xml lists every public page and article with absolute URLs; /robots.txt points to it."""

import xml.etree.ElementTree as ET
from urllib.parse import urlsplit

import pytest
from django.conf import settings
from django.urls import Resolver404, resolve
from django.utils import translation

from pages.i18n import language_of_path

NS = {"sm": "http://www.sitemaps.org/schemas/sitemap/0.9"}


def sitemap_entries(client) -> dict[str, str | None]:
    answer = client.get("/sitemap.xml")
    assert answer.status_code == 200
    root = ET.fromstring(answer.content)
    return {url.findtext("sm:loc", namespaces=NS): url.findtext("sm:lastmod", namespaces=NS) for url in root.findall("sm:url", NS)}


def test_the_sitemap_lists_every_public_page_and_published_article(client, site):
    entries = sitemap_entries(client)
    base = settings.BASE_URL
    expected_pages = [
        "/",
        "/penthouse-florence",
        "/availability",
        "/book",
        "/reviews",
        "/location",
        "/faq",
        "/booking-policies",
        "/contact",
        "/blog",
        "/api",
        "/mcp",
        "/agents",
    ]
    for path in expected_pages:
        assert base + path in entries, path
    for slug in ["three-slow-days-in-florence", "santa-croce-neighbourhood-guide", "arriving-in-florence"]:
        assert f"{base}/blog/{slug}" in entries
    assert f"{base}/blog/florence-in-winter" not in entries, "drafts stay out"
    assert f"{base}/thank-you" not in entries, "a personal page is not for search engines"


def test_every_sitemap_entry_has_a_lastmod_date(client, site):
    for loc, lastmod in sitemap_entries(client).items():
        assert lastmod and len(lastmod) == 10 and lastmod[4] == "-", loc


def test_sitemap_urls_come_from_base_url_not_the_request_host(client, site, settings):
    settings.BASE_URL = "https://stay.example.org"
    entries = sitemap_entries(client)
    assert all(loc.startswith("https://stay.example.org/") for loc in entries)


def test_every_url_in_the_sitemap_answers_200(client, site):
    for loc in sitemap_entries(client):
        path = urlsplit(loc).path
        try:
            with translation.override(language_of_path(path)):  # /it/… resolves in Italian
                resolve(path)
        except Resolver404:
            pytest.fail(f"{path} is listed in the sitemap but not routed")
        answer = client.get(path)
        assert answer.status_code == 200, f"{loc} answered {answer.status_code}"


def test_robots_txt_welcomes_crawlers_and_agents_and_names_the_sitemap(client, site):
    answer = client.get("/robots.txt")
    assert answer.status_code == 200
    assert answer["Content-Type"] == "text/plain; charset=utf-8"
    text = answer.content.decode()
    lines = text.splitlines()
    assert f"Sitemap: {settings.BASE_URL}/sitemap.xml" in lines
    assert "User-agent: *" in lines
    assert "Allow: /" in lines
    for agent in ["GPTBot", "ClaudeBot", "PerplexityBot", "Google-Extended"]:
        assert f"User-agent: {agent}" in lines
    assert f"Disallow: /{settings.ADMIN_PATH}" in lines
    assert "Disallow: /" not in lines, "nothing blocks the whole site"


def test_robots_txt_follows_a_custom_admin_path(client, site, settings):
    settings.ADMIN_PATH = "back-office-7f3a/"
    assert "Disallow: /back-office-7f3a/" in client.get("/robots.txt").content.decode().splitlines()
