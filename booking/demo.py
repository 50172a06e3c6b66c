"""The demo property: a penthouse in Florence for up to 7 guests.

Loaded by `manage.py load_demo` (run by `make run`). Idempotent: when the property exists nothing
is touched, so whatever the owner edited in the admin survives every restart.
"""

from datetime import date, time, timedelta
from decimal import Decimal

from django.db import transaction
from django.utils import timezone

from booking import demo_translations as translated
from booking.catalog.models import (
    Amenity,
    ArrivalDayMinimum,
    CancellationTier,
    DisplayCurrency,
    Extra,
    LengthOfStayDiscount,
    Photo,
    PromoCode,
    Property,
    Season,
)
from booking.italy.models import ItalySettings, SafetyCheck, add_months
from booking.reservations.models import Reservation, Review

SLUG = "penthouse-florence"
LANGUAGES = ("it", "de", "fr")  # beside English, as in booking/demo_translations.py

DESCRIPTION = """\
Attico Santa Croce is a light-filled penthouse on the fifth and sixth floors of a restored 19th-century palazzo, two streets from the Basilica di Santa Croce and a ten-minute walk from the Duomo.

The living room opens onto a 40 m² roof terrace with a pergola, a table for eight and a view across the terracotta roofs to Brunelleschi's dome and Giotto's bell tower. Evenings up here are the reason guests come back.

Three bedrooms sleep seven: a king-size room with its own bathroom, a twin room that converts to a double, and a mezzanine room with a double bed and a single day bed. Two full bathrooms, a fully equipped kitchen with a dishwasher and an espresso machine, fast fibre Wi-Fi and air conditioning in every room make long stays easy.

A lift reaches the fifth floor; one flight of internal stairs leads up to the terrace level."""

HOUSE_RULES = """\
No smoking inside the apartment (the terrace is fine, ashtrays provided).
No parties or events; quiet hours from 22:00 to 08:00 — the neighbours are Florentine families.
Pets are welcome on request.
Please separate rubbish: the bins and a calendar for collection days are in the kitchen.
Bring your passport or ID: Italian law requires us to register every guest on arrival."""

ADDRESS = {"city": "Florence", "region": "Tuscany"}  # in Italian, German and French in booking/demo_translations.py

# The cancellation policy, as tiers: (at least this many days before arrival, percent refunded).
CANCELLATION_TIERS = [(30, 100), (7, 50), (0, 0)]

# The property's texts in English; booking/demo_translations.py has them in Italian, German and French.
TEXTS = {
    "name": "Attico Santa Croce — Penthouse in Florence",
    "property_type": "Penthouse apartment",
    "headline": "A three-bedroom penthouse with a roof terrace facing the Duomo, for up to 7 guests.",
    "summary": (
        "Penthouse for up to 7 guests in the historic centre of Florence, near Santa Croce: three bedrooms, "
        "two bathrooms, a 40 m² roof terrace with a view of Brunelleschi's dome, lift, air conditioning and fast Wi-Fi."
    ),
    "description": DESCRIPTION,
    "house_rules": HOUSE_RULES,
    "cleaning_fee_label": "Final cleaning, linen and towels",
}

AMENITIES = [
    ("Roof terrace with Duomo view", "Outdoor"),
    ("Outdoor dining for 8", "Outdoor"),
    ("Lift to the 5th floor", "Access"),
    ("Air conditioning in every room", "Comfort"),
    ("Fibre Wi-Fi (300 Mbit/s)", "Comfort"),
    ("Heating", "Comfort"),
    ("Fully equipped kitchen", "Kitchen"),
    ("Dishwasher", "Kitchen"),
    ("Espresso machine", "Kitchen"),
    ("Washing machine", "Laundry"),
    ("Tumble dryer", "Laundry"),
    ("Linen and towels", "Comfort"),
    ("Hair dryer", "Bathroom"),
    ("Smart TV with Netflix", "Entertainment"),
    ("Dedicated workspace", "Work"),
    ("Cot and high chair on request", "Family"),
]

