"""The demo website content: page texts, FAQ and journal articles for the Florence penthouse.

Loaded by `manage.py load_demo` on every `make run`, so it only fills what is missing and never
touches what the owner edited:
- a page text is created for each page that has none;
- FAQ entries and articles are created only while the FAQ (or the journal) is completely empty, so
  an entry the owner deleted does not come back on the next restart.

Facts that the property record holds (times, prices, fees, rules) are deliberately not repeated
here: the texts link to the pages that show them from the live data.
"""

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from django.db import transaction
from django.utils import timezone, translation

from pages import demo_translations as translated
from pages.models import BlogPost, FaqEntry, PageKey, PageText

ROME = ZoneInfo("Europe/Rome")

# The demo's sketch map (a static file: its plain path is served beside the hashed one).
MAP = "/static/img/map-santa-croce.svg"

LOCATION_BODY = f"""\
![Sketch map of central Florence: the penthouse in Santa Croce, a short walk east of the Duomo and north of the Arno]({MAP})

*Sketch map, not to scale.*

## Santa Croce, the Florence that Florentines live in

The penthouse is on Via dei Pepi, a quiet street between the Basilica di Santa Croce and the
Sant'Ambrogio market. Mornings start with the market traders setting up, afternoons with school
children crossing the piazza, evenings with the wine bars of Via de' Benci and Via dei Macci. It is
central without being a museum: you will hear Italian on the street.

### On foot from the door

| Where | Walk |
|---|---|
| Basilica and Piazza Santa Croce | 4 minutes |
| Sant'Ambrogio market | 5 minutes |
| Casa Buonarroti (Michelangelo's family house) | 3 minutes |
| Uffizi and Palazzo Vecchio | 10 minutes |
| Duomo, Baptistery and bell tower | 12 minutes |
| Ponte Vecchio | 13 minutes |
| Galleria dell'Accademia (David) | 15 minutes |
| Santa Maria Novella station | 25 minutes, or 10 minutes by taxi |
| Piazzale Michelangelo | 25 minutes, the last part uphill |

### Getting here

From the airport or the station a taxi takes ten to fifteen minutes. If you come by car, do not
drive into the historic centre: it is a limited traffic zone (ZTL) watched by cameras, and the fines
reach you months later. We will send you directions to a garage just outside the zone. Our
[arrival guide](/blog/arriving-in-florence) covers every route in detail.
"""

HOME_BODY = """\
## A home in the centre, not a hotel room

Attico Santa Croce is a family home that we open to guests: real books on the shelves, a kitchen
you will actually cook in, and beds we chose after sleeping in them. The terrace is the heart of the
house — a pergola, a long table for eight, and the dome of the cathedral filling the view.

Booking here is direct: the calendar is live, the price is shown line by line before you pay, and
your questions reach Giulia rather than a call centre.
"""

