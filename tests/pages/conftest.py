import json
import re
from html.parser import HTMLParser

import pytest

from pages import demo as pages_demo

# Every page of the guest site (English paths; the other languages add their prefix).
SITE_PAGES = [
    "/",
    "/penthouse-florence",
    "/availability",
    "/reviews",
    "/location",
    "/faq",
    "/booking-policies",
    "/book",
    "/contact",
    "/thank-you",
    "/privacy",
    "/blog",
    "/blog/three-slow-days-in-florence",
]


@pytest.fixture
def site(demo_property):
    """The demo property and the demo website content, as `make run` loads them."""
    pages_demo.load()
    return demo_property


def json_ld(html: str) -> list[dict]:
    """Every JSON-LD object of a page, parsed."""
    blocks = re.findall(r'<script type="application/ld\+json">(.*?)</script>', html, flags=re.S)
    return [json.loads(block) for block in blocks]


def json_ld_of_type(html: str, schema_type: str) -> dict:
    found = [item for item in json_ld(html) if item.get("@type") == schema_type]
    assert len(found) == 1, f"expected one {schema_type}, found {len(found)}"
    return found[0]


class HeadParser(HTMLParser):
    """The <title>, <meta> and <link rel> of a page."""

    def __init__(self):
        super().__init__()
        self.title = ""
        self.meta: dict[str, str] = {}
        self.links: dict[str, str] = {}
        self._in_title = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "title":
            self._in_title = True
        elif tag == "meta" and ("name" in attrs or "property" in attrs):
            self.meta[attrs.get("name") or attrs["property"]] = attrs.get("content", "")
        elif tag == "link" and "rel" in attrs:
            self.links[attrs["rel"]] = attrs.get("href", "")

    def handle_endtag(self, tag):
        if tag == "title":
            self._in_title = False

    def handle_data(self, data):
        if self._in_title:
            self.title += data


def head(html: str) -> HeadParser:
    parser = HeadParser()
    parser.feed(html)
    return parser
