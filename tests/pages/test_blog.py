"""The journal: only published articles whose date has come are public; slugs are validated."""

from datetime import timedelta

import pytest
from django.utils import timezone

from pages.models import BlogPost


def article(slug: str, **fields) -> BlogPost:
    defaults = {
        "title": slug.replace("-", " ").title(),
        "summary": "A summary.",
        "body": "Some *text*.",
        "status": BlogPost.Status.PUBLISHED,
        "published_at": timezone.now() - timedelta(days=1),
    }
    return BlogPost.objects.create(slug=slug, **{**defaults, **fields})


def test_a_published_article_is_shown_and_listed(client, site):
    article("bridges-of-florence", title="The bridges of Florence", body="Ponte Vecchio survived **1944**.")
    page = client.get("/blog/bridges-of-florence").content.decode()
    assert "<h1>The bridges of Florence</h1>" in page
    assert "<strong>1944</strong>" in page
    assert 'href="/blog/bridges-of-florence"' in client.get("/blog").content.decode()


def test_a_draft_is_not_found_and_not_listed(client, site):
    article("half-written", status=BlogPost.Status.DRAFT)
    assert client.get("/blog/half-written").status_code == 404
    assert "half-written" not in client.get("/blog").content.decode()
    assert "half-written" not in client.get("/sitemap.xml").content.decode()


def test_an_article_scheduled_for_later_is_not_public_yet(client, site):
    article("next-week", published_at=timezone.now() + timedelta(days=7))
    assert client.get("/blog/next-week").status_code == 404
    assert "next-week" not in client.get("/blog").content.decode()


def test_an_unknown_slug_is_the_html_404_page(client, site):
    answer = client.get("/blog/no-such-article")
    assert answer.status_code == 404
    assert answer["Content-Type"].startswith("text/html")


@pytest.mark.parametrize("slug", ["bad%20slug", "semi;colon", "%C3%A9t%C3%A9", "a" * 201, "dots.in.slug"])
def test_an_invalid_slug_is_a_422_with_the_validation_body(client, site, slug):
    answer = client.get(f"/blog/{slug}")
    assert answer.status_code == 422
    assert answer["Content-Type"] == "application/json"
    body = answer.json()
    assert list(body) == ["detail"]
    [item] = body["detail"]
    assert item["loc"] == ["path", "slug"]
    assert isinstance(item["msg"], str) and item["msg"]
    assert isinstance(item["type"], str) and item["type"]


def test_a_slug_of_exactly_200_allowed_characters_is_valid(client, site):
    assert client.get("/blog/" + "a" * 200).status_code == 404


def test_the_journal_has_at_least_three_published_demo_articles(client, site):
    public = BlogPost.objects.public()
    assert public.count() >= 3
    for post in public:
        page = client.get(post.get_absolute_url())
        assert page.status_code == 200
        assert len(post.body.split()) > 300, "real articles, not placeholders"
