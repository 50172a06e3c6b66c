"""The site in four languages (issue 15, item 1): English at the spec's paths, Italian, German and
French under /it/, /de/, /fr/; <html lang>, hreflang alternates (with x-default) on every page and in
the sitemap; a switcher that keeps the page; Accept-Language only suggests; the guest's language
remembered on the reservation for its emails; the owner's texts translatable with English fallback.
"""

import re
import xml.etree.ElementTree as ET
from datetime import date
from decimal import Decimal
from urllib.parse import urlsplit

import pytest
from django.conf import settings
from django.core import mail
from django.utils import translation

from booking.formatting import format_date, format_money
from booking.reservations.models import Reservation
from booking.reservations.services.reservations import Payer, confirm_reservation
from pages.models import BlogPost, FaqEntry, PageKey, PageText
from tests.pages.conftest import SITE_PAGES
from tests.payments.conftest import sandbox, stay  # noqa: F401 - sandbox is a fixture

pytestmark = pytest.mark.django_db

LANGUAGES = [code for code, _name in settings.LANGUAGES]  # a language added to the settings is tested at once
PAGES = SITE_PAGES


def in_language(path: str, language: str) -> str:
    if language == "en":
        return path
    return f"/{language}{path}" if path != "/" else f"/{language}/"


def html_lang(html: str) -> str:
    return re.search(r'<html lang="([^"]+)"', html).group(1)


def alternates(html: str) -> dict[str, str]:
    return dict(re.findall(r'<link rel="alternate" hreflang="([^"]+)" href="([^"]+)">', html))


def switcher(html: str) -> dict[str, str]:
    nav = re.search(r'<nav class="wrap language-switcher".*?</nav>', html, flags=re.DOTALL).group(0)
    return {code: href.replace("&amp;", "&") for href, code in re.findall(r'<a href="([^"]+)" hreflang="([^"]+)"', nav)}


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_answers_in_every_language_with_its_lang_and_alternates(client, site, language):
    for page in PAGES:
        path = in_language(page, language)
        answer = client.get(path)
        assert answer.status_code == 200, path
        html = answer.content.decode()
        assert html_lang(html) == language, path
        links = alternates(html)
        noindex = page == "/thank-you"  # a personal page: no alternates for search engines
        if noindex:
            continue
        assert links == {
            "en": settings.BASE_URL + page,
            "it": settings.BASE_URL + in_language(page, "it"),
            "de": settings.BASE_URL + in_language(page, "de"),
            "fr": settings.BASE_URL + in_language(page, "fr"),
            "x-default": settings.BASE_URL + page,
        }, path


def test_the_spec_paths_stay_english(client, site):
    for page in PAGES:
        html = client.get(page).content.decode()
        assert html_lang(html) == "en", page
    home = client.get("/").content.decode()
    assert "Check dates &amp; book" in home and 'href="/book"' in home
    assert "Skip to content" in home


def test_pages_are_written_in_their_language(client, site):
    assert "Prenota e paga" in client.get("/it/book").content.decode()
    assert "Buchen und bezahlen" in client.get("/de/book").content.decode()
    assert "Réserver et payer" in client.get("/fr/book").content.decode()
    italian_home = client.get("/it/").content.decode()
    assert 'href="/it/book"' in italian_home and 'href="/book"' not in italian_home
    # Money the Italian way: "240 €", not "€240".
    assert re.search("Da <strong>\\d+\xa0€</strong> a notte", italian_home)