PAGES = {
    PageKey.HOME: {
        "title": "A penthouse with a terrace over Florence",
        "meta_description": "Three-bedroom penthouse for up to 7 guests near Santa Croce in Florence, with a roof terrace facing the Duomo. Book direct: live availability, full price, no platform fees.",
        "intro": "Three bedrooms, two bathrooms and a roof terrace facing Brunelleschi's dome, two streets from Santa Croce. Book directly with Giulia, your host.",
        "body": HOME_BODY,
    },
    PageKey.PROPERTY: {
        "title": "The penthouse",
        "meta_description": "Inside Attico Santa Croce: three bedrooms sleeping seven, two bathrooms, a full kitchen and a 40 m² roof terrace with a view of the Duomo.",
        "intro": "",
        "body": "",
    },
    PageKey.AVAILABILITY: {
        "title": "Prices and availability",
        "meta_description": "Live availability and nightly prices of the Santa Croce penthouse in Florence, with seasonal rates, weekly discounts and the full price of your dates.",
        "intro": "Every free night with its price. Pick your dates to see the total line by line — city tax and cleaning included — then continue to book.",
        "body": "Prices are for the whole penthouse, not per person. The price you see here is the price you pay: there is no booking fee.",
    },
    PageKey.REVIEWS: {
        "title": "Guest reviews",
        "meta_description": "What guests say about Attico Santa Croce, the penthouse with a Duomo view in Florence: reviews from direct guests, Airbnb and Booking.com.",
        "intro": "Reviews from guests who booked with us directly and through the platforms, published as they were written.",
        "body": "",
    },
    PageKey.LOCATION: {
        "title": "Location",
        "meta_description": "The penthouse is on Via dei Pepi in Santa Croce, Florence: 4 minutes from the basilica, 12 from the Duomo. Walking times, map and how to arrive.",
        "intro": "In Santa Croce, the lived-in heart of the historic centre: everything in Florence you came for is a walk away.",
        "body": LOCATION_BODY,
    },
    PageKey.FAQ: {
        "title": "Frequently asked questions",
        "meta_description": "Answers about the Santa Croce penthouse in Florence: check-in, the lift, parking and the ZTL, children, pets, city tax, payment and cancellation.",
        "intro": "The questions guests ask us most, answered.",
        "body": "",
    },
    PageKey.BOOKING_POLICIES: {
        "title": "Booking policies",
        "meta_description": "Cancellation, payment, minimum stay, fees, city tax, check-in times and house rules of the Santa Croce penthouse in Florence.",
        "intro": "Everything that applies to your booking, in plain words. These are the same rules our booking system applies when you choose your dates.",
        "body": "",
    },
    PageKey.BOOK: {
        "title": "Book your stay",
        "meta_description": "Choose your dates, see the full price line by line and book the Santa Croce penthouse in Florence directly, with secure payment.",
        "intro": "Choose your check-in and check-out, see the full price line by line, then pay securely. No account and no details needed beforehand.",
        "body": "",
    },
    PageKey.CONTACT: {
        "title": "Get in touch",
        "meta_description": "Questions about dates, arrival or Florence? Write to Giulia, the host of the Santa Croce penthouse.",
        "intro": "Questions about dates, arrival or the neighbourhood? Giulia answers personally, usually within a few hours.",
        "body": "For group trips, long stays or a special occasion on the terrace, tell us what you have in mind — we will do our best to help.",
    },
    PageKey.THANK_YOU: {
        "title": "Thank you",
        "meta_description": "Your booking at the Santa Croce penthouse in Florence.",
        "intro": "",
        "body": "",
    },
    PageKey.BLOG: {
        "title": "Journal",
        "meta_description": "Notes from Florence by the host of the Santa Croce penthouse: what to see, where to eat and how to arrive.",
        "intro": "Notes from Florence by your host: what to see, where to eat, and how to arrive without stress.",
        "body": "",
    },
    PageKey.PRIVACY: {
        "title": "Privacy",
        "meta_description": "What the Santa Croce penthouse stores about guests, why, for how long, and your rights under the GDPR.",
        "intro": "We keep only what a booking needs, for as long as the law asks, and never sell or share it for advertising.",
        "body": "",
    },
}