PHOTOS = [
    ("img/photos/terrace.svg", "The roof terrace at sunset, with the Duomo's dome behind the pergola", "The terrace"),
    ("img/photos/living-room.svg", "The living room with a sofa, bookshelves and French windows onto the terrace", "Living room"),
    ("img/photos/bedroom.svg", "The king-size bedroom with exposed wooden beams", "Main bedroom"),
    ("img/photos/kitchen.svg", "The kitchen with a marble worktop and an espresso machine", "Kitchen"),
]

REVIEWS = [
    (
        "Hannah",
        5,
        date(2026, 6, 14),
        "The terrace is even better than the photos: we had breakfast with the Duomo every morning. Giulia met us at the door and her restaurant list was spot on.",
        "Airbnb",
    ),
    (
        "Marco & Elena",
        5,
        date(2026, 5, 2),
        "Spotless, quiet at night despite being so central, and the beds are excellent. Perfect for our family of six.",
        "Direct",
    ),
    (
        "James",
        4,
        date(2026, 4, 20),
        "Wonderful location near Santa Croce. The last flight of stairs to the terrace is steep with luggage, but worth it.",
        "Booking.com",
    ),
    (
        "Sophie",
        5,
        date(2025, 10, 8),
        "We stayed two weeks and worked from the desk with fast Wi-Fi. Booking directly was simple and cheaper than the platforms.",
        "Direct",
    ),
    ("Kenji", 5, date(2025, 9, 1), "A beautiful home. Everything you need in the kitchen, and the market of Sant'Ambrogio is five minutes away.", "Airbnb"),
]

SEASONS = [
    # name, start, end (inclusive nights), nightly, weekend, min nights, priority
    ("Low season", date(2000, 1, 7), date(2000, 3, 14), "240.00", "260.00", 2, 0),
    ("Spring and autumn high season", date(2000, 4, 15), date(2000, 6, 30), "380.00", "420.00", 3, 1),
    ("Summer", date(2000, 7, 1), date(2000, 8, 31), "340.00", "360.00", 3, 1),
    ("Autumn high season", date(2000, 9, 1), date(2000, 10, 31), "380.00", "420.00", 3, 1),
    ("Christmas and New Year", date(2000, 12, 20), date(2000, 1, 6), "420.00", None, 3, 10),
]


# Offers (docs/offers.md): a code for returning guests, and three extras.
DEMO_EXTRAS = [
    # code, price, max, names in en/it/de/fr
    ("airport_transfer", "60.00", 2, ("Airport transfer", "Transfer dall'aeroporto", "Flughafentransfer", "Transfert aéroport")),
    (
        "late_checkout",
        "40.00",
        1,
        ("Late check-out (until 14:00)", "Check-out posticipato (fino alle 14:00)", "Später Check-out (bis 14:00 Uhr)", "Départ tardif (jusqu'à 14 h)"),
    ),
    ("baby_cot", "0.00", 1, ("Baby cot", "Culla", "Babybett", "Lit bébé")),
]


def load_offers(prop: Property) -> bool:
    """The demo's promo code, extras and automatic discounts, unless an offer exists already."""
    if prop.promo_codes.exists() or prop.extras.exists():
        return False
    # The update skips the signals; the creations after it bump the rules version.
    Property.objects.filter(pk=prop.pk).update(last_minute_days=7, last_minute_percent=Decimal("10"), gap_nights=True, gap_nights_percent=Decimal("15"))
    PromoCode.objects.create(property=prop, code="WELCOME10", percent=Decimal("10"), min_nights=3)
    for position, (code, price, most, (en, it, de, fr)) in enumerate(DEMO_EXTRAS):
        Extra.objects.create(
            property=prop, code=code, name=en, name_en=en, name_it=it, name_de=de, name_fr=fr, price=Decimal(price), max_quantity=most, position=position
        )
    return True


