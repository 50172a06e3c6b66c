"""Nothing of ours reads in English on the Italian, German or French site: every guest page, the
manage page, the confirmation emails and the stay's .ics are rendered in each language and checked
against our catalogue (locale/<language>/LC_MESSAGES/django.po). A msgid whose translation is empty,
fuzzy or missing fails the test, and so does the English text of any msgid found in what the guest
reads (a string that skipped gettext, or a translation not compiled). A catalogue check: no list of
words is kept here."""

import re
from functools import cache
from html.parser import HTMLParser
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from django.conf import settings
from django.core import mail
from icalendar import Calendar

from booking.reservations.models import Reservation
from booking.reservations.services.reservations import Payer, confirm_reservation
from tests.pages.conftest import SITE_PAGES
from tests.payments.conftest import sandbox, stay  # noqa: F401 - sandbox is a fixture

pytestmark = pytest.mark.django_db

LANGUAGES = ["it", "de", "fr"]
PLACEHOLDER = re.compile(r"%\([^)]+\)[sd]|%[sd]|\{[^}]*\}")


@cache
def catalogue(language: str) -> dict[str, str]:
    """msgid (the singular) → msgstr ("" when untranslated or fuzzy)."""
    with open(Path(settings.BASE_DIR) / "locale" / language / "LC_MESSAGES" / "django.po", "rb") as po:
        entries = read_po(po, locale=language)
    shown = {}
    for message in entries:
        if not message.id:
            continue
        singular = message.id[0] if isinstance(message.id, tuple) else message.id
        text = message.string[0] if isinstance(message.string, tuple) else message.string
        shown[singular] = "" if message.fuzzy else (text or "")
    return shown


@cache
def our_msgids() -> frozenset[str]:
    return frozenset().union(*(catalogue(language) for language in LANGUAGES))


@cache
def english_fragments(language: str) -> list[tuple[str, re.Pattern]]:
    """The English pieces (between placeholders) of every msgid the language translates
    differently, as whole-word patterns; one-word msgids must be a whole text on their own."""
    found = []
    for msgid in our_msgids():
        translated = catalogue(language).get(msgid, "")
        if translated == msgid or msgid.startswith(("[", "<")):
            continue  # the same in both languages (e.g. "Wi-Fi"), or markup
        for piece in PLACEHOLDER.split(msgid):
            piece = piece.strip(" .,:;!?()–—-\n")
            if len(piece) < 4 or piece in translated:
                continue
            words = piece.split()
            if len(words) == 1:
                found.append((msgid, re.compile(rf"^\s*{re.escape(piece)}\s*$", re.M)))
            elif len(words) >= 3 or piece == msgid:  # "up to", "in Florence": too common in the owner's own prose
                found.append((msgid, re.compile(rf"(?<![\w-]){re.escape(piece)}(?![\w-])")))
    return found


class VisibleText(HTMLParser):
    """The text a reader sees or hears: text nodes outside <script>/<style>, and the alt, title,
    aria-label, placeholder and meta description attributes, one per line."""

    ATTRIBUTES = {"alt", "title", "aria-label", "placeholder"}

    def __init__(self):
        super().__init__()
        self.lines, self.hidden = [], 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style", "template"):
            self.hidden += 1
        values = dict(attrs)
        self.lines += [value for name, value in attrs if name in self.ATTRIBUTES and value]
        if tag == "meta" and values.get("name") == "description":
            self.lines.append(values.get("content") or "")

    def handle_endtag(self, tag):
        if tag in ("script", "style", "template"):
            self.hidden = max(0, self.hidden - 1)

    def handle_data(self, data):
        if not self.hidden and data.strip():
            self.lines.append(data.strip())


def visible(html: str) -> str:
    parser = VisibleText()
    parser.feed(html)
    return "\n".join(parser.lines)


def english_in(text: str, language: str) -> set[str]:
    return {msgid for msgid, pattern in english_fragments(language) if pattern.search(text)}


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_msgid_of_ours_is_translated(language):
    missing = sorted(msgid for msgid in our_msgids() if not catalogue(language).get(msgid))
    assert not missing, f"untranslated in {language}: {missing[:20]}"


def confirmed_stay(api, language, capture) -> tuple[Reservation, mail.EmailMessage]:
    body = api.post("/api/v1/payments/checkout-link", stay(offset=50, nights=7, guests=2, success_url=f"{settings.BASE_URL}/{language}/thank-you")).json()
    reservation = Reservation.objects.get(pk=body["reservation_id"])
    with capture(execute=True):
        confirm_reservation(reservation.pk, actor="test", payer=Payer(email="anna@example.com", name="Anna Rossi", phone=""), amount_paid=reservation.total)
    reservation.refresh_from_db()
    return reservation, next(m for m in mail.outbox if m.to == ["anna@example.com"])


@pytest.mark.usefixtures("sandbox")
@pytest.mark.parametrize("language", LANGUAGES)
def test_what_the_guest_reads_has_no_english_of_ours(client, api, site, language, django_capture_on_commit_callbacks):
    reservation, email = confirmed_stay(api, language, django_capture_on_commit_callbacks)
    [(html_email, _mimetype)] = email.alternatives
    [(_name, ics, _type)] = [a for a in email.attachments if a[0] == "stay.ics"]
    [event] = Calendar.from_ical(ics).walk("VEVENT")
    read = {
        "email subject": email.subject,
        "email text": email.body,
        "email html": visible(html_email),
        "stay.ics": f"{event['summary']}\n{event['description']}",
    }
    for path in [*SITE_PAGES, f"/manage/{reservation.manage_token}", f"/thank-you?reservation_id={reservation.pk}"]:
        response = client.get(f"/{language}{path}")
        assert response.status_code == 200, path
        read[path] = visible(response.content.decode())
    english = {where: sorted(english_in(text, language)) for where, text in read.items()}
    assert not {where: found for where, found in english.items() if found}