FAQ = [
    (
        "What time can we check in and check out?",
        "Check-in is in the afternoon and evening and check-out in the morning; the exact times are on our "
        "[booking policies](/booking-policies) page. Giulia meets you at the door. If your train or flight arrives "
        "late, tell us when you book and we will arrange a later arrival.",
    ),
    (
        "Is there a lift?",
        "Yes. A lift takes you to the fifth floor, where the apartment begins. The terrace level is one flight "
        "of internal stairs higher — steep with heavy suitcases, so we are happy to help carry them.",
    ),
    (
        "Can we park nearby?",
        "The historic centre is a limited traffic zone (ZTL) with cameras at every entrance, so please do not "
        "drive to the door: fines arrive months later through the rental company. There are public garages just "
        "outside the zone, ten minutes' walk away; we send directions with your arrival details.",
    ),
    (
        "Is the penthouse good for children?",
        "Very much so: there is space to spread out, a cot and a high chair on request, and the Sant'Ambrogio "
        "market and a playground are close by. The terrace has a high parapet, but please keep an eye on small "
        "children up there. Children count as guests when you book.",
    ),
    ("Do you accept pets?", "Yes, well-behaved pets are welcome. Let us know when you book so we can prepare a bowl and a blanket."),
    (
        "Is the city tax included in the price?",
        "Yes. Florence charges a tourist tax per person per night for a limited number of nights. It is shown as "
        "its own line in the price before you pay and is included in the total, so there is nothing to pay on "
        "arrival. Children under the exemption age pay no tax; see the [booking policies](/booking-policies).",
    ),
    (
        "How does booking direct work?",
        "Choose your dates on the [booking page](/book), pick the number of guests and you see the full price "
        "line by line. Press *Book and pay*: your dates are held for you while you pay on a secure payment page, "
        "where you give your name, email and phone. As soon as the payment goes through, the stay is confirmed "
        "and a confirmation email is on its way. No account, no platform fee.",
    ),
    (
        "What if we need to cancel?",
        "Our cancellation terms are on the [booking policies](/booking-policies) page: the earlier you cancel, "
        "the more is refunded, and the city tax is always refunded in full. Cancel yourself from the link in your "
        "confirmation email: the page tells you the refund before you confirm, and it goes back to your card at once.",
    ),
    (
        "Is the Wi-Fi good enough to work?",
        "Yes: fibre broadband, a dedicated desk in the living room and air conditioning in every room. Guests "
        "regularly stay a week or two and work from here; longer stays get a discount.",
    ),
    (
        "Can we arrive early or leave late?",
        "Often, yes — it depends on whether other guests leave or arrive that day. Ask us a few days ahead. "
        "If the apartment is not ready, you can leave your luggage with us and go for lunch.",
    ),
    ("Which languages do you speak?", "Giulia speaks Italian, English and French, and is happy to help with restaurant bookings in any of them."),
    (
        "Can an AI assistant book for me?",
        "Yes. Our booking system has a public API and an MCP tool server, so an AI assistant can check dates, "
        "show you the price and prepare a payment link for you. You always pay yourself, on the same secure "
        "page. Developers can read more on the [page for AI agents](/agents).",
    ),
]

FLORENCE_ARTICLE = """\
Florence rewards the unhurried. The city is small — you can cross the historic centre on foot in half
an hour — but it is dense with things worth standing still for. Here is how we would spend three days,
with a little room left over for a long lunch.

## Day one: the cathedral and the market

Start early at the **Duomo**. The cathedral itself is free to enter, but the climb up **Brunelleschi's
dome** — 463 steps between the inner and outer shells — needs a timed ticket, so book it a few days
ahead. The reward is the view, and a close look at Vasari's *Last Judgement* on the way up. If you
prefer your climbs with the dome in the picture, **Giotto's bell tower** next door has 414 steps and
no timed entry.

Don't skip the **Museo dell'Opera del Duomo** behind the cathedral. It holds the original panels of
Ghiberti's *Gates of Paradise*, Donatello's haunting *Mary Magdalene* and the *Pietà* Michelangelo
carved for his own tomb. It is rarely crowded.

For lunch, walk five minutes to the **Mercato Centrale** in San Lorenzo: the ground floor is a working
food market, the upper floor a hall of counters where you can eat anything from *lampredotto* to
fresh pasta. Spend the afternoon at the **Medici Chapels**, then end the day on the other side of the
river (see day two) or simply on our terrace, watching the dome change colour.

## Day two: the Uffizi and the Oltrarno

Book the first slot of the morning at the **Uffizi**. Go straight to the Botticelli rooms before the
groups arrive, then take your time: Leonardo, Michelangelo's *Doni Tondo*, Caravaggio, and the
windows over the Arno that are a painting in themselves.

Cross the **Ponte Vecchio** into the **Oltrarno**, the artisans' side of the river. Wander the streets
around **Santo Spirito**, where bookbinders, framers and restorers still work with their doors open.
The **Boboli Gardens** behind Palazzo Pitti are the place for an afternoon walk; climb to the top for
the view back over the city.

At sunset, walk up to **San Miniato al Monte**, above Piazzale Michelangelo. It is one of the most
beautiful Romanesque churches in Italy, and in the early evening the monks sing vespers in Gregorian
chant (check the times at the door). Then come down for an *aperitivo* in Piazza Santo Spirito.

## Day three: David, Donatello and Santa Croce

Michelangelo's **David** lives at the **Galleria dell'Accademia**, and he is worth the queue — which a
timed ticket spares you. If you have seen him before, give the morning instead to the **Bargello**, the
sculpture museum, where Donatello's bronze *David* and Michelangelo's early *Bacchus* share a courtyard
palace with far fewer visitors. Close by, the cells of the **convent of San Marco** are painted with
Fra Angelico's frescoes, one in each monk's room.

Keep the afternoon for our own neighbourhood: the Basilica of **Santa Croce**, the leather school in
its cloister and a gelato at Vivoli. Our [guide to Santa Croce](/blog/santa-croce-neighbourhood-guide)
has the details.

## Practical notes

- Most state museums — the Uffizi and the Accademia among them — **close on Mondays**. Plan around it.
- Book timed tickets for the dome, the Uffizi and the Accademia before you travel; everything else can
  be decided on the day.
- Florence has public drinking fountains, some of them with sparkling water. Bring a bottle.
- Churches ask for covered shoulders and knees. A light scarf in your bag solves it.
"""