def load() -> bool:
    """Create the demo property unless it exists. Returns whether anything was created."""
    existing = Property.objects.filter(slug=SLUG).first()
    if existing is not None:
        return load_offers(existing) | load_translations(existing) | load_short_let_rules(existing)
    with transaction.atomic():
        prop = Property.objects.create(
            **TEXTS,
            slug=SLUG,
            street_address="Via dei Pepi 42",
            **ADDRESS,
            postal_code="50122",
            country_code="IT",
            latitude=Decimal("43.769560"),
            longitude=Decimal("11.262430"),
            neighbourhood="Santa Croce",
            max_guests=7,
            bedrooms=3,
            beds=5,
            bathrooms=Decimal("2"),
            size_sqm=135,
            check_in_from=time(15, 0),
            check_in_until=time(21, 0),
            check_out_until=time(10, 30),
            national_code="IT048017C2PENTFI001",
            host_name="Giulia",
            contact_email="stay@attico-santacroce.example",
            contact_phone="+39 055 000 0000",
            languages="Italian, English, French",
            base_nightly_rate=Decimal("290.00"),
            weekend_nightly_rate=Decimal("320.00"),
            min_nights=2,
            max_nights=60,
            closed_to_arrival=[],
            closed_to_departure=[],
            base_occupancy=4,
            extra_guest_fee=Decimal("25.00"),
            cleaning_fee=Decimal("120.00"),
            city_tax_per_person_night=Decimal("3.50"),
            city_tax_max_nights=7,
            city_tax_exempt_under_age=12,
            booking_window_days=730,
        )
        Amenity.objects.bulk_create(Amenity(property=prop, name=n, category=c, position=i) for i, (n, c) in enumerate(AMENITIES))
        Photo.objects.bulk_create(Photo(property=prop, static_path=p, alt_text=a, caption=c, position=i) for i, (p, a, c) in enumerate(PHOTOS))
        Review.objects.bulk_create(Review(property=prop, author=a, rating=r, date=d, text=t, source=s, language="en") for a, r, d, t, s in REVIEWS)
        Season.objects.bulk_create(
            Season(
                property=prop,
                name=n,
                start_date=s,
                end_date=e,
                recurring=True,
                nightly_rate=Decimal(r),
                weekend_nightly_rate=Decimal(w) if w else None,
                min_nights=m,
                priority=p,
            )
            for n, s, e, r, w, m, p in SEASONS
        )
        LengthOfStayDiscount.objects.bulk_create(
            [
                LengthOfStayDiscount(property=prop, label="Weekly discount", min_nights=7, percent=Decimal("10")),
                LengthOfStayDiscount(property=prop, label="Monthly discount", min_nights=28, percent=Decimal("20")),
            ]
        )
        DisplayCurrency.objects.bulk_create(
            [
                DisplayCurrency(property=prop, code="USD", rate=Decimal("1.08")),
                DisplayCurrency(property=prop, code="GBP", rate=Decimal("0.85")),
                DisplayCurrency(property=prop, code="CHF", rate=Decimal("0.94")),
            ]
        )
        ArrivalDayMinimum.objects.bulk_create([ArrivalDayMinimum(property=prop, weekday=5, min_nights=2)])
        CancellationTier.objects.bulk_create(CancellationTier(property=prop, days_before_arrival=d, refund_percent=p) for d, p in CANCELLATION_TIERS)
        load_offers(prop)
        load_translations(prop)
        load_short_let_rules(prop)
        # Airbnb collects Florence's city tax from its own guests; Booking.com leaves it to the host.
        ItalySettings.objects.filter(property=prop).update(city_tax_collecting_channels=[Reservation.Source.AIRBNB.value])
    return True


