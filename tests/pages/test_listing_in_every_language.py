"""The listing in the guest's language: the owner's texts (name, type, amenities, photos, fees,
discounts) are translatable, and the demo property comes fully translated."""

import pytest
from django.urls import reverse

from booking import demo
from booking.catalog.models import Amenity, Photo, Property

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("prefix", "words"),
    [
        ("/it", ["Attico Santa Croce — Attico a Firenze", "Terrazza sul tetto con vista sul Duomo", "Cucina", "Camera principale", "Vietato fumare"]),
        ("/de", ["Attico Santa Croce — Penthouse in Florenz", "Dachterrasse mit Domblick", "Küche", "Hauptschlafzimmer", "Rauchen in der Wohnung"]),
        (
            "/fr",
            ["Attico Santa Croce — Penthouse à Florence", "Toit-terrasse avec vue sur le Duomo", "Cuisine", "Chambre principale", "Il est interdit de fumer"],
        ),
    ],
)
def test_the_property_page_reads_in_the_guests_language(client, site, prefix, words):
    page = client.get(f"{prefix}/penthouse-florence").content.decode()
    for word in words:
        assert word in page, word
    for english in ["Penthouse in Florence", "Roof terrace with Duomo view", "The king-size bedroom", "No smoking inside"]:
        assert english not in page, english


def test_the_english_page_stays_english(client, site):
    page = client.get("/penthouse-florence").content.decode()
    assert "Attico Santa Croce — Penthouse in Florence" in page and "Roof terrace with Duomo view" in page and "Main bedroom" in page


def test_loading_the_demo_again_keeps_the_owners_translations_and_edits(demo_property):
    terrace = Amenity.objects.get(property=demo_property, name_en="Roof terrace with Duomo view")
    terrace.name_it = "La nostra terrazza"
    terrace.save()
    photo = Photo.objects.get(property=demo_property, static_path="img/photos/kitchen.svg")
    photo.caption_en, photo.caption_it = "Our kitchen", ""
    photo.save()
    Property.objects.filter(pk=demo_property.pk).update(headline_de="")

    demo.load()

    terrace.refresh_from_db()
    photo.refresh_from_db()
    assert terrace.name_it == "La nostra terrazza"
    assert photo.caption_it == "", "a caption the owner rewrote gets no demo translation"
    assert Property.objects.get(pk=demo_property.pk).headline_de.startswith("Ein Penthouse"), "an emptied demo translation is filled again"


def test_the_owner_edits_every_listing_text_per_language(client, django_user_model, demo_property):
    client.force_login(django_user_model.objects.create_superuser("giulia", "giulia@example.com", "a-long-test-password"))
    form = client.get(reverse("admin:catalog_property_change", args=[demo_property.pk])).content.decode()
    for column in ["name_it", "property_type_de", "cleaning_fee_label_fr", "amenities-0-name_it", "amenities-0-category_de", "photos-0-caption_fr"]:
        assert f'name="{column}"' in form, column
    assert 'name="photos-0-alt_text_it"' in form and 'name="discounts-0-label_de"' in form
