"""Every page of spec 4.2 that the website serves answers, with the right type, and no input makes it fail."""

import pytest

from tests.pages.conftest import SITE_PAGES

HTML_PAGES = SITE_PAGES


@pytest.mark.parametrize("path", HTML_PAGES)
def test_each_page_answers_200_html(client, site, path):
    answer = client.get(path)
    assert answer.status_code == 200
    assert answer["Content-Type"] == "text/html; charset=utf-8"
    body = answer.content.decode()
    assert body.lstrip().startswith("<!doctype html>")
    assert '<html lang="en">' in body


@pytest.mark.parametrize("path", HTML_PAGES)
def test_each_page_answers_head(client, site, path):
    answer = client.head(path)
    assert answer.status_code == 200


def test_sitemap_is_xml_and_robots_is_plain_text(client, site):
    assert client.get("/sitemap.xml")["Content-Type"] == "application/xml"
    assert client.get("/robots.txt")["Content-Type"] == "text/plain; charset=utf-8"


def test_every_page_links_the_agent_pages_in_its_footer(client, site):
    body = client.get("/faq").content.decode()
    footer = body[body.index('<footer class="site-footer">') :]
    for path in ["/api", "/mcp", "/agents"]:
        assert f'href="{path}"' in footer


def test_an_unknown_page_is_the_sites_404_page(client, site):
    answer = client.get("/no-such-page")
    assert answer.status_code == 404
    assert answer["Content-Type"] == "text/html; charset=utf-8"
    assert "We couldn't find that page" in answer.content.decode()
    assert '<meta name="robots" content="noindex">' in answer.content.decode()


def test_a_trailing_slash_redirects_to_the_page(client, site):
    answer = client.get("/faq/")
    assert answer.status_code == 301
    assert answer["Location"] == "/faq"
    assert client.get("/blog/")["Location"] == "/blog"


def test_pages_refuse_other_methods_without_failing(client, site):
    assert client.post("/faq").status_code == 405
    assert client.delete("/book").status_code == 405


@pytest.mark.parametrize(
    "query",
    [
        "?page=abc",
        "?page=999",
        "?page=-1",
        "?check_in=2020-01-01&check_out=x&guests=999",
        "?check_in=" + "9" * 500,
        "?reservation_id=%00",
        "?sent=1",
    ],
)
def test_odd_query_strings_never_break_a_page(client, site, query):
    for path in ["/blog", "/book", "/availability", "/thank-you", "/contact"]:
        assert client.get(path + query).status_code == 200, path + query


def test_before_a_property_exists_the_site_says_so_instead_of_failing(client, db):
    answer = client.get("/")
    assert answer.status_code == 503
    assert "almost ready" in answer.content.decode()


def test_the_home_page_reads_the_database_a_bounded_number_of_times(client, site, django_assert_max_num_queries):
    client.get("/")  # warm the pricing-rules cache, as any running process has
    with django_assert_max_num_queries(12):
        assert client.get("/").status_code == 200


def test_uploaded_files_are_served_from_media_root_and_nothing_outside_it(client, site, settings, tmp_path):
    media = tmp_path / "media"
    (media / "blog").mkdir(parents=True)
    (media / "blog" / "cover.txt").write_text("a cover")
    settings.MEDIA_ROOT = str(media)
    (tmp_path / "secret.txt").write_text("secret")
    assert client.get("/media/blog/cover.txt").status_code == 200
    assert client.get("/media/../secret.txt").status_code == 404
    assert client.get("/media/%2e%2e/secret.txt").status_code == 404


def test_an_unreachable_database_is_a_503_page_not_a_crash(client, site, monkeypatch):
    from django.db import OperationalError

    import pages.views

    def database_down():
        raise OperationalError("connection refused")

    monkeypatch.setattr(pages.views, "get_property", database_down)
    monkeypatch.setattr("pages.context_processors.get_property", database_down)
    answer = client.get("/penthouse-florence")
    assert answer.status_code == 503
    assert "back in a moment" in answer.content.decode()
