"""/sitemap.xml: every public page and every published article, with absolute URLs from BASE_URL.

The sites framework is not installed (one property, one site), so the domain and scheme come from
settings.BASE_URL rather than the request: a sitemap fetched through a proxy or by IP still names
the public address.
"""

from dataclasses import dataclass, field
from datetime import datetime
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.sitemaps import Sitemap
from django.db.models import Max
from django.urls import reverse

from booking.catalog.models import Property
from pages.models import BlogPost, FaqEntry, PageKey, PageText

# Public pages in the order a visitor meets them, with the page text that feeds each one.
SITE_PAGES = [
    ("pages:home", PageKey.HOME, "1.0"),
    ("pages:property", PageKey.PROPERTY, "0.9"),
    ("pages:availability", PageKey.AVAILABILITY, "0.9"),
    ("pages:book", PageKey.BOOK, "0.9"),
    ("pages:reviews", PageKey.REVIEWS, "0.7"),
    ("pages:location", PageKey.LOCATION, "0.7"),
    ("pages:faq", PageKey.FAQ, "0.6"),
    ("pages:booking-policies", PageKey.BOOKING_POLICIES, "0.6"),
    ("pages:contact", PageKey.CONTACT, "0.5"),
    ("pages:blog", PageKey.BLOG, "0.6"),
    ("pages:privacy", PageKey.PRIVACY, "0.3"),
]
# The pages for AI agents and developers (built in discovery/): generated from the live
# configuration, so they change when the property does.
AGENT_PAGES = ["/api", "/mcp", "/agents"]


@dataclass(frozen=True)
class Entry:
    path: str  # a URL name of pages/urls.py for the translated pages, a plain path otherwise
    lastmod: datetime | None
    priority: str
    kwargs: dict = field(default_factory=dict)  # the URL's arguments: the property's page is at its slug


class BaseUrlSitemap(Sitemap):
    def get_protocol(self, protocol=None):
        return urlsplit(settings.BASE_URL).scheme or "https"

    def get_domain(self, site=None):
        # A BASE_URL with a path prefix keeps it: the loc is "<scheme>://<domain><path>".
        parts = urlsplit(settings.BASE_URL)
        return parts.netloc + parts.path.rstrip("/")


class TranslatedSitemap(BaseUrlSitemap):
    """Every URL once per language, each listing all languages as xhtml:link alternates (and
    x-default: the English page)."""

    i18n = True
    alternates = True
    x_default = True


class PagesSitemap(TranslatedSitemap):
    changefreq = "weekly"

    def items(self):
        property_changed = Property.objects.aggregate(latest=Max("updated_at"))["latest"]
        texts = dict(PageText.objects.values_list("key", "updated_at"))
        faq_changed = FaqEntry.objects.filter(published=True).aggregate(latest=Max("updated_at"))["latest"]
        blog_changed = BlogPost.objects.public().aggregate(latest=Max("updated_at"))["latest"]
        extra = {PageKey.FAQ: faq_changed, PageKey.BLOG: blog_changed}
        slug = Property.objects.order_by("pk").values_list("slug", flat=True).first()
        entries = []
        for name, key, priority in SITE_PAGES:
            kwargs = {"slug": slug} if key == PageKey.PROPERTY else {}
            if key == PageKey.PROPERTY and slug is None:
                continue  # no property yet: no page of it
            dates = [d for d in (property_changed, texts.get(key), extra.get(key)) if d]
            entries.append(Entry(name, max(dates, default=None), priority, kwargs))
        return entries

    def location(self, item: Entry):
        return reverse(item.path, kwargs=item.kwargs)  # reversed in each language: /faq, /it/faq, /it/{slug}, …

    def lastmod(self, item: Entry):
        return item.lastmod

    def priority(self, item: Entry):
        return item.priority


class AgentPagesSitemap(BaseUrlSitemap):
    """The pages for agents and developers: English only, like the API they describe."""

    changefreq = "weekly"
    priority = "0.5"

    def items(self):
        changed = Property.objects.aggregate(latest=Max("updated_at"))["latest"]
        return [Entry(path, changed, "0.5") for path in AGENT_PAGES]

    def location(self, item: Entry):
        return item.path

    def lastmod(self, item: Entry):
        return item.lastmod


class BlogSitemap(TranslatedSitemap):
    changefreq = "monthly"
    priority = "0.6"

    def items(self):
        written = [f"{field}_{code}" for field in ("title", "body") for code, _name in settings.LANGUAGES]
        return BlogPost.objects.public().only("slug", "updated_at", "published_at", *written)

    def lastmod(self, post: BlogPost):
        return max(post.updated_at, post.published_at)

    def get_languages_for_item(self, post: BlogPost):
        """Only the languages the article is written in: no alternate claims a missing translation."""
        return post.translated_languages()


SITEMAPS = {"pages": PagesSitemap, "agents": AgentPagesSitemap, "blog": BlogSitemap}
