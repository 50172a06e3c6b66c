"""Fewer bytes on the wire: HTML and API JSON compressed, public pages revalidated by ETag, and
nothing personal ever marked shareable."""

import gzip

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token

from config.transfer import CompressionMiddleware
from pages.caching import public_page
from pages.models import FaqEntry

GZIP = {"HTTP_ACCEPT_ENCODING": "gzip, deflate, br"}
PUBLIC_PAGES = ["/", "/penthouse-florence", "/reviews", "/location", "/faq", "/booking-policies", "/privacy", "/blog", "/it/", "/de/faq"]


@pytest.mark.parametrize("path", ["/", "/it/faq", "/api/v1/property", "/.well-known/openapi.json"])
def test_html_and_json_are_gzipped_for_a_client_that_accepts_it(client, site, path):
    plain = client.get(path)
    compressed = client.get(path, **GZIP)

    assert compressed.status_code == 200
    assert compressed["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in compressed["Vary"]
    assert gzip.decompress(compressed.content) == plain.content
    assert len(compressed.content) < len(plain.content) / 2


def test_a_client_that_does_not_accept_gzip_gets_the_plain_body(client, site):
    response = client.get("/api/v1/property")

    assert not response.has_header("Content-Encoding")
    assert response.json()["name"]


def test_a_page_with_a_csrf_token_is_compressed_with_djangos_breach_mitigation(client, site):
    # Django randomises the gzip header of every answer (Heal-the-BREACH), so the length of the
    # compressed page does not follow the secret it reflects.
    first = client.get("/contact", **GZIP).content

    assert b"csrfmiddlewaretoken" in gzip.decompress(first)
    assert first[3] & 0x08, "the FNAME flag carries Django's random padding"


def test_an_event_stream_is_never_buffered_by_compression():
    request = HttpRequest()
    request.META["HTTP_ACCEPT_ENCODING"] = "gzip"
    stream = HttpResponse("data: " + "x" * 5000 + "\n\n", content_type="text/event-stream")

    response = CompressionMiddleware(lambda request: stream)(request)

    assert not response.has_header("Content-Encoding")


@pytest.mark.parametrize("path", PUBLIC_PAGES)
def test_public_pages_may_be_kept_a_minute_and_revalidated_by_etag(client, site, path):
    response = client.get(path)

    assert response.status_code == 200
    assert response["Cache-Control"] == "public, max-age=60"
    assert response["ETag"]
    assert "Accept-Language" in response["Vary"], "the page may suggest the browser's language"

    revalidated = client.get(path, HTTP_IF_NONE_MATCH=response["ETag"])
    assert revalidated.status_code == 304
    assert revalidated.content == b""


def test_a_304_repeats_the_etag_the_compressed_200_carried(client, site):
    first = client.get("/.well-known/agent-card.json", **GZIP)
    again = client.get("/.well-known/agent-card.json", HTTP_IF_NONE_MATCH=first["ETag"], **GZIP)

    assert first["ETag"].startswith('W/"')
    assert again.status_code == 304 and again["ETag"] == first["ETag"]


def test_the_etag_changes_when_the_owner_edits_the_content(client, site):
    before = client.get("/faq")["ETag"]
    entry = FaqEntry.objects.filter(published=True).first()
    entry.answer += " Towels are changed every third day."
    entry.save()

    after = client.get("/faq", HTTP_IF_NONE_MATCH=before)

    assert after.status_code == 200
    assert after["ETag"] != before
    assert b"Towels are changed every third day." in after.content


def test_the_max_age_is_a_setting(client, site, settings):
    settings.PUBLIC_PAGE_MAX_AGE = 300

    assert client.get("/faq")["Cache-Control"] == "public, max-age=300"


@pytest.mark.parametrize("path", ["/contact", "/book", "/availability", "/thank-you"])
def test_personal_or_live_pages_are_never_marked_shareable(client, site, path):
    response = client.get(path)

    assert "public" not in response.get("Cache-Control", "")


def test_a_public_page_that_renders_a_csrf_token_or_reads_the_session_becomes_private(rf, settings, db):
    def page_with_form(request):
        return HttpResponse(get_token(request))

    def page_with_flash_message(request):
        request.session.get("_messages")
        return HttpResponse("Saved.")

    request = rf.get("/faq")
    assert "private" in public_page(page_with_form)(request)["Cache-Control"]

    request = rf.get("/faq")
    request.session = SessionStore()
    assert "private" in public_page(page_with_flash_message)(request)["Cache-Control"]
