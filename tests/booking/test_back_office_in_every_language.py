"""Every back-office screen reads in the reader's language, with no code a person must decode
(issue 40, item 3; docs/back-office.md, "Every screen in the reader's language").

One pass over the back office of the demo property, with a paid stay, an Italian stay checked in
(three guests, two citizenships) and a security deposit: the dashboard, every registered model's
list, add and change page, and the custom screens (rate calendar, reservation calendar, booking for
a guest, police day, city tax and statistics, adding a staff member, a deposit's claim). Each page
is read as a person reads it (its text and its titles, not its scripts nor the values typed in its
fields, nor owner content marked with its own `lang`) in Italian, German and French, and fails on:

- an English word: a strict list of words that exist in English only (stop-words and the words of
  the findings: "Payments", "Security deposits", "(confirmed)", "Low season", "under 12 (date of
  birth)"); Django's own strings it ships untranslated are listed apart;
- a raw code shown as a value: a language or country code alone ("it", "IT", "DE"), a reservation id
  (`res_…`) outside the reservation's own pages.
"""

import re
from datetime import date, timedelta
from decimal import Decimal
from html.parser import HTMLParser

import pytest
from django.contrib import admin
from django.contrib.admin.utils import quote
from django.contrib.auth.models import User
from django.test import Client
from django.urls import NoReverseMatch, reverse

from booking.italy.checkin import save_check_in
from booking.italy.models import CheckIn
from booking.payments.models import SecurityDeposit
from booking.reservations.models import Reservation, Review
from booking.reservations.services.holds import hold_stay
from booking.reservations.services.reservations import Payer, confirm_reservation
from tests.booking.test_back_office import paid  # noqa: F401 (fixture)
from tests.italy.conftest import CHILD, LEAD, PARTNER, make_stay, own_cache, party  # noqa: F401 (fixtures)
from tests.payments.conftest import fake_stripe, stripe_event, webhook  # noqa: F401 (fixtures)

# Words that are English and no Italian, German or French word (whole words, any case).
ENGLISH = set(
    """the and of with from your which when what where who whose each every has have been this that these
    those would should cannot could not only after before since until under over into about there their
    they here how why more most some any at by to is are be were its
    payment payments deposit deposits security confirmed cancelled pending season low high birth arrival
    departure guest guests night nights price refund refunded refunds paid sent received completed created
    updated erased reminder events attempt success empty language country children child adults adult
    amount discount weekly monthly stay stays book booked held hold holds expires expired closed open yes
    never always today tomorrow yesterday month months weeks year years day days hours left special
    percent address phone city tax receipt stamp release reason provider intent first new free show
    edit add save view statistics citizenship exempt reservation reservations blocked
    owner owners settings checked done failed""".split()
)
# Django's and django-axes' own strings that they ship untranslated in it, de or fr (not ours to translate).
THEIRS = {
    "After you’ve created a user, you’ll be able to edit more user options.",
    "Password-based authentication:",
    "Enabled",
    "Disabled",
    "Whether the user will be able to authenticate using a password or not. If disabled, they may still be able to "
    "authenticate using other backends, such as Single Sign-On or LDAP.",
    "Raw passwords are not stored, so there is no way to see the user’s password.",
    "Reset password",
}
CODES = {"en", "it", "de", "fr", "IT", "DE", "FR", "GB", "US", "CH"}
RESERVATION_ID = re.compile(r"\bres_[\w-]{8,}")
LANGUAGES = ["it", "de", "fr"]


class Reading(HTMLParser):
    """What a person reads: text and titles; not scripts, styles, typed values, nor content marked with
    another language than the page's (owner content shown in its own language, a guest's review)."""

    SKIP = {"script", "style", "textarea", "template"}

    def __init__(self, language: str):
        super().__init__()
        self.language = language
        self.stack: list[tuple[str, bool]] = []
        self.texts: list[str] = []

    def hidden(self) -> bool:
        return any(skip for _tag, skip in self.stack)

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        lang = attributes.get("lang")
        skip = tag in self.SKIP or bool(lang and lang != self.language and tag != "html")
        if tag not in ("input", "img", "br", "hr", "meta", "link", "col", "source"):
            self.stack.append((tag, skip))
        if not self.hidden() and not skip:
            self.texts += [value for name, value in attrs if name in ("title", "placeholder", "aria-label", "alt") and value]

    def handle_endtag(self, tag):
        while self.stack:
            if self.stack.pop()[0] == tag:
                break

    def handle_data(self, data):
        if not self.hidden() and data.strip():
            self.texts.append(" ".join(data.split()))


