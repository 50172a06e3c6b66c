"""The back office speaks the browser's language (language cookie, then Accept-Language, then
English): config.admin.BackOfficeLanguageMiddleware, catalogs in locale/back-office/. The guest
site keeps its rule (the language from the path only): tests/pages/test_languages.py."""

from decimal import Decimal

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.utils import translation

from booking.catalog.admin import SeasonForm
from booking.catalog.models import NightRate
from booking.reservations.models import Reservation
from tests.booking.test_back_office import CHANGELIST, RATES, cancel_page, change_page, paid, people, refund_page  # noqa: F401 (fixtures)
from tests.conftest import future
from tests.payments.conftest import fake_stripe, stay, stripe_event, webhook  # noqa: F401 (fixtures)

# A few characteristic strings of each page, per language; and the English they replace.
EXPECTED = {
    "dashboard": {
        "it": ["Arrivi e partenze", "Blocchi in attesa di pagamento", "Da verificare", "Notti per canale", "Calendario tariffe"],
        "de": ["An- und Abreisen", "Offene Reservierungen", "Erfordert Aufmerksamkeit", "Nächte nach Kanal", "Preiskalender"],
        "fr": ["Arrivées et départs", "Options en cours", "À vérifier", "Nuits par canal", "Calendrier tarifaire"],
        "en": ["Arrivals and departures", "Open holds", "Needs attention", "Nights by channel", "Rate calendar"],
    },
    "changelist": {
        "it": ["Cancella le prenotazioni selezionate", "Vista calendario", "date del soggiorno", "In casa ora", "Scegli prenotazione da modificare"],
        "de": ["Ausgewählte Buchungen stornieren", "Kalenderansicht", "Aufenthaltsdaten", "Gerade im Haus", "Buchung"],
        "fr": ["Annuler les réservations sélectionnées", "Vue calendrier", "dates du séjour", "Sur place actuellement", "réservation à changer"],
        "en": ["Cancel the selected reservations", "Calendar view", "stay dates", "In the house now", "Select reservation to change"],
    },
    "change": {
        "it": ["Prezzo (bloccato al momento della prenotazione delle date)", "Cancella…", "Rimborsa…", "Tassa di soggiorno", "Richieste particolari"],
        "de": ["Preis (festgeschrieben, als die Daten reserviert wurden)", "Stornieren…", "Erstatten…", "Kurtaxe", "Besondere Wünsche"],
        "fr": ["Prix (figé lors de la réservation des dates)", "Annuler…", "Rembourser…", "Taxe de séjour", "Demandes particulières"],
        "en": ["Price (frozen when the dates were held)", "Cancel…", "Refund…", "City tax", "Special requests"],
    },
    "cancel": {
        "it": ["Reste", "Rimborso previsto oggi", "Indietro, senza modifiche", "Nessun rimborso"],
        "de": ["Noch zu erstatten", "Erstattung laut Bedingungen heute", "Zurück, nichts ändern", "Keine Erstattung"],
        "fr": ["Reste à rembourser", "Remboursement prévu aujourd'hui", "Retour, sans rien changer", "Aucun remboursement"],
        "en": ["Left to refund", "Policy refund today", "Back, change nothing", "No refund"],
    },
    "refund": {
        "it": ["Rimborsato finora", "Indietro, nessun rimborso", "Resta nella cronologia della prenotazione."],
        "de": ["Bisher erstattet", "Zurück, nichts erstatten", "Wird im Verlauf der Buchung gespeichert."],
        "fr": ["Remboursé à ce jour", "Retour, sans rembourser", "Conservé dans l&#x27;historique de la réservation."],
        "en": ["Refunded so far", "Back, refund nothing", "Kept in the reservation&#x27;s history."],
    },
    "rates": {
        "it": ["Modifica le notti scelte", "Applica alle notti scelte", "Imposta il prezzo per notte", "Questo mese"],
        "de": ["Gewählte Nächte ändern", "Auf die gewählten Nächte anwenden", "Preis pro Nacht festlegen", "Dieser Monat"],
        "fr": ["Modifier les nuits choisies", "Appliquer aux nuits choisies", "Fixer le prix par nuit", "Ce mois-ci"],
        "en": ["Change the chosen nights", "Apply to the chosen nights", "Set the nightly price", "This month"],
    },
}
EXPECTED["cancel"]["it"][0] = "Da rimborsare"


def url_of(page: str, reservation: Reservation) -> str:
    return {
        "dashboard": "/admin/",
        "changelist": CHANGELIST,
        "change": change_page(reservation),
        "cancel": cancel_page(reservation),
        "refund": refund_page(reservation),
        "rates": RATES,
    }[page]


@pytest.fixture
def owner(people):  # noqa: F811 (a fixture)
    return people["owner"]


@pytest.mark.parametrize("language", ["it", "de", "fr"])
@pytest.mark.parametrize("page", list(EXPECTED))
def test_each_back_office_page_speaks_the_browsers_language(owner, paid, page, language):  # noqa: F811
    response = owner.get(url_of(page, paid), HTTP_ACCEPT_LANGUAGE=f"{language},en;q=0.5")
    assert response.status_code == 200
    html = response.content.decode()
    assert response["Content-Language"] == language
    assert "Accept-Language" in response["Vary"]
    for text in EXPECTED[page][language]:
        assert text in html, text
    for english in EXPECTED[page]["en"]:
        assert english not in html, english


