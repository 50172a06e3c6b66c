"""What search engines and link previews read: titles, canonical URLs and schema.org JSON-LD.

JSON-LD is built here, in Python, from the same property JSON the API serves (booking.api.presenters),
so structured data can never drift from what guests and agents see. Templates only emit it.
"""

import logging
from dataclasses import dataclass, field
from functools import cached_property

from django.conf import settings
from django.core.files.storage import default_storage
from django.db import DatabaseError
from django.utils import timezone

from booking.catalog import images
from booking.catalog.selectors import get_property
from booking.errors import NotFound

logger = logging.getLogger(__name__)

SCHEMA = "https://schema.org"


def absolute(path: str) -> str:
    """An absolute URL on this site. Already absolute URLs are returned unchanged."""
    if path.startswith(("http://", "https://")):
        return path
    return settings.BASE_URL + (path if path.startswith("/") else "/" + path)


def share_image(prop) -> str:
    """Site-relative URL of the property's 1200×630 share image: its first uploaded photo cropped to
    fit, or (with only the demo's SVG illustrations) its name and headline on the site's colours.
    Made once and stored under MEDIA_ROOT (booking.catalog.images.share_image_for); a page view checks that
    the file exists."""
    photo = prop.photos.exclude(image="").first()
    return default_storage.url(images.share_image_for(prop, photo))


def is_share_image(url: str) -> bool:
    return url.startswith(settings.MEDIA_URL + "share/")


RASTER_SUFFIXES = (".jpg", ".jpeg", ".png", ".webp")


def share_image_of(url: str) -> str:
    """An uploaded raster picture (a cover) as a share image; "" for anything else (an SVG)."""
    if not (url.startswith(settings.MEDIA_URL) and url.lower().endswith(RASTER_SUFFIXES)):
        return ""
    name = url.removeprefix(settings.MEDIA_URL)
    if not default_storage.exists(name):
        return ""
    try:
        return default_storage.url(images.share_image_of_file(name))
    except images.UnreadableImage:
        return ""


@dataclass
class PageMeta:
    """Per-page title, description and sharing data, used by templates/base.html.

    `image` is what the page is shared with. Link previews want a JPEG or PNG of 1200×630, never an
    SVG: an uploaded picture (an article's cover) is cropped to a share image, and anything else (an
    SVG cover, no picture) gives way to the property's share image."""

    title: str
    description: str
    path: str
    image: str = ""
    og_type: str = "website"
    noindex: bool = False
    json_ld: list[dict] = field(default_factory=list)
    image_width = images.SHARE_SIZE[0]
    image_height = images.SHARE_SIZE[1]
    image_type = "image/jpeg"

    @property
    def canonical(self) -> str:
        return absolute(self.path)

    @cached_property
    def image_url(self) -> str:
        if is_share_image(self.image):
            return absolute(self.image)
        try:
            return absolute(share_image_of(self.image) or share_image(get_property()))
        except NotFound:  # nothing to show before the owner sets the property up
            return ""
        except (DatabaseError, OSError):
            # A preview image never takes a page down with it.
            logger.exception("no share image for %s", self.path)
            return ""


def coordinate(value: float) -> float:
    """Five decimals: about a metre, as precise as a front door needs."""
    return round(float(value), 5)