SANTA_CROCE_ARTICLE = """\
Most visitors meet Santa Croce for an hour: they see the basilica, cross the piazza and move on. Stay
in the neighbourhood and it becomes something else — the part of the historic centre where Florentines
still shop, argue, eat and go to the theatre. Here is our corner of it.

## The basilica

The **Basilica di Santa Croce** is the largest Franciscan church in the world and the resting place of
the people who made Italy: Michelangelo, Galileo, Machiavelli and Rossini are buried here, and Dante —
whom Florence exiled — has a monument waiting for him. Look for **Giotto's frescoes** in the Bardi and
Peruzzi chapels to the right of the altar, and don't miss **Brunelleschi's Pazzi Chapel** in the first
cloister, a small, perfectly proportioned room that is one of the first buildings of the Renaissance.

Behind the basilica, in what were once the friars' dormitories, the **Scuola del Cuoio** has been
teaching leatherwork since just after the Second World War. You can watch the artisans at their
benches and buy directly from the workshop.

## The piazza

**Piazza Santa Croce** is one of the great squares of Florence, and every June it turns into a sand
arena for the **Calcio Storico**, a brutal Renaissance mix of football, rugby and wrestling played in
costume between the four historic quarters. The final is on 24 June, the feast of Saint John, the
city's patron. Tickets are scarce; the noise carries to our terrace anyway.

In the streets around the square, look up for the small marble plaques marking how high the Arno rose
in the **flood of 4 November 1966**. Santa Croce, low and close to the river, was hit hardest; some of
the marks are above your head.

## The market

Five minutes from the door, the **Mercato di Sant'Ambrogio** is where the neighbourhood does its
shopping, every morning except Sunday. Farmers sell vegetables outside, butchers, cheesemongers and a
tiny, always-full lunch counter work inside the iron hall. Go hungry and go early. Across the road,
the **Cibrèo** family of restaurants has been feeding the quarter for decades, from the formal
restaurant to the cheerful trattoria.

## Gelato, books and a view

- **Vivoli**, in a lane off Via Ghibellina, is one of the oldest gelato makers in the city. Try the
  *affogato*: gelato drowned in espresso.
- **Casa Buonarroti**, three minutes away on Via Ghibellina, was the house of Michelangelo's family. It
  keeps two marble reliefs he carved as a teenager, and almost nobody visits.
- The **Biblioteca delle Oblate**, a public library in a former convent on Via dell'Oriuolo, has a
  café on its upper loggia with one of the best free views of the Duomo in town.
- The green copper dome you see from our terrace belongs to the **Great Synagogue** of Florence, a
  short walk beyond the market, with a museum of the city's Jewish history.

## Evenings

For an *aperitivo*, Via de' Benci and the streets around Sant'Ambrogio fill up from seven. For
something more formal, the **Teatro della Pergola**, one of the oldest theatres in Italy, is a
ten-minute walk. And for the best table in the neighbourhood, we are biased: carry dinner up to the
terrace and watch the lights come on around the dome.
"""

