"""What search engines and link previews read, checked field by field against the API's data."""

import pytest
from django.conf import settings
from django.utils import timezone

from pages.models import BlogPost, FaqEntry
from tests.pages.conftest import SITE_PAGES, head, json_ld, json_ld_of_type


@pytest.fixture
def listing(api, site):
    return api.get("/api/v1/property").json()


def test_the_property_is_a_vacation_rental_built_from_the_api_data(client, listing):
    rental = json_ld_of_type(client.get("/penthouse-florence").content.decode(), "VacationRental")
    base = settings.BASE_URL
    assert rental["@context"] == "https://schema.org"
    assert rental["name"] == listing["name"]
    assert rental["url"] == f"{base}/penthouse-florence"
    assert rental["identifier"] == "penthouse-florence"
    assert rental["image"] == [photo["url"] for photo in listing["photos"]]
    assert all(url.startswith(base + "/static/") for url in rental["image"])

    address = rental["address"]
    assert address == {
        "@type": "PostalAddress",
        "streetAddress": "Via dei Pepi 42",
        "addressLocality": "Florence",
        "postalCode": "50122",
        "addressRegion": "Tuscany",
        "addressCountry": "IT",
    }
    assert rental["geo"] == {"@type": "GeoCoordinates", "latitude": 43.76956, "longitude": 11.26243}
    assert (rental["latitude"], rental["longitude"]) == (43.76956, 11.26243)

    place = rental["containsPlace"]
    assert place["@type"] == "Accommodation"
    assert place["occupancy"] == {"@type": "QuantitativeValue", "maxValue": 7}
    assert place["numberOfBedrooms"] == listing["capacity"]["bedrooms"]
    assert place["numberOfBathroomsTotal"] == listing["capacity"]["bathrooms"]
    assert place["floorSize"] == {"@type": "QuantitativeValue", "value": 135, "unitCode": "MTK"}

    features = rental["amenityFeature"]
    assert [f["name"] for f in features] == [a["name"] for a in listing["amenities"]]
    assert all(f["@type"] == "LocationFeatureSpecification" and f["value"] is True for f in features)


def test_the_rental_carries_its_rating_and_dated_reviews(client, listing):
    rental = json_ld_of_type(client.get("/reviews").content.decode(), "VacationRental")
    rating = rental["aggregateRating"]
    assert rating["@type"] == "AggregateRating"
    assert rating["ratingValue"] == listing["reviews"]["average_rating"] == 4.8
    assert rating["reviewCount"] == listing["reviews"]["count"] == 5
    assert (rating["bestRating"], rating["worstRating"]) == (5, 1)
    assert len(rental["review"]) == 5
    first = rental["review"][0]
    source = listing["reviews"]["items"][0]
    assert first["@type"] == "Review"
    assert first["author"] == {"@type": "Person", "name": source["author"]}
    assert first["datePublished"] == source["date"] == "2026-06-14"
    assert first["reviewBody"] == source["text"]
    assert first["reviewRating"]["ratingValue"] == source["rating"]


def test_the_faq_page_is_an_faq_page_of_its_published_entries(client, site):
    FaqEntry.objects.create(question="Hidden?", answer="Not shown.", published=False)
    faq = json_ld_of_type(client.get("/faq").content.decode(), "FAQPage")
    entries = list(FaqEntry.objects.filter(published=True))
    assert [q["name"] for q in faq["mainEntity"]] == [e.question for e in entries]
    first = faq["mainEntity"][0]
    assert first["@type"] == "Question"
    assert first["acceptedAnswer"]["@type"] == "Answer"
    assert "booking policies" in first["acceptedAnswer"]["text"]
    assert "Hidden?" not in [q["name"] for q in faq["mainEntity"]]


def test_an_article_is_a_blog_posting(client, site):
    post = BlogPost.objects.get(slug="arriving-in-florence")
    page = client.get(post.get_absolute_url()).content.decode()
    posting = json_ld_of_type(page, "BlogPosting")
    url = f"{settings.BASE_URL}/blog/arriving-in-florence"
    assert posting["headline"] == post.title
    assert posting["description"] == post.summary
    assert posting["url"] == url
    assert posting["mainEntityOfPage"] == {"@type": "WebPage", "@id": url}
    assert posting["datePublished"] == timezone.localtime(post.published_at).isoformat()
    assert posting["author"] == {"@type": "Person", "name": "Giulia"}
    assert posting["publisher"]["name"] == "Attico Santa Croce"
    assert posting["image"].startswith(settings.BASE_URL + "/static/img/blog/arrival")


def test_inner_pages_carry_a_breadcrumb_trail(client, site):
    trail = json_ld_of_type(client.get("/blog/santa-croce-neighbourhood-guide").content.decode(), "BreadcrumbList")
    items = trail["itemListElement"]
    assert [(i["position"], i["name"], i["item"]) for i in items] == [
        (1, "Home", settings.BASE_URL + "/"),
        (2, "Journal", settings.BASE_URL + "/blog"),
        (3, "Santa Croce: a guide to our neighbourhood", settings.BASE_URL + "/blog/santa-croce-neighbourhood-guide"),
    ]
    location = json_ld_of_type(client.get("/location").content.decode(), "BreadcrumbList")
    assert [i["name"] for i in location["itemListElement"]] == ["Home", "Location"]


@pytest.mark.parametrize("path", [path for path in SITE_PAGES if path != "/thank-you"])  # the thank-you page is not for search
def test_each_page_has_its_own_title_description_canonical_and_open_graph(client, site, path):
    page = head(client.get(path).content.decode())
    canonical = settings.BASE_URL + path
    assert page.links["canonical"] == canonical
    assert page.meta["og:url"] == canonical
    assert page.title.strip() and "Attico Santa Croce" in page.title
    assert 50 <= len(page.meta["description"]) <= 300
    assert page.meta["og:title"] and page.meta["og:description"] == page.meta["description"]
    assert page.meta["og:site_name"] == "Attico Santa Croce"


def test_titles_and_descriptions_differ_between_pages(client, site):
    pages = [head(client.get(path).content.decode()) for path in ["/", "/faq", "/location", "/blog", "/book"]]
    assert len({p.title for p in pages}) == len(pages)
    assert len({p.meta["description"] for p in pages}) == len(pages)


def test_an_article_is_shared_as_an_article_with_its_cover(client, site):
    page = head(client.get("/blog/three-slow-days-in-florence").content.decode())
    assert page.meta["og:type"] == "article"
    # Its cover is an SVG illustration, which link previews do not show: the property's share image.
    assert page.meta["og:image"].startswith(settings.BASE_URL + "/media/share/") and page.meta["og:image"].endswith(".jpg")
    assert page.meta["article:published_time"]


def test_the_thank_you_page_is_not_indexed(client, site):
    assert head(client.get("/thank-you").content.decode()).meta["robots"] == "noindex"


def test_json_ld_cannot_be_closed_by_content(client, site):
    FaqEntry.objects.create(question="</script><script>alert(1)</script>", answer="x", position=0)
    body = client.get("/faq").content.decode()
    assert "</script><script>alert(1)" not in body
    faq = json_ld_of_type(body, "FAQPage")
    assert faq["mainEntity"][0]["name"] == "</script><script>alert(1)</script>"
    assert all(isinstance(item, dict) for item in json_ld(body))
