"""Every page a guest reads and every email a guest receives, in Italian, German and French, holds
no English sentence, no English month and no raw code (DESIGN.md "Finishing what a guest and an owner
see", Languages): the demo's content included (articles, seasons, discounts, the address, the host's
languages). Content in another language is allowed only where its element says so with `lang`."""

import re
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation

from booking.italy.guest_mail import queue_check_in_emails
from booking.outbox.models import OutboundEmail
from booking.reservations.emails import confirmation_context, stay_message
from booking.reservations.models import Reservation
from booking.reservations.services.reservations import Payer, confirm_reservation
from pages.models import BlogPost
from tests.pages.conftest import SITE_PAGES
from tests.pages.english_left import english_left, english_left_in_html
from tests.payments.conftest import sandbox, stay  # noqa: F401 - sandbox is a fixture

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("sandbox")]

LANGUAGES = [code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE]
GUEST_PAGES = ("", "/check-in", "/cancel", "/change-dates", "/review")


def booked_in(api, language: str) -> Reservation:
    body = api.post(
        "/api/v1/payments/checkout-link",
        stay(offset=45, nights=8, guests=2, success_url=f"{settings.BASE_URL}/{language}/thank-you"),
    ).json()
    reservation = Reservation.objects.get(pk=body["reservation_id"])
    confirm_reservation(reservation.pk, actor="test", payer=Payer(email="ada@example.com", name="Ada Gast", phone=""), amount_paid=reservation.total)
    reservation.refresh_from_db()
    assert reservation.language == language
    return reservation


def site_paths() -> list[str]:
    articles = [f"/blog/{slug}" for slug in BlogPost.objects.filter(status=BlogPost.Status.PUBLISHED).values_list("slug", flat=True)]
    return sorted({*SITE_PAGES, "/blog", *articles})


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_guest_page_is_in_the_page_language(client, api, site, language):
    reservation = booked_in(api, language)
    paths = [*site_paths(), *(f"/manage/{reservation.manage_token}{page}" for page in GUEST_PAGES)]
    english = {}
    for path in paths:
        answer = client.get(f"/{language}{path}" if path != "/" else f"/{language}/")
        if answer.status_code in (301, 302, 303, 409, 410):
            continue  # a step the stay does not offer today (a review before the stay)
        assert answer.status_code == 200, path
        found = english_left_in_html(answer.content.decode(), language)
        if found:
            english[path] = found
    checkout = api.post("/api/v1/payments/checkout-link", stay(offset=70, nights=3, guests=2, success_url=f"{settings.BASE_URL}/{language}/thank-you")).json()
    payment_page = client.get(urlsplit(checkout["checkout_url"]).path)  # the sandbox's checkout, in the guest's language
    assert payment_page.status_code == 200
    if found := english_left_in_html(payment_page.content.decode(), language):
        english["(sandbox checkout)"] = found
    assert not english, "\n".join(f"/{language}{path}:\n  " + "\n  ".join(lines) for path, lines in english.items())


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_guest_email_is_in_the_guest_language(api, site, language):
    """The stay's emails (the builder the outbox calls), the check-in reminder as queued, and every
    other guest template (payment received, balance refused, dates changed, a hold's reminder, a
    payment link…) rendered with the stay's context in the guest's language."""
    reservation = booked_in(api, language)
    texts = {}
    for kind in OutboundEmail.STAY_KINDS:
        message = stay_message(OutboundEmail(reservation=reservation, kind=kind, recipient=OutboundEmail.Recipient.GUEST))
        assert message is not None, kind
        texts[kind] = (message.subject + "\n" + message.body, [html for html, mimetype in message.alternatives if mimetype == "text/html"])
        for name, content, _mimetype in message.attachments:
            if name == "stay.ics":  # the address the guest's calendar shows, its country named
                texts[f"{kind} {name}"] = (
                    re.search(r"^LOCATION:(.*)$", content if isinstance(content, str) else content.decode(), flags=re.M).group(1).replace("\\,", ","),
                    [],
                )
    assert queue_check_in_emails(today=reservation.check_in - timedelta(days=7)) == 1
    row = OutboundEmail.objects.get(reservation=reservation, kind=OutboundEmail.Kind.CHECK_IN_REMINDER_7)
    texts[row.kind] = (row.subject + "\n" + row.body, [])
    with translation.override(language):
        context = {**confirmation_context(reservation), "amount": reservation.total, "url": "https://pay.example/x", "adults": 2, "children": 0}
        for template in sorted((Path(settings.BASE_DIR) / "templates" / "emails").glob("guest_*.txt")):
            texts[template.name] = (render_to_string(f"emails/{template.name}", context), [])
    english = {}
    for name, (text, htmls) in texts.items():
        found = english_left(text, language) + [line for html in htmls for line in english_left_in_html(html, language)]
        if found:
            english[name] = found
    assert not english, "\n".join(f"{name}:\n  " + "\n  ".join(lines) for name, lines in english.items())


def test_the_check_in_names_countries_in_the_page_language(client, api, site):
    """ "Deutschland" on the German check-in, never the police tables' "Germania"; submitted as DE."""
    reservation = booked_in(api, "de")
    html = client.get(f"/de/manage/{reservation.manage_token}/check-in").content.decode()
    options = dict(re.findall(r'<option value="([A-Z]{2})"[^>]*>([^<]+)</option>', html))
    assert options["DE"] == "Deutschland" and options["CH"] == "Schweiz" and options["IT"] == "Italien"
    assert "Germania" not in html


def test_the_walk_reads_what_a_reader_reads(client, site):
    """A control: the English pages, judged as German, are caught (the parser reads their text)."""
    for path in ("/availability", "/blog/arriving-in-florence", "/reviews"):
        assert english_left_in_html(client.get(path).content.decode(), "de"), path


def test_the_checker_catches_what_the_tester_found():
    """The heuristic is strict enough for the findings of issue #40 and quiet on their translations."""
    for text in (
        "Low season",
        "Weekly discount: 10% Rabatt ab 7 Nächten",
        "Swipe sideways to see every column.",
        "Via dei Pepi 42, 50122 Florence, Tuscany",
        "Giulia (Italian, English, French)",
        "7 Jan – 14 Mar",
        "20 dic – 6 gen (this time only)",
        "Three slow days in Florence",
        "res_8f2k1",
        "Paese: DE",
    ):
        assert english_left(text, "de"), text
    for text in ("Nebensaison", "Wochenrabatt: 10 % Rabatt ab 7 Nächten", "7. Jan. – 14. März", "Florenz, Toskana", "Deutschland"):
        assert not english_left(text, "de"), text
    assert not english_left("Via dei Pepi 42, 50122 Florence, Toscane", "fr")
    assert english_left_in_html('<p lang="en">The terrace is lovely and the beds are great.</p>', "it") == []
    assert english_left_in_html("<p>The terrace is lovely and the beds are great.</p>", "it")