ARRIVAL_ARTICLE = """\
Arriving in a new city after a journey is the moment things go wrong — so here is everything we tell
our guests, route by route, down to the last hundred metres.

## From Florence airport (FLR)

Florence's own airport, Amerigo Vespucci (also called Peretola), is only a few kilometres from the
centre.

- **Tram T2** leaves from outside the terminal and runs to the *Unità* stop next to Santa Maria
  Novella station in about twenty minutes. Buy the ticket at the machine before boarding. From there,
  take a taxi or walk (see below).
- **Taxi**: the rank is outside arrivals and the ride to our door takes twenty to twenty-five minutes.
  Taxis from the airport to the centre charge a flat fare; ask the driver to confirm it before you set
  off.

## From Pisa airport (PSA)

Many international flights land in Pisa. Take the **PisaMover** shuttle from the terminal to Pisa
Centrale station (five minutes), then a regional train to **Firenze Santa Maria Novella**. Trains run
several times an hour and take around an hour. You do not need to book regional trains in advance, but
the ticket is for a route, not a seat.

## From Bologna airport (BLQ)

The **Marconi Express** monorail links the airport with Bologna Centrale, and high-speed trains reach
Florence in about forty minutes. It is often the quickest way in from northern Europe.

## By train

Almost every train stops at **Firenze Santa Maria Novella** (SMN), the main station. From there:

- **Taxi**: the rank is on the left as you leave the platforms. Ten to fifteen minutes to our door.
- **On foot**: about twenty-five minutes across the centre, past the Duomo. It is a beautiful walk, but
  the streets are paved with stone slabs that suitcase wheels dislike.

## By car: mind the ZTL

The historic centre is a **Zona a Traffico Limitato**: cameras at every entrance photograph the plates
of cars without a permit, and the fine reaches you — through the rental company, with a handling fee —
months after your holiday. Satellite navigation will happily route you through it. Please don't
drive to our door. When you book a stay with a car, we send directions to a public garage just outside
the zone, a ten-minute walk away.

## The last hundred metres

Send us your arrival time a day or two ahead, and Giulia will meet you at the street door on Via dei
Pepi. A lift takes you to the fifth floor; the terrace level is one flight of stairs above, and we are
glad to help with the bags. Check-in and check-out times are on the [booking
policies](/booking-policies) page; if you land early, we can usually keep your luggage while you go for
lunch.

## Good to know on arrival

- **Bring an ID** for every guest, children included: Italian law requires us to register each guest
  with the police on arrival. It takes two minutes.
- **The city tax** is already included in what you paid when you booked.
- **Tap water** in Florence is safe to drink.
- Italian sockets take two-pin round plugs (types F and L). We keep a couple of adapters in the
  apartment.
- The European emergency number **112** works everywhere in Italy; the nearest pharmacy is a few
  minutes' walk, and we leave a list of late-opening ones in the kitchen.

Safe travels — we look forward to welcoming you.
"""

WINTER_DRAFT = """\
From November to early March, Florence belongs to Florentines again. This article is a draft: it will
cover the quiet season — the Christmas market in Santa Croce, roasted chestnuts, empty museum rooms and
the best *ribollita* in the neighbourhood.
"""

ARTICLES = [
    {
        "slug": "three-slow-days-in-florence",
        "title": "Three slow days in Florence",
        "summary": "How we would spend three days in Florence: the Duomo and its museum, the Uffizi and the Oltrarno, David, Donatello and our own Santa Croce — with time for lunch.",
        "body": FLORENCE_ARTICLE,
        "cover_static_path": "img/blog/florence.svg",
        "cover_alt": "The skyline of Florence at dusk: the dome of the cathedral, Giotto's bell tower and the tower of Palazzo Vecchio above the Arno",
        "published": datetime(2026, 9, 14, 9, 0, tzinfo=ROME),
    },
    {
        "slug": "santa-croce-neighbourhood-guide",
        "title": "Santa Croce: a guide to our neighbourhood",
        "summary": "The basilica of Michelangelo and Galileo, the Sant'Ambrogio market, the oldest gelato in town and a library café with a view of the Duomo — all within a few minutes of our door.",
        "body": SANTA_CROCE_ARTICLE,
        "cover_static_path": "img/blog/santa-croce.svg",
        "cover_alt": "The white and green marble façade of the Basilica di Santa Croce on its wide piazza",
        "published": datetime(2026, 10, 5, 9, 0, tzinfo=ROME),
    },
    {
        "slug": "arriving-in-florence",
        "title": "Arriving in Florence: airport, station and the last hundred metres",
        "summary": "From Florence, Pisa or Bologna airport, by train or by car (mind the ZTL): how to reach the penthouse without stress, and what to bring on arrival.",
        "body": ARRIVAL_ARTICLE,
        "cover_static_path": "img/blog/arrival.svg",
        "cover_alt": "A tram and a suitcase in front of Santa Maria Novella station",
        "published": datetime(2026, 10, 26, 9, 0, tzinfo=ROME),
    },
]


