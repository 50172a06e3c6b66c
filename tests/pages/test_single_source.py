"""Pages show the property exactly as GET /api/v1/property does: one source of truth, no copies."""

from decimal import Decimal

from booking.reservations.models import Review


def test_a_change_in_the_admin_shows_on_the_pages_and_in_the_api_alike(client, api, site):
    site.cleaning_fee = Decimal("135.50")
    site.max_guests = 6
    site.check_in_from = site.check_in_from.replace(hour=14)
    site.save()

    listing = api.get("/api/v1/property").json()
    assert listing["pricing_rules"]["cleaning_fee"] == 135.5
    policies = client.get("/booking-policies").content.decode()
    assert "€135.50 per stay" in policies
    assert "from 14:00" in policies
    home = client.get("/").content.decode()
    assert "<strong>6</strong> guests" in home
    book = client.get("/book").content.decode()
    assert '<option value="6">6 guests</option>' in book
    assert '<option value="7">' not in book


def test_the_reviews_page_shows_the_published_reviews_only(client, site):
    Review.objects.create(property=site, author="Hidden Critic", rating=1, date="2026-07-01", text="Not published.", published=False)
    page = client.get("/reviews").content.decode()
    assert "Hidden Critic" not in page
    assert "Hannah" in page
    assert "4.8" in page


def test_the_rates_table_lists_the_seasons_of_the_pricing_rules(client, api, site):
    rules = api.get("/api/v1/property").json()["pricing_rules"]
    page = client.get("/availability").content.decode()
    for season in rules["seasons"]:
        assert season["name"] in page
    assert "15 Apr – 30 Jun" in page
    assert "€380.00" in page


def test_the_booking_widget_reads_the_same_endpoints_agents_use(client, site):
    page = client.get("/book").content.decode()
    assert '"calendar": "/api/v1/calendar"' in page
    assert '"quote": "/api/v1/quote"' in page
    assert '"checkoutLink": "/api/v1/payments/checkout-link"' in page


def test_the_booking_policies_page_says_the_payment_terms_in_its_language(client, api, site):
    english = api.get("/api/v1/property").json()["policies"]["payment_policy"].splitlines()
    page = client.get("/booking-policies").content.decode()
    assert all(line.replace("'", "&#x27;") in page for line in english)
    italian = client.get("/it/booking-policies").content.decode()
    assert "paghi un acconto del 30% del totale e il saldo 30 giorni prima del check-in" in italian
    assert "bloccato sulla tua carta 1 giorno prima del check-in" in italian and english[0] not in italian
    site.deposit_percent = 100
    site.save()
    assert "L&#x27;intero importo si paga al momento della prenotazione." in client.get("/it/booking-policies").content.decode()
    german, french = client.get("/de/booking-policies").content.decode(), client.get("/fr/booking-policies").content.decode()
    assert "Der volle Betrag wird bei der Buchung bezahlt." in german and "Le montant total est payé à la réservation." in french