def load_short_let_rules(prop: Property, today: date | None = None) -> bool:
    """Florence's short-let rules for the demo: the regional authorisation (issued four years and
    ten months ago, so its reminder is near), the emergency information in four languages, and a
    safety register (an extinguisher due in ten days, gas and CO detectors). Only where the owner
    has set none of it."""
    today = today or timezone.localdate()
    italy = ItalySettings.for_property(prop)
    changed = False
    if not (italy.regional_authorisation_number or italy.regional_authorisation_expires or italy.emergency_info_en):
        issued = add_months(today, -58)
        italy.regional_authorisation_number = "FI/LT/2021/000123"
        italy.regional_authorisation_issued = issued
        italy.regional_authorisation_expires = add_months(issued, 60)
        for language in ("en", *LANGUAGES):
            setattr(italy, f"emergency_info_{language}", translated.EMERGENCY_INFO[language])
        italy.save()
        changed = True
    if not prop.safety_checks.exists():
        for kind, where, months_ago, by in (
            (SafetyCheck.Kind.EXTINGUISHER, "kitchen", 6, "Antincendio Fiorentina srl"),
            (SafetyCheck.Kind.GAS_DETECTOR, "kitchen", 3, "Giulia"),
            (SafetyCheck.Kind.CO_DETECTOR, "boiler cupboard", 3, "Giulia"),
        ):
            SafetyCheck.objects.create(property=prop, kind=kind, location=where, checked_on=add_months(today, -months_ago) + timedelta(days=10), checked_by=by)
        changed = True
    return changed


def load_translations(prop: Property) -> bool:
    """Fill the Italian, German and French fields of the demo's texts that are still the demo's own
    (English unchanged) and not yet translated: an owner's edit or translation is never replaced."""
    changed = fill(prop, TEXTS, {field: tuple(translated.PROPERTY[language][field] for language in LANGUAGES) for field in TEXTS})
    changed |= fill(prop, ADDRESS, translated.ADDRESS)
    # The demo's reviews are written in English: the pages mark them so on translated pages.
    changed |= bool(prop.reviews.filter(reservation=None, language="", text__in=[text for *_rest, text, _source in REVIEWS]).update(language="en"))

    for amenity in prop.amenities.all():
        english = {field: getattr(amenity, f"{field}_en") for field in ("name", "category")}
        known = {field: text for field, text in english.items() if text in translated.AMENITY_WORDS}
        changed |= fill(amenity, known, {field: translated.AMENITY_WORDS[text] for field, text in known.items()})
    demo_photos = {path: {"alt_text": alt, "caption": caption} for path, alt, caption in PHOTOS}
    for photo in prop.photos.filter(static_path__in=list(demo_photos)):
        words = translated.PHOTOS[photo.static_path]
        changed |= fill(photo, demo_photos[photo.static_path], {"alt_text": tuple(w[0] for w in words), "caption": tuple(w[1] for w in words)})
    for discount in prop.discounts.filter(label_en__in=list(translated.DISCOUNTS)):
        changed |= fill(discount, {"label": discount.label_en}, {"label": translated.DISCOUNTS[discount.label_en]})
    for season in prop.seasons.filter(name_en__in=list(translated.SEASONS)):
        changed |= fill(season, {"name": season.name_en}, {"name": translated.SEASONS[season.name_en]})
    return changed


def fill(row, english: dict[str, str], translations: dict[str, tuple[str, ...]]) -> bool:
    """Set `<field>_<language>` where the English is still `english[field]` and the translation is
    empty (or the field's default, e.g. "Final cleaning"); True if any was set."""
    columns = []
    for field, source in english.items():
        if getattr(row, f"{field}_en") != source:
            continue  # the owner rewrote it: their own translations, if any, belong to their text
        for language, text in zip(LANGUAGES, translations[field], strict=True):
            column = f"{field}_{language}"
            current = getattr(row, column)
            if current != text and current in (None, "", source, row._meta.get_field(column).default):
                setattr(row, column, text)
                columns.append(column)
    if columns:
        row.save(update_fields=columns)
    return bool(columns)