def load() -> bool:
    """Create whatever demo content is missing. Returns whether anything was created."""
    created = False
    now = timezone.now()
    # The English texts go into the English fields whatever language happens to be active.
    with transaction.atomic(), translation.override("en"):
        existing_pages = set(PageText.objects.values_list("key", flat=True))
        for key, text in PAGES.items():
            if key not in existing_pages:
                PageText.objects.create(key=key, **english(text))
                created = True
        if not FaqEntry.objects.exists():
            FaqEntry.objects.bulk_create(
                FaqEntry(question_en=question, answer_en=answer, position=(index + 1) * 10) for index, (question, answer) in enumerate(FAQ)
            )
            created = True
        if not BlogPost.objects.exists():
            for index, article in enumerate(ARTICLES):
                # On a machine whose clock is behind the demo's dates, the articles still show.
                published = min(article["published"], now - timedelta(days=len(ARTICLES) - index))
                BlogPost.objects.create(
                    slug=article["slug"],
                    title_en=article["title"],
                    summary_en=article["summary"],
                    body_en=article["body"],
                    cover_static_path=article["cover_static_path"],
                    cover_alt_en=article["cover_alt"],
                    status=BlogPost.Status.PUBLISHED,
                    published_at=published,
                    created_at=published,
                )
            BlogPost.objects.create(
                slug="florence-in-winter",
                title_en="Florence in winter: the quiet season",
                summary_en="Why November to March may be the best time to visit Florence.",
                body_en=WINTER_DRAFT,
                status=BlogPost.Status.DRAFT,
            )
            created = True
        created |= load_translations()
    return created


def english(text: dict) -> dict:
    return {f"{field}_en": value for field, value in text.items()}


def load_translations() -> bool:
    """Fill the Italian, German and French fields of the demo texts that are still the demo's own
    (English unchanged) and not yet translated: an owner's edit or translation is never replaced."""
    changed = False
    for language, pages in translated.PAGES.items():
        for key, fields in pages.items():
            page = PageText.objects.filter(key=key, title_en=PAGES[key]["title"]).first()
            changed |= page is not None and fill(page, fields, language)
    english_faq = dict(FAQ)
    for language, entries in translated.FAQ.items():
        by_question = {question: (question_t, answer_t) for (question, _answer), (question_t, answer_t) in zip(FAQ, entries, strict=True)}
        for entry in FaqEntry.objects.filter(question_en__in=list(by_question)):
            if entry.answer_en != english_faq[entry.question_en]:
                continue
            question_t, answer_t = by_question[entry.question_en]
            changed |= fill(entry, {"question": question_t, "answer": answer_t}, language)
    demo_articles = {article["slug"]: article for article in ARTICLES}
    for slug, languages in translated.ARTICLES.items():
        post = BlogPost.objects.filter(slug=slug, title_en=demo_articles[slug]["title"]).first()
        for language, fields in languages.items():
            changed |= post is not None and fill(post, fields, language)
    return changed


def fill(row, fields: dict, language: str) -> bool:
    """Set the empty `<field>_<language>` columns of a row; True if any was set."""
    empty = {f"{field}_{language}": value for field, value in fields.items() if value and not getattr(row, f"{field}_{language}")}
    for name, value in empty.items():
        setattr(row, name, value)
    if empty:
        row.save(update_fields=list(empty))
    return bool(empty)