def english_in(text: str) -> list[str]:
    if text in THEIRS:
        return []
    words = re.findall(r"\b[^\W\d_]+\b", text.replace("’", " "))  # letters only: "Téléphone" is one word, "cs_…be5d" none
    return [word for word in words if word.lower() in ENGLISH]


@pytest.fixture
def back_office(paid, make_stay, demo_property, fake_stripe, django_capture_on_commit_callbacks):  # noqa: F811 (fixtures)
    italian = make_stay(check_in=date.today() + timedelta(days=3), language="it")
    # Booked on the Italian site with a code and extras: its breakdown must not reach staff in Italian.
    offers = hold_stay(
        check_in=date.today() + timedelta(days=30),
        check_out=date.today() + timedelta(days=33),
        guests=2,
        language="it",
        promo_code="WELCOME10",
        extras=[{"code": "baby_cot", "quantity": 1}, {"code": "airport_transfer", "quantity": 2}],
    )
    with django_capture_on_commit_callbacks(execute=True):
        confirm_reservation(offers.pk, actor="test", payer=Payer(email="anna@example.com", name="Anna Rossi", phone="+39 1"), amount_paid=offers.total)
    save_check_in(italian, party(LEAD, PARTNER, CHILD), today=date.today())
    # A guest's own review (its language shown by name) and a channel booking's guest country.
    Review.objects.create(property=demo_property, author="Giulia", rating=5, date=date.today(), text="Torneremo.", reservation=italian, language="it")
    Reservation.objects.filter(pk=paid.pk).update(guest_country="DE")
    SecurityDeposit.objects.create(
        reservation=paid, amount=Decimal("300.00"), currency="EUR", provider="stripe", provider_id="pi_3Nx8Held", placed_on=date.today()
    )
    owner = User.objects.create_superuser("giulia", "giulia@example.com", "x")
    client = Client()
    client.force_login(owner)
    return client, paid


def screens(reservation) -> list[str]:
    """The custom screens, then every registered model's list, add page and the change page of a row."""
    urls = [
        "/admin/",
        reverse("admin:catalog_property_rates"),
        reverse("admin:reservations_reservation_calendar"),
        reverse("admin:reservations_reservation_book_for_guest"),
        reverse("admin:italy_police_day") + f"?date={date.today() + timedelta(days=3):%Y-%m-%d}",
        reverse("admin:italy_reports") + f"?period={date.today() + timedelta(days=3):%Y-%m}",
        reverse("admin:auth_user_add_staff_member"),
        reverse("admin:payments_securitydeposit_claim", args=[SecurityDeposit.objects.get().pk]),
        reverse("admin:reservations_reservation_change", args=[quote(reservation.pk)]),
        reverse("admin:reservations_reservation_cancel", args=[quote(reservation.pk)]),
        reverse("admin:reservations_reservation_refund", args=[quote(reservation.pk)]),
        reverse("admin:reservations_review_change", args=[Review.objects.get(reservation__isnull=False).pk]),
    ]
    for model in admin.site._registry:
        info = f"{model._meta.app_label}_{model._meta.model_name}"
        urls += [url for url in (screen(f"admin:{info}_changelist"), screen(f"admin:{info}_add")) if url]
        row = model._default_manager.order_by("pk").first()
        if row is not None and (url := screen(f"admin:{info}_change", quote(row.pk))):
            urls.append(url)
    return urls


