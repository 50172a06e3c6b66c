"""Markdown written by the owner, turned into HTML that is safe to put in a page.

One function does both steps, so no template can render Markdown without sanitising it: an admin
account that is phished, or text pasted from elsewhere, must not be able to run script on the site.
"""

import markdown as markdown_lib
import nh3
from django.utils.safestring import SafeString, mark_safe

ALLOWED_TAGS = {
    "a",
    "abbr",
    "blockquote",
    "br",
    "code",
    "dd",
    "del",
    "dl",
    "dt",
    "em",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "hr",
    "img",
    "li",
    "ol",
    "p",
    "pre",
    "strong",
    "sub",
    "sup",
    "table",
    "tbody",
    "td",
    "th",
    "thead",
    "tr",
    "ul",
}
ALLOWED_ATTRIBUTES = {
    "a": {"href", "title"},
    "abbr": {"title"},
    "img": {"src", "alt", "title", "width", "height", "loading"},
    "td": {"align"},
    "th": {"align", "scope"},
}
# No javascript:, data: or vbscript: links; relative links (/faq, #section) stay allowed.
ALLOWED_URL_SCHEMES = {"http", "https", "mailto", "tel"}


def render_markdown(text: str) -> SafeString:
    """Markdown → sanitised HTML. Only the tags above survive; every on* attribute, <script>,
    <style>, <iframe> and non-http(s)/mailto/tel URL is removed."""
    if not text:
        return mark_safe("")
    html = markdown_lib.markdown(text, extensions=["extra", "sane_lists", "smarty"], output_format="html")
    clean = nh3.clean(
        html,
        tags=ALLOWED_TAGS,
        attributes=ALLOWED_ATTRIBUTES,
        url_schemes=ALLOWED_URL_SCHEMES,
        link_rel="noopener noreferrer",
        strip_comments=True,
    )
    return mark_safe(clean)  # noqa: S308 - sanitised by nh3 just above