def test_the_agent_pages_and_the_api_stay_english(client, site):
    assert client.get("/it/api").status_code == 404
    assert client.get("/it/api/v1/property").status_code == 404
    html = client.get("/api", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert html_lang(html) == "en"
    assert alternates(html) == {"en": settings.BASE_URL + "/api", "x-default": settings.BASE_URL + "/api"}
    answer = client.get("/api/v1/availability", {"check_in": "bad"}, HTTP_ACCEPT_LANGUAGE="it")
    assert answer.status_code == 422 and answer.headers.get("Content-Language", "en") == "en"


def test_the_switcher_keeps_the_page_and_its_query(client, site):
    html = client.get("/it/faq").content.decode()
    assert switcher(html) == {"en": "/faq", "it": "/it/faq", "de": "/de/faq", "fr": "/fr/faq"}
    html = client.get("/de/blog/three-slow-days-in-florence").content.decode()
    assert switcher(html)["fr"] == "/fr/blog/three-slow-days-in-florence"
    html = client.get("/book?check_in=2027-05-01&guests=3").content.decode()
    assert switcher(html)["it"] == "/it/book?check_in=2027-05-01&guests=3"


def test_a_crawler_with_accept_language_is_not_redirected(client, site):
    for path in ["/", "/faq", "/book"]:
        answer = client.get(path, HTTP_ACCEPT_LANGUAGE="it-IT,it;q=0.9", HTTP_USER_AGENT="Mozilla/5.0 (compatible; Googlebot/2.1)")
        assert answer.status_code == 200, path
        assert html_lang(answer.content.decode()) == "en"


def test_accept_language_only_suggests_the_translation(client, site):
    html = client.get("/faq", HTTP_ACCEPT_LANGUAGE="de-DE,de;q=0.9,en;q=0.5").content.decode()
    suggestion = re.search(r'<p class="language-suggestion" lang="de">(.*?)</p>', html, flags=re.DOTALL)
    assert suggestion and 'href="/de/faq"' in suggestion.group(1) and "Diese Seite gibt es auch auf Deutsch." in suggestion.group(1)
    # Asked in the reader's own language, or by a browser without preference: nothing to suggest.
    assert "language-suggestion" not in client.get("/de/faq", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "language-suggestion" not in client.get("/faq", HTTP_ACCEPT_LANGUAGE="en-GB,en;q=0.9,de;q=0.5").content.decode()
    assert "language-suggestion" not in client.get("/faq").content.decode()


XHTML = "{http://www.w3.org/1999/xhtml}link"
SITEMAP = "{http://www.sitemaps.org/schemas/sitemap/0.9}"


def test_the_sitemap_lists_every_language_with_its_alternates(client, site):
    root = ET.fromstring(client.get("/sitemap.xml").content)
    urls = {url.findtext(f"{SITEMAP}loc"): url for url in root.findall(f"{SITEMAP}url")}
    base = settings.BASE_URL
    for language in LANGUAGES:
        for page in ["/", "/faq", "/privacy", "/blog/three-slow-days-in-florence"]:
            loc = base + in_language(page, language)
            assert loc in urls, loc
            links = {link.get("hreflang"): link.get("href") for link in urls[loc].findall(XHTML)}
            assert links == {
                "en": base + page,
                "it": base + in_language(page, "it"),
                "de": base + in_language(page, "de"),
                "fr": base + in_language(page, "fr"),
                "x-default": base + page,
            }, loc
    assert base + "/api" in urls and base + "/it/api" not in urls


def test_the_privacy_page_says_what_is_stored_why_how_long_and_the_rights(client, site):
    html = client.get("/privacy").content.decode()
    for heading in ["What we store", "Why", "How long", "Your rights", "Contact"]:
        assert f"<h2>{heading}</h2>" in html
    assert "GDPR" in html and site.contact_email in html
    assert 'href="/privacy"' in client.get("/").content.decode(), "linked in the footer"
    assert 'href="/it/privacy"' in client.get("/it/").content.decode()
    assert "I tuoi diritti" in client.get("/it/privacy").content.decode()
    assert 'href="/de/privacy"' in client.get("/de/book").content.decode().split('id="book-button"')[1], "beside the pay button"


class TestOwnerTextsFallBackToEnglish:
    def test_an_untranslated_page_text_shows_the_english_one(self, client, site):
        PageText.objects.filter(key=PageKey.FAQ).update(title_en="Questions and answers", title_it="", intro_it="")
        html = client.get("/it/faq").content.decode()
        assert '<h1 lang="en">Questions and answers</h1>' in html and html_lang(html) == "it"

    def test_a_translated_page_text_shows_in_its_language(self, client, site):
        PageText.objects.filter(key=PageKey.FAQ).update(title_en="Questions and answers", title_it="Domande e risposte", title_fr="")
        assert "<h1>Domande e risposte</h1>" in client.get("/it/faq").content.decode()
        assert "<h1>Questions and answers</h1>" in client.get("/faq").content.decode()
        assert '<h1 lang="en">Questions and answers</h1>' in client.get("/fr/faq").content.decode(), "French is empty: English"

    def test_faq_entries_and_articles_fall_back_too(self, client, site):
        FaqEntry.objects.all().delete()
        FaqEntry.objects.create(question_en="Is there a lift?", answer_en="Yes.", question_de="Gibt es einen Aufzug?", answer_de="Ja.")
        assert "Gibt es einen Aufzug?" in client.get("/de/faq").content.decode()
        assert "Is there a lift?" in client.get("/fr/faq").content.decode()
        post = BlogPost.objects.get(slug="three-slow-days-in-florence")
        post.title_fr = ""
        post.save()
        assert f'<h1 lang="en">{post.title_en}</h1>' in client.get("/fr/blog/three-slow-days-in-florence").content.decode()


class TestTheDemoShipsTranslations:
    @pytest.mark.parametrize("language", ["it", "de", "fr"])
    def test_pages_faq_and_an_article_are_translated(self, client, site, language):
        for key in PageKey.values:
            page = PageText.objects.get(key=key)
            assert getattr(page, f"title_{language}"), (key, language)
        assert all(getattr(entry, f"question_{language}") and getattr(entry, f"answer_{language}") for entry in FaqEntry.objects.all())
        assert BlogPost.objects.public().exclude(**{f"body_{language}": ""}).exclude(**{f"body_{language}": None}).exists()


@pytest.mark.usefixtures("sandbox")
class TestTheGuestsLanguage:
    def test_a_booking_from_the_italian_site_is_italian_and_so_is_its_email(self, client, api, site, django_capture_on_commit_callbacks):
        body = api.post(
            "/api/v1/payments/checkout-link",
            stay(offset=50, nights=3, success_url=f"{settings.BASE_URL}/it/thank-you", cancel_url=f"{settings.BASE_URL}/it/book"),
        ).json()
        reservation = Reservation.objects.get(pk=body["reservation_id"])
        assert reservation.language == "it"
        # The sandbox checkout speaks Italian too, and returns the payer to the Italian thank-you
        # page with the session id (so it can show the manage link).
        page = client.get(urlsplit(body["checkout_url"]).path).content.decode()
        assert html_lang(page) == "it" and "Paga" in page and "PAGAMENTO DI PROVA" in page and "TEST PAYMENT" not in page
        assert 'href="/it/privacy"' in page, "the checkout page links the privacy page"
        with django_capture_on_commit_callbacks(execute=True):
            confirm_reservation(
                reservation.pk, actor="test", payer=Payer(email="anna@example.com", name="Anna Rossi", phone="+39 333 1234567"), amount_paid=reservation.total
            )
        guest = next(m for m in mail.outbox if m.to == ["anna@example.com"])
        owner = next(m for m in mail.outbox if m.to != ["anna@example.com"])
        assert "è confermato" in guest.subject
        assert "Gentile Anna," in guest.body and "Grazie per aver prenotato direttamente!" in guest.body
        reservation.refresh_from_db()
        with translation.override("it"):
            assert format_date(reservation.check_in, "l j F Y") in guest.body
            assert format_money(reservation.total) in guest.body  # "1.128,00 €"
        assert f"/it/manage/{reservation.manage_token}" in guest.body
        [(html, _mimetype)] = guest.alternatives
        assert '<html lang="it">' in html and "Il tuo soggiorno è confermato" in html
        assert owner.subject.startswith("[TEST] New booking"), "the owner's copy stays English"

    def test_the_italian_return_page_gets_the_checkout_session(self, api, site):
        body = api.post("/api/v1/payments/checkout-link", stay(offset=60, success_url=f"{settings.BASE_URL}/it/thank-you")).json()
        reservation = Reservation.objects.get(pk=body["reservation_id"])
        from booking.payments.models import SandboxCheckout

        checkout = SandboxCheckout.objects.get(reservation=reservation)
        assert checkout.success_url.startswith(f"{settings.BASE_URL}/it/thank-you?reservation_id=")
        assert "session_id=" in checkout.success_url

    def test_an_agents_booking_stays_english(self, api, site):
        body = api.post("/api/v1/payments/checkout-link", stay(offset=70, success_url="https://agent.example.com/it/done")).json()
        assert Reservation.objects.get(pk=body["reservation_id"]).language == "en"
        body = api.post("/api/v1/payments/checkout-link", stay(offset=80)).json()
        assert Reservation.objects.get(pk=body["reservation_id"]).language == "en"

    def test_the_italian_booking_page_sends_the_italian_return_address(self, client, site):
        html = client.get("/it/book").content.decode()
        config = re.search(r'<script id="booking-config" type="application/json">(.*?)</script>', html, flags=re.DOTALL).group(1)
        assert f'"success_url": "{settings.BASE_URL}/it/thank-you"' in config
        assert '"locale": "it-IT"' in config and "Prenota e paga" in config
        english = client.get("/book").content.decode()
        assert '"returnUrls": null' in english and '"text": {}' in english


def test_money_and_dates_are_written_the_local_way():
    day = date(2027, 1, 12)
    amount = Decimal(1128)
    expected = {
        "en": ("€1,128.00", "12 Jan 2027"),
        "it": ("1.128,00\xa0€", "12 gen 2027"),
        "de": ("1.128,00\xa0€", "12. Jan. 2027"),
        "fr": ("1\u202f128,00\xa0€", "12 janv. 2027"),
    }
    for language, (money, when) in expected.items():
        with translation.override(language):
            assert format_money(amount) == money, language
            assert format_date(day, "j M Y") == when, language
