"""What search engines and link previews read: titles, canonical URLs and schema.org JSON-LD.

JSON-LD is built here, in Python, from the same property JSON the API serves (booking.presenters),
so structured data can never drift from what guests and agents see. Templates only emit it.
"""

from dataclasses import dataclass, field

from django.conf import settings
from django.utils import timezone

SCHEMA = "https://schema.org"


def absolute(path: str) -> str:
    """An absolute URL on this site. Already absolute URLs are returned unchanged."""
    if path.startswith(("http://", "https://")):
        return path
    return settings.BASE_URL + (path if path.startswith("/") else "/" + path)


@dataclass
class PageMeta:
    """Per-page title, description and sharing data, used by templates/base.html."""

    title: str
    description: str
    path: str
    image: str = ""
    og_type: str = "website"
    noindex: bool = False
    json_ld: list[dict] = field(default_factory=list)

    @property
    def canonical(self) -> str:
        return absolute(self.path)

    @property
    def image_url(self) -> str:
        return absolute(self.image) if self.image else ""


def coordinate(value: float) -> float:
    """Five decimals: about a metre, as precise as a front door needs."""
    return round(float(value), 5)


def vacation_rental(prop: dict, *, path: str = "/penthouse-florence") -> dict:
    """schema.org VacationRental for the property, from presenters.property_json."""
    address = prop["address"]
    capacity = prop["capacity"]
    reviews = prop["reviews"]
    policies = prop["policies"]
    amenities = [
        {"@type": "LocationFeatureSpecification", "name": amenity["name"], "value": True}
        for amenity in prop["amenities"]
    ]
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
            {"@type": "ListItem", "position": index, "name": name, "item": absolute(path)}
            for index, (name, path) in enumerate(crumbs, start=1)
        ],
    }