@pytest.mark.parametrize("page", list(EXPECTED))
def test_english_by_default(owner, paid, page):  # noqa: F811
    response = owner.get(url_of(page, paid))
    assert response.status_code == 200 and response["Content-Language"] == "en"
    html = response.content.decode()
    for english in EXPECTED[page]["en"]:
        assert english in html, english


def test_the_language_cookie_wins_over_accept_language(owner, demo_property):
    owner.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    response = owner.get(RATES, HTTP_ACCEPT_LANGUAGE="fr")
    assert response["Content-Language"] == "de" and "Gewählte Nächte ändern" in response.content.decode()


def test_an_unknown_language_falls_back_to_english(owner, demo_property):
    response = owner.get(RATES, HTTP_ACCEPT_LANGUAGE="ja")
    assert response["Content-Language"] == "en" and "Change the chosen nights" in response.content.decode()


def test_the_login_page_is_translated_too(client, db):
    response = client.get("/admin/login/", HTTP_ACCEPT_LANGUAGE="it")
    assert response.status_code == 200 and "Nome utente" in response.content.decode()


def test_the_guest_site_stays_english_under_unprefixed_paths(client, demo_property):
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="it")
    assert response.status_code == 200 and response["Content-Language"] == "en"


def test_a_rate_calendar_change_in_italian(owner, demo_property):
    night = future(60)
    page = owner.get(f"{RATES}?month={night:%Y-%m}", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    # An <input type="date"> takes ISO dates only, whatever the language.
    assert f'data-night="{night:%Y-%m-%d}"' in page
    done = owner.post(
        RATES,
        {"first_night": night.isoformat(), "last_night": night.isoformat(), "what": "price", "nightly_rate": "333.50"},
        HTTP_ACCEPT_LANGUAGE="it",
        follow=True,
    )
    assert done.status_code == 200
    assert NightRate.objects.get(night=night).nightly_rate == Decimal("333.50")
    said = [str(m) for m in done.context["messages"]]
    assert len(said) == 1 and "1 notte" in said[0]
    # The form shows the chosen nights back as ISO dates after an error, too.
    refused = owner.post(RATES, {"first_night": night.isoformat(), "last_night": night.isoformat(), "what": "price"}, HTTP_ACCEPT_LANGUAGE="it")
    html = refused.content.decode()
    assert refused.status_code == 200 and "Indica il prezzo per notte." in html and f'value="{night:%Y-%m-%d}"' in html


def test_a_refund_in_german(owner, paid, fake_stripe):  # noqa: F811
    page = owner.get(refund_page(paid), HTTP_ACCEPT_LANGUAGE="de")
    assert "Über stripe erstatten" in page.content.decode() or "erstatten" in page.content.decode()
    done = owner.post(
        refund_page(paid), {"apply": "1", "amount": "10.00", "reason": "Fleck", "refunded_before": "0.00"}, HTTP_ACCEPT_LANGUAGE="de", follow=True
    )
    assert done.status_code == 200
    assert Reservation.objects.get(pk=paid.pk).amount_refunded == Decimal("10.00")
    said = [str(m) for m in done.context["messages"]]
    assert said == [f"{paid.pk}: bisher erstattet 10,00 EUR."]


def test_a_cancellation_in_french(owner, paid, fake_stripe):  # noqa: F811
    done = owner.post(cancel_page(paid), {"apply": "1", "refund": "none"}, HTTP_ACCEPT_LANGUAGE="fr", follow=True)
    assert Reservation.objects.get(pk=paid.pk).status == "cancelled"
    assert [str(m) for m in done.context["messages"]] == ["1 réservation annulée ; le client est prévenu par e-mail."]


@pytest.mark.parametrize(("term", "found"), [("2027-03-14", True), ("14/03/2027", True), ("14.03.2027", True), ("20/03/2027", False)])
def test_searching_by_date_works_in_italian(owner, demo_property, term, found):
    staying = Reservation.objects.create(
        id="res_it_search",
        property=demo_property,
        status="confirmed",
        check_in="2027-03-12",
        check_out="2027-03-16",
        guests=2,
        guest_first_name="Giulia",
        guest_last_name="Bianchi",
        total=Decimal("500.00"),
        currency="EUR",
        price_breakdown={},
    )
    html = owner.get(CHANGELIST, {"q": term}, HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert (staying.guest_name in html) is found


def test_a_season_typed_as_day_and_month_in_french(owner, demo_property):
    with translation.override("fr"):
        form = SeasonForm(data={"name": "Noël", "first_night": "20/12", "last_night": "06/01", "nightly_rate": "250.00", "priority": "1"})
        assert form.is_valid(), form.errors
        wrong = SeasonForm(data={"name": "Noël", "first_night": "décembre", "last_night": "06/01", "nightly_rate": "250", "priority": "1"})
        assert not wrong.is_valid() and "Saisissez la nuit au format jour/mois" in str(wrong.errors)


def test_a_user_without_dashboard_rights_still_gets_the_translated_index(db):
    user = User.objects.create_user("ugo", is_staff=True)
    client = Client()
    client.force_login(user)
    response = client.get("/admin/", HTTP_ACCEPT_LANGUAGE="it")
    assert response.status_code == 200 and "Gestione" in response.content.decode() and "Amministrazione Django" not in response.content.decode()