def vacation_rental(prop: dict, *, path: str | None = None) -> dict:
    """schema.org VacationRental for the property, from presenters.property_json; its URL is the
    property's page, /{slug} (the English one, as the API's `url`), unless a path is given."""
    path = path or f"/{prop['id']}"
    address = prop["address"]
    capacity = prop["capacity"]
    reviews = prop["reviews"]
    policies = prop["policies"]
    amenities = [{"@type": "LocationFeatureSpecification", "name": amenity["name"], "value": True} for amenity in prop["amenities"]]
    accommodation = {
        "@type": "Accommodation",
        "additionalType": "EntirePlace",
        "name": prop["name"],
        "occupancy": {"@type": "QuantitativeValue", "maxValue": capacity["max_guests"]},
        "numberOfBedrooms": capacity["bedrooms"],
        "numberOfBathroomsTotal": capacity["bathrooms"],
        "amenityFeature": amenities,
    }
    if capacity.get("size_sqm"):
        accommodation["floorSize"] = {"@type": "QuantitativeValue", "value": capacity["size_sqm"], "unitCode": "MTK"}
    latitude = coordinate(prop["coordinates"]["latitude"])
    longitude = coordinate(prop["coordinates"]["longitude"])
    rental = {
        "@context": SCHEMA,
        "@type": "VacationRental",
        "@id": absolute(path) + "#rental",
        "identifier": prop["id"],
        "name": prop["name"],
        "description": prop["summary"] or prop["headline"],
        "url": absolute(path),
        "image": [photo["url"] for photo in prop["photos"]],
        "address": {
            "@type": "PostalAddress",
            "streetAddress": address["street_address"],
            "addressLocality": address["city"],
            "postalCode": address["postal_code"],
            "addressRegion": address["region"],
            "addressCountry": address["country_code"],
        },
        "geo": {"@type": "GeoCoordinates", "latitude": latitude, "longitude": longitude},
        # Google's VacationRental guide reads the coordinates at the top level as well.
        "latitude": latitude,
        "longitude": longitude,
        "containsPlace": accommodation,
        "amenityFeature": amenities,
        "checkinTime": policies["check_in_from"],
        "checkoutTime": policies["check_out_until"],
    }
    if prop.get("national_code"):
        # The CIN, which Italian law asks on every advertisement. `identifier` stays the listing's id
        # (Google's VacationRental guide wants one text there); the code is a PropertyValue.
        rental["additionalProperty"] = [
            {"@type": "PropertyValue", "propertyID": "CIN", "name": "Codice Identificativo Nazionale", "value": prop["national_code"]}
        ]
    if prop["host"]["languages"]:
        rental["knowsLanguage"] = prop["host"]["languages"]
    if reviews["count"]:
        rental["aggregateRating"] = {
            "@type": "AggregateRating",
            "ratingValue": reviews["average_rating"],
            "ratingCount": reviews["count"],
            "reviewCount": reviews["count"],
            "bestRating": 5,
            "worstRating": 1,
        }
        rental["review"] = [
            {
                "@type": "Review",
                "author": {"@type": "Person", "name": review["author"]},
                "datePublished": review["date"],
                "reviewBody": review["text"],
                "reviewRating": {"@type": "Rating", "ratingValue": review["rating"], "bestRating": 5, "worstRating": 1},
                "publisher": {"@type": "Organization", "name": review["source"]},
            }
            for review in reviews["items"]
        ]
    return rental


def website(site_name: str) -> dict:
    return {"@context": SCHEMA, "@type": "WebSite", "name": site_name, "url": absolute("/")}


def faq_page(entries, render_answer) -> dict:
    """schema.org FAQPage. `render_answer` turns an entry's Markdown into the HTML shown on the page."""
    return {
        "@context": SCHEMA,
        "@type": "FAQPage",
        "mainEntity": [
            {
                "@type": "Question",
                "name": entry.question,
                "acceptedAnswer": {"@type": "Answer", "text": str(render_answer(entry.answer))},
            }
            for entry in entries
        ],
    }


def blog_posting(post, *, author_name: str, publisher_name: str) -> dict:
    url = absolute(post.get_absolute_url())
    posting = {
        "@context": SCHEMA,
        "@type": "BlogPosting",
        "@id": url + "#article",
        "mainEntityOfPage": {"@type": "WebPage", "@id": url},
        "headline": post.title[:110],
        "description": post.summary,
        "url": url,
        "datePublished": timezone.localtime(post.published_at).isoformat(),
        "dateModified": timezone.localtime(max(post.updated_at, post.published_at)).isoformat(),
        "author": {"@type": "Person", "name": post.author or author_name},
        "publisher": {"@type": "Organization", "name": publisher_name, "url": absolute("/")},
        "inLanguage": "en",
    }
    if post.cover_url:
        posting["image"] = absolute(post.cover_url)
    return posting


def breadcrumbs(*crumbs: tuple[str, str]) -> dict:
    """schema.org BreadcrumbList from (name, path) pairs, home first."""
    return {
        "@context": SCHEMA,
        "@type": "BreadcrumbList",
        "itemListElement": [
            {"@type": "ListItem", "position": index, "name": name, "item": absolute(path)} for index, (name, path) in enumerate(crumbs, start=1)
        ],
    }