def screen(name: str, *args) -> str | None:
    """A registered screen's address, or None for a model that has no such screen (the arrivals
    screen is a changelist with no add or change page)."""
    try:
        return reverse(name, args=args)
    except NoReverseMatch:
        return None


def read(client, url: str, language: str, *, skip: tuple[int, ...] = (403,)) -> list[str] | None:
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
    if response.status_code in skip:  # 403: an add page of a model nobody adds (payments, check-ins…)
        return None
    assert response.status_code == 200, url
    reading = Reading(language)
    reading.feed(response.content.decode())
    return list(dict.fromkeys(reading.texts))


def test_every_back_office_screen_in_italian_german_and_french(back_office):
    client, reservation = back_office
    urls = screens(reservation)
    found: list[str] = []
    read_pages = 0
    for language in LANGUAGES:
        for url in urls:
            texts = read(client, url, language)
            if texts is None:
                continue
            read_pages += 1
            own_pages = url.startswith("/admin/reservations/reservation/")
            for text in texts:
                english = english_in(text)
                if english:
                    found.append(f"{language} {url}: English {english}: {text[:120]}")
                if text in CODES:
                    found.append(f"{language} {url}: a raw code: {text}")
                if not own_pages and RESERVATION_ID.search(text):
                    found.append(f"{language} {url}: a reservation id as a label: {text[:120]}")
    assert read_pages > 3 * 60
    assert not found, "\n".join(found)


# The words an Italian booking's breakdown had when labels were stored as written (promo code, the
# host's price, the extras' names): an English reader sees them in English, wherever they show.
ITALIAN = ["Codice promozionale", "Prezzo speciale", "Culla", "Transfer dall", "Tassa di soggiorno", "Pulizia finale", "Sconto"]


def test_an_italian_booking_reads_in_english_for_an_english_reader(back_office):
    client, _reservation = back_office
    offers = Reservation.objects.get(promo_code__code="WELCOME10")
    page = reverse("admin:reservations_reservation_change", args=[quote(offers.pk)])
    assert "Promo code" in " ".join(read(client, page, "en") or [])  # the page does show the breakdown's words
    found = []
    # The screens that show a stay's words: its page, the lists, the dashboard, the calendars, its money.
    urls = [page, "/admin/", reverse("admin:reservations_reservation_changelist"), reverse("admin:reservations_reservation_calendar")]
    urls += [reverse("admin:catalog_property_rates"), reverse("admin:payments_payment_changelist")]
    urls += [reverse("admin:reservations_reservation_cancel", args=[quote(offers.pk)])]
    for url in urls:
        for text in read(client, url, "en") or []:
            found += [f"{url}: {word} in {text[:120]}" for word in ITALIAN if word in text]
    assert not found, "\n".join(found)


def test_codes_read_as_names_and_stored_facts_as_sentences(back_office):
    client, paid_stay = back_office
    period = f"{date.today() + timedelta(days=3):%Y-%m}"
    report = " ".join(read(client, reverse("admin:italy_reports") + f"?period={period}", "de") or [])
    assert "Deutschland" in report and "Italien" in report  # the statistics' citizenships
    assert "1: unter 12 Jahren, nach den Geburtsdaten des Check-ins" in report  # the exemption, from its data
    stay = " ".join(read(client, reverse("admin:reservations_reservation_change", args=[quote(paid_stay.pk)]), "it") or [])
    assert "inglese" in stay and "Germania" in stay  # the guest's language and country
    groups = read(client, reverse("admin:auth_group_add"), "fr") or []
    assert any(text.endswith("| saison | Peut ajouter : saison") for text in groups)
    october = read(client, reverse("admin:catalog_property_rates") + f"?month={date.today().year + 1}-10", "de") or []
    assert "Hochsaison im Herbst" in october and "Autumn high season" not in october  # the owner's season, translated
    # One date format in every language: the day, the month's short name, the year (config/formats).
    check_in = " ".join(read(client, reverse("admin:italy_checkin_change", args=[CheckIn.objects.get().pk]), "it") or [])
    assert "09 Mar 1984" in check_in and "09 Marzo 1984" not in check_in  # a date of birth
