"""The website: thin views over booking's read side and the owner's page texts.

Property facts come from presenters.property_json, the very body GET /api/v1/property serves, so a
price, a rule or a review never says one thing on the site and another to an agent.
"""

import logging
from datetime import date
from functools import wraps
from itertools import groupby
from pathlib import Path

from django.conf import settings
from django.core.exceptions import SuspiciousFileOperation
from django.core.files.storage import default_storage
from django.core.paginator import Paginator
from django.db import InterfaceError, OperationalError
from django.http import Http404, HttpResponse, HttpResponsePermanentRedirect, HttpResponseRedirect, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import Resolver404, resolve, reverse
from django.utils.cache import patch_cache_control
from django.utils.crypto import constant_time_compare
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe
from django.views.static import serve

from booking.api import own_holds, presenters
from booking.api.validation import BlogSlugPath, ReservationPath, return_url_problem, validate
from booking.callers import client_ip
from booking.catalog import breakdown_words, pricing
from booking.catalog.models import Extra, Property
from booking.catalog.rules import rules_for
from booking.catalog.selectors import get_property, today
from booking.errors import InvalidInput, NotFound
from booking.formatting import format_date
from booking.italy.models import ItalySettings
from booking.payments.return_hosts import CONTINUE_PARAMETER, onward_link
from booking.reservations.services.reservations import get_reservation
from pages import i18n, listing_words, seo
from pages.booking_text import booking_text, cancelled_checkout, explain_stay_link
from pages.forms import ContactForm
from pages.hold_reminders import resumed_notice
from pages.holds import holds_on_book, keep_cookie
from pages.inquiries import TooManyInquiries, count_inquiry, submit_inquiry
from pages.models import BlogPost, FaqEntry, PageKey, PageText
from pages.rendering import render_markdown

logger = logging.getLogger(__name__)

BLOG_PAGE_SIZE = 10


# --- Shared helpers ----------------------------------------------------------------------------


def page_text(key: PageKey) -> PageText:
    """The owner's words for a page; an unsaved default (its title only) when none were written."""
    return PageText.objects.filter(key=key).first() or PageText(key=key, title=str(PageKey(key).label))


def brand_name(prop: Property) -> str:
    """ "Casa Example — Apartment by the sea" → "Casa Example": the short name."""
    return prop.name.split(" — ")[0].strip() or prop.name


def site_page(view):
    """Pages need a property; before the owner sets one up, say so instead of failing."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        try:
            prop = get_property()
            listing = listing_words.in_reader_language(presenters.property_json(prop, rules_for(prop)), prop)
        except NotFound:
            return render(request, "pages/not_configured.html", status=503)
        except (OperationalError, InterfaceError):
            # The database is down or unreachable: say so (503, as the API does), not a bare 500.
            logger.exception("database unavailable while rendering %s", request.path)
            return render(request, "pages/unavailable.html", status=503)
        return view(request, prop, listing, *args, **kwargs)

    return wrapper


def local_photos(listing: dict, prop: Property) -> list[dict]:
    """The API's photos with site-relative URLs, so images load whatever host the page came from,
    and what a <picture> needs besides: an uploaded photo's sized copies (`srcset_webp`,
    `srcset_jpeg`), a middle-sized `src`, its shape (`width`, `height`) and the largest copy for the
    lightbox (`full_url`, `full_webp`). The demo's SVG illustrations have no copies: their one URL
    serves every size. The uploaded original (with its metadata) is never linked."""
    stored = {photo.url: photo for photo in prop.photos.all()}
    shown = []
    for photo in listing["photos"]:
        url = photo["url"].removeprefix(settings.BASE_URL)
        record = stored.get(url)
        sized = record.renditions if record is not None else []
        width, height = record.display_size if record is not None else (1200, 800)
        shown.append(
            {
                **photo,
                "url": url,
                "src": default_storage.url(sized[len(sized) // 2]["jpeg"]) if sized else url,
                "width": width,
                "height": height,
                "srcset_jpeg": record.srcset_jpeg if sized else "",
                "srcset_webp": record.srcset_webp if sized else "",
                "full_url": default_storage.url(sized[-1]["jpeg"]) if sized else url,
                "full_webp": default_storage.url(sized[-1]["webp"]) if sized else "",
            }
        )
    return shown


def paragraphs(text: str) -> list[str]:
    return [block.strip() for block in text.replace("\r\n", "\n").split("\n\n") if block.strip()]


def lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()]


def meta_for(page: PageText, path: str, *, fallback_description: str, title: str | None = None, **extra) -> seo.PageMeta:
    return seo.PageMeta(
        title=title or page.title,
        description=page.meta_description or page.intro or fallback_description,
        path=path,
        **extra,
    )


def crumbs(*trail: tuple[str, str]) -> dict:
    return seo.breadcrumbs((_("Home"), reverse("pages:home")), *trail)


def booking_config(listing: dict, request) -> dict:
    """What the date picker needs besides the calendar feed: read by static/js/booking.js."""
    rules = listing["pricing_rules"]
    cancel_url = settings.BASE_URL + i18n.lang_path("/book")
    prop = get_property()
    return {
        "today": today().isoformat(),
        "currency": rules["currency"],
        "maxGuests": listing["capacity"]["max_guests"],
        "maxNights": rules["max_nights"],
        "bookingWindowDays": rules["booking_window_days"],
        "holdMinutes": listing["policies"]["hold_minutes"],
        "cityTaxExemptUnderAge": rules["city_tax"]["exempt_under_age"],
        # The quote's labels come from the API in English: these are the page's language.
        "cleaningFeeLabel": breakdown_words.cleaning_fee_label(prop),
        "cityTaxNote": breakdown_words.city_tax_text(breakdown_words.property_city_tax_terms(prop)),
        # When the refundable security deposit is held and released (the quote carries its amount).
        "securityDeposit": {"daysBefore": prop.security_deposit_days_before, "releaseDays": prop.security_deposit_release_days},
        # A stay chosen on /availability (or in a shared link) arrives preselected; the script
        # checks it against the calendar and ignores anything that does not fit.
        "initial": {
            **{name: request.GET.get(name, "")[:10] for name in ("check_in", "check_out", "guests", "currency")},
            "children_ages": request.GET.get("children_ages", "")[:60],
            # "CODE" and "code:quantity,…" (a lapsed hold resumed from its reminder email).
            "promo_code": request.GET.get("promo_code", "")[:40],
            "extras": request.GET.get("extras", "")[:300],
        },
        # The owner's display currencies (units per EUR): the quote is shown in one of them, the
        # charge stays in the property's currency.
        "currencies": {rules["currency"]: 1, **rules["display_currencies"]},
        "endpoints": {
            "calendar": "/api/v1/calendar",
            "quote": "/api/v1/quote",
            "checkoutLink": "/api/v1/payments/checkout-link",
            "remind": "/book/remind",
        },
        # Money and dates in the page's language (Intl), and, off English, the way back to the
        # thank-you page in that language: the stay (and its emails) then keep the language.
        "locale": i18n.LOCALES[i18n.current_language()].replace("_", "-"),
        "text": booking_text(),
        "returnUrls": ({"success_url": settings.BASE_URL + i18n.lang_path("/thank-you")} if i18n.current_language() != settings.LANGUAGE_CODE else None),
        # Back from the payment page without paying: /book with the stay and the party in the query,
        # so the guest finds them kept (the script adds the query; the provider adds reservation_id).
        # (Only an address the API accepts as a return URL: else the provider's default, /book
        # with the reservation id, from which the page takes the dates and guests.)
        "cancelUrl": None if return_url_problem(cancel_url) else cancel_url,
        "releaseHold": None,
    }


# --- Pages -------------------------------------------------------------------------------------


@require_safe
@site_page
def home(request, prop, listing):
    page = page_text(PageKey.HOME)
    meta = meta_for(
        page,
        reverse("pages:home"),
        title=f"{brand_name(prop)} — {page.title}" if page.pk else f"{prop.name}",
        fallback_description=listing["summary"],
        image=seo.share_image(prop),
        json_ld=[seo.vacation_rental(listing), seo.website(brand_name(prop))],
    )
    return render(
        request,
        "pages/home.html",
        {
            "meta": meta,
            "page": page,
            "listing": listing,
            "photos": local_photos(listing, prop),
            "reviews": listing["reviews"]["items"][:3],
            "posts": BlogPost.objects.public()[:3],
            "from_rate": lowest_rate(listing),
            "property_path": property_path(prop),
            "location_intro": page_text(PageKey.LOCATION).intro,
        },
    )


def lowest_rate(listing: dict) -> float:
    rules = listing["pricing_rules"]
    rates = [rules["base_nightly_rate"], *(s["nightly_rate"] for s in rules["seasons"])]
    return min(rates)


def property_path(prop: Property) -> str:
    """The property's page in the current language: /{slug}, /it/{slug}, …"""
    return reverse("pages:property", kwargs={"slug": prop.slug})


def is_property_slug(slug: str) -> bool:
    try:
        return get_property().slug == slug
    except NotFound:
        return False
    except (OperationalError, InterfaceError):
        return True  # the page itself says that the database is unreachable (site_page)


def no_such_page(request):
    """A slug that is not the property's: the site's 404 page. A path that is a page with a slash
    (the back office's /admin) is sent there, as APPEND_SLASH did before the property's route
    matched every slug."""
    try:
        with_slash = resolve(request.path_info + "/")
    except Resolver404:
        with_slash = None
    if with_slash is not None and with_slash.func is not property_page_with_slash:
        return HttpResponsePermanentRedirect(request.get_full_path(force_append_slash=True))
    raise Http404("No such page.")


def property_page(request, slug: str):
    """/{slug}: the property's page at its own slug; any other slug is no page of this site."""
    if not is_property_slug(slug):
        return no_such_page(request)
    return _property_page(request)


def property_page_with_slash(request, slug: str):
    """/{slug}/ → /{slug} for the property's slug; any other slug is no page."""
    if not is_property_slug(slug):
        raise Http404("No such page.")
    return remove_trailing_slash(request, slug)


@require_safe
@site_page
def _property_page(request, prop, listing):
    page = page_text(PageKey.PROPERTY)
    path = property_path(prop)
    amenities = [
        (category or "Other", [a["name"] for a in group])
        for category, group in groupby(sorted(listing["amenities"], key=lambda a: a["category"] or "Other"), key=lambda a: a["category"])
    ]
    meta = meta_for(
        page,
        path,
        title=listing["name"],
        fallback_description=listing["summary"],
        image=seo.share_image(prop),
        json_ld=[seo.vacation_rental(listing), crumbs((page.title, path))],
    )
    return render(
        request,
        "pages/property.html",
        {
            "meta": meta,
            "page": page,
            "listing": listing,
            "photos": local_photos(listing, prop),
            "description": paragraphs(listing["description"]),
            "amenities": amenities,
        },
    )


def season_day(value: str) -> str:
    """ "04-15" (a yearly season) → "15 Apr", "15 apr", "15. Apr.", "15 avr."; "2027-04-15" (a
    one-off) → "15 Apr 2027" (the year of a yearly day is a leap year's, so 29 Feb reads)."""
    parts = [int(part) for part in value.split("-")]
    if len(parts) == 2:
        return format_date(date(2000, parts[0], parts[1]), "j M")
    return format_date(date(parts[0], parts[1], parts[2]), "j M Y")


def season_rows(rules: dict) -> list[dict]:
    """The seasons of the API's pricing rules, in calendar order, for the rates table."""
    rows = []
    for season in sorted(rules["seasons"], key=lambda s: (not s["recurring_yearly"], s["start"])):
        rows.append(
            {
                "name": season["name"],
                "dates": f"{season_day(season['start'])} – {season_day(season['end'])}" + ("" if season["recurring_yearly"] else " " + _("(this time only)")),
                "nightly_rate": season["nightly_rate"],
                "weekend_rate": season["weekend_nightly_rate"] if season["weekend_nightly_rate"] is not None else season["nightly_rate"],
                "min_nights": season["min_nights"] or rules["min_nights"],
            }
        )
    return rows


@require_safe
@site_page
def availability(request, prop, listing):
    page = page_text(PageKey.AVAILABILITY)
    path = reverse("pages:availability")
    meta = meta_for(
        page,
        path,
        fallback_description=_("Live availability and nightly prices of %(name)s.") % {"name": listing["name"]},
        json_ld=[crumbs((page.title, path))],
    )
    return render(
        request,
        "pages/availability.html",
        {
            "meta": meta,
            "page": page,
            "listing": listing,
            "rules": listing["pricing_rules"],
            "seasons": season_rows(listing["pricing_rules"]),
            "booking_config": booking_config(listing, request),
            "link_problem": explain_stay_link(
                request.GET,
                max_guests=listing["capacity"]["max_guests"],
                max_nights=listing["pricing_rules"]["max_nights"],
                booking_window_days=listing["pricing_rules"]["booking_window_days"],
            ),
            "guest_choices": range(1, listing["capacity"]["max_guests"] + 1),
            "child_choices": range(0, listing["capacity"]["max_guests"]),
            "picker_mode": "browse",
        },
    )


@require_safe
@site_page
def reviews(request, prop, listing):
    page = page_text(PageKey.REVIEWS)
    path = reverse("pages:reviews")
    items = listing["reviews"]["items"]
    distribution = [(stars, sum(1 for r in items if r["rating"] == stars)) for stars in range(5, 0, -1)]
    meta = meta_for(
        page,
        path,
        fallback_description=_("What guests say about %(name)s.") % {"name": listing["name"]},
        json_ld=[seo.vacation_rental(listing), crumbs((page.title, path))],
    )
    return render(
        request,
        "pages/reviews.html",
        {
            "meta": meta,
            "page": page,
            "listing": listing,
            "summary": listing["reviews"],
            "distribution": [(stars, count, round(100 * count / len(items)) if items else 0) for stars, count in distribution],
        },
    )


@require_safe
@site_page
def location(request, prop, listing):
    page = page_text(PageKey.LOCATION)
    path = reverse("pages:location")
    coordinates = listing["coordinates"]
    latitude, longitude = seo.coordinate(coordinates["latitude"]), seo.coordinate(coordinates["longitude"])
    meta = meta_for(
        page, path, fallback_description=_("Where %(name)s is and how to get there.") % {"name": listing["name"]}, json_ld=[crumbs((page.title, path))]
    )
    return render(
        request,
        "pages/location.html",
        {
            "meta": meta,
            "page": page,
            "listing": listing,
            "latitude": latitude,
            "longitude": longitude,
            "osm_url": f"https://www.openstreetmap.org/?mlat={latitude}&mlon={longitude}#map=17/{latitude}/{longitude}",
        },
    )


@require_safe
@site_page
def faq(request, prop, listing):
    page = page_text(PageKey.FAQ)
    path = reverse("pages:faq")
    entries = list(FaqEntry.objects.filter(published=True))
    json_ld = [crumbs((page.title, path))]
    if entries:
        json_ld.insert(0, seo.faq_page(entries, render_markdown))
    meta = meta_for(page, path, fallback_description=_("Answers to guests' questions about %(name)s.") % {"name": listing["name"]}, json_ld=json_ld)
    return render(request, "pages/faq.html", {"meta": meta, "page": page, "listing": listing, "entries": entries})


@require_safe
@site_page
def booking_policies(request, prop, listing):
    page = page_text(PageKey.BOOKING_POLICIES)
    path = reverse("pages:booking-policies")
    policies = listing["policies"]
    meta = meta_for(page, path, fallback_description=_("Cancellation, payment, check-in and house rules."), json_ld=[crumbs((page.title, path))])
    return render(
        request,
        "pages/booking_policies.html",
        {
            "meta": meta,
            "page": page,
            "listing": listing,
            "policies": policies,
            "rules": listing["pricing_rules"],
            "cancellation": pricing.policy_lines(rules_for(prop).cancellation_tiers),
            "payment": lines(policies["payment_policy"]),
        },
    )


@require_safe
@site_page
def book(request, prop, listing):
    page = page_text(PageKey.BOOK)
    path = reverse("pages:book")
    meta = meta_for(
        page, path, fallback_description=_("Choose your dates and book %(name)s directly.") % {"name": listing["name"]}, json_ld=[crumbs((page.title, path))]
    )
    config = booking_config(listing, request)
    cancelled = cancelled_checkout(request.GET)
    link_problem = ""
    if cancelled is not None:
        # The stay comes back preselected: from the query the page sent as cancel_url, else from
        # the reservation. Its own unpaid hold (still there with Stripe until it lapses) is
        # released by the script, so the same dates can be booked again at once.
        for name, value in (("check_in", cancelled.check_in.isoformat()), ("check_out", cancelled.check_out.isoformat()), ("guests", str(cancelled.guests))):
            config["initial"][name] = config["initial"][name] or value
        if cancelled.status == cancelled.Status.HELD:
            config["releaseHold"] = cancelled.pk
    else:
        link_problem = explain_stay_link(
            request.GET,
            max_guests=listing["capacity"]["max_guests"],
            max_nights=listing["pricing_rules"]["max_nights"],
            booking_window_days=listing["pricing_rules"]["booking_window_days"],
        )
    own_holds, other_holds = holds_on_book(request, prop, window_days=listing["pricing_rules"]["booking_window_days"], not_mine=config["releaseHold"])
    config["holds"] = [held.for_script() for held in own_holds + other_holds]
    response = render(
        request,
        "pages/book.html",
        {
            "own_holds": own_holds,
            "other_holds": other_holds,
            "meta": meta,
            "page": page,
            "listing": listing,
            "rules": listing["pricing_rules"],
            "booking_config": config,
            "checkout_cancelled": cancelled is not None,
            "onward": onward_link(request.GET.get(CONTINUE_PARAMETER), request.GET.get("reservation_id")),
            "link_problem": link_problem,
            "resumed_notice": resumed_notice(request.GET, link_problem),
            "guest_choices": range(1, listing["capacity"]["max_guests"] + 1),
            "child_choices": range(0, listing["capacity"]["max_guests"]),
            "picker_mode": "book",
            "extras": offered_extras(prop),
        },
    )
    keep_cookie(request, response, own_holds)
    return response


def offered_extras(prop: Property) -> list[dict]:
    """The extras on sale, named in the page's language, for the booking page's choice."""
    language = i18n.current_language()
    return [
        {
            "code": e.code,
            "name": e.name(language),
            "price": e.price,
            "per": Extra.Per(str(e.per)).label,
            "max_quantity": e.max_quantity,
            "quantities": range(0, e.max_quantity + 1),
            "notice_days": e.notice_days,
        }
        for e in rules_for(prop).extras
    ]


@require_http_methods(["GET", "HEAD", "POST"])
@site_page
def contact(request, prop, listing):
    page = page_text(PageKey.CONTACT)
    path = reverse("pages:contact")
    meta = meta_for(
        page,
        path,
        fallback_description=_("Ask %(host)s a question.") % {"host": listing["host"]["name"] or _("the host")},
        json_ld=[crumbs((page.title, path))],
    )
    status = 200
    notice = ""
    form = ContactForm(max_guests=listing["capacity"]["max_guests"])
    if request.method == "POST":
        form = ContactForm(request.POST, max_guests=listing["capacity"]["max_guests"])
        ip = client_ip(request)
        try:
            count_inquiry(ip)
        except TooManyInquiries as limited:
            response = render(
                request,
                "pages/contact.html",
                {
                    "meta": meta,
                    "page": page,
                    "listing": listing,
                    "form": form,
                    "notice": _("You have sent several messages in a short time. Please wait a while, or write to us by email."),
                },
                status=429,
            )
            response["Retry-After"] = str(limited.retry_after)
            return response
        if form.is_bot:
            # Rejected, but with words a person who somehow filled the hidden field can act on.
            status = 400
            notice = _("Your message could not be accepted. Please write to us by email instead.")
        elif form.is_valid():
            submit_inquiry(cleaned=form.cleaned_data, client_ip=ip, prop=prop)
            return HttpResponseRedirect(path + "?sent=1")
        else:
            status = 400
    return render(
        request,
        "pages/contact.html",
        {
            "meta": meta,
            "page": page,
            "listing": listing,
            "form": form,
            "sent": request.method == "GET" and request.GET.get("sent") == "1",
            "notice": notice,
        },
        status=status,
    )


@require_safe
@site_page
def thank_you(request, prop, listing):
    """Where the payment page returns the guest: ?reservation_id=… shows that stay's state.

    The reservation id is the only credential, so the page shows what GET /api/v1/reservations/<id>
    shows: the masked reservation.
    """
    page = page_text(PageKey.THANK_YOU)
    path = reverse("pages:thank-you")
    meta = meta_for(page, path, fallback_description=_("Your booking."), noindex=True)
    reservation_id = request.GET.get("reservation_id", "")
    reservation, problem, manage_url = None, "", ""
    if reservation_id:
        try:
            validate(ReservationPath, {"reservation_id": reservation_id}, "query")
            stay = get_reservation(reservation_id)
            reservation = presenters.reservation_json(stay, mask=True)
            # The manage link lets its holder cancel, so the reservation id alone is not enough:
            # only the payer's browser, sent back with the checkout session id, is shown it.
            session_id = request.GET.get("session_id", "")
            if stay.manage_token and session_id and constant_time_compare(session_id, stay.checkout_session_id):
                manage_url = settings.BASE_URL + i18n.lang_path(f"/manage/{stay.manage_token}")
        except InvalidInput:
            problem = "invalid"
        except NotFound:
            problem = "not_found"
    response = render(
        request,
        "pages/thank_you.html",
        {
            "meta": meta,
            "page": page,
            "listing": listing,
            "policies": listing["policies"],
            "reservation": reservation,
            "problem": problem,
            "manage_url": manage_url,
            "onward": onward_link(request.GET.get(CONTINUE_PARAMETER), reservation_id),
        },
    )
    response["Referrer-Policy"] = "no-referrer"  # the address carries the reservation and session ids
    return response


@require_safe
@site_page
def privacy(request, prop, listing):
    """What the site stores about guests, why, for how long, and their rights (GDPR)."""
    page = page_text(PageKey.PRIVACY)
    path = reverse("pages:privacy")
    meta = meta_for(
        page,
        path,
        title=page.title if page.pk else _("Privacy"),
        fallback_description=_("What we store about you, why, for how long, and your rights."),
        json_ld=[crumbs((page.title, path))],
    )
    return render(
        request,
        "pages/privacy.html",
        {
            "meta": meta,
            "page": page,
            "listing": listing,
            "hold_minutes": listing["policies"]["hold_minutes"],
            "own_holds_cookie": own_holds.COOKIE,
            "own_holds_minutes": own_holds.MAX_AGE_SECONDS // 60,
            "own_holds_kept": own_holds.KEPT,
            "contact_email": prop.contact_email,
            "document_retention_days": ItalySettings.read(prop).document_retention_days,
        },
    )


@require_safe
@site_page
def blog_index(request, prop, listing):
    page = page_text(PageKey.BLOG)
    path = reverse("pages:blog")
    posts = Paginator(BlogPost.objects.public(), BLOG_PAGE_SIZE).get_page(request.GET.get("page"))
    meta = meta_for(
        page,
        path,
        fallback_description=_("Stories and advice from %(host)s.") % {"host": listing["host"]["name"] or _("the host")},
        json_ld=[crumbs((page.title, path))],
    )
    return render(request, "pages/blog_index.html", {"meta": meta, "page": page, "listing": listing, "posts": posts})


@require_safe
def blog_post(request, slug: str):
    try:
        validate(BlogSlugPath, {"slug": slug}, "path")
    except InvalidInput as invalid:
        return JsonResponse(invalid.as_body(), status=422)
    return _blog_post(request, slug)


@site_page
def _blog_post(request, prop, listing, slug: str):
    post = get_object_or_404(BlogPost.objects.public(), slug=slug)
    blog = page_text(PageKey.BLOG)
    path = post.get_absolute_url()
    author = post.author or listing["host"]["name"] or brand_name(prop)
    meta = seo.PageMeta(
        title=post.title,
        description=post.summary,
        path=path,
        image=post.cover_url,
        og_type="article",
        json_ld=[
            seo.blog_posting(post, author_name=author, publisher_name=brand_name(prop)),
            crumbs((blog.title, reverse("pages:blog")), (post.title, path)),
        ],
    )
    more = BlogPost.objects.public().exclude(pk=post.pk)[:2]
    request.translated_languages = post.translated_languages()  # hreflang claims only these (pages/i18n.py)
    return render(request, "pages/blog_post.html", {"meta": meta, "listing": listing, "post": post, "author": author, "blog": blog, "more": more})


# --- Files for crawlers ------------------------------------------------------------------------

# Crawlers named so that their operators see they are welcome: search engines and AI agents alike.
WELCOMED_CRAWLERS = [
    "Googlebot",
    "Bingbot",
    "DuckDuckBot",
    "Applebot",
    "Applebot-Extended",
    "Google-Extended",
    "GPTBot",
    "OAI-SearchBot",
    "ChatGPT-User",
    "ClaudeBot",
    "Claude-User",
    "Claude-SearchBot",
    "PerplexityBot",
    "Perplexity-User",
    "Amazonbot",
    "CCBot",
    "Meta-ExternalAgent",
]


@require_safe
def robots_txt(request):
    admin = "/" + settings.ADMIN_PATH
    # Each named group repeats the rules: a crawler obeys only the most specific group that names it.
    group = ["Allow: /", f"Disallow: {admin}", "Disallow: /thank-you"] + [
        f"Disallow: /{code}/thank-you" for code in i18n.language_codes() if code != settings.LANGUAGE_CODE
    ]
    body = [
        "# Search engines and AI agents are welcome here.",
        "# Agents can book through the JSON API (see /llms.txt and /.well-known/openapi.json) or MCP at /mcp.",
        "",
        "User-agent: *",
        *group,
        "",
        *[f"User-agent: {name}" for name in WELCOMED_CRAWLERS],
        *group,
        "",
        f"Sitemap: {seo.absolute('/sitemap.xml')}",
        "",
    ]
    return HttpResponse("\n".join(body), content_type="text/plain; charset=utf-8")


# --- Errors and uploads ------------------------------------------------------------------------


def not_found(request, exception=None):
    """The 404 page of the site (config.urls.handler404 sends every non-API 404 here)."""
    meta = seo.PageMeta(title=_("Page not found"), description=_("This page does not exist."), path=request.path, noindex=True)
    return render(request, "404.html", {"meta": meta}, status=404)


def remove_trailing_slash(request, page: str):
    """/faq/ → /faq (and /it/faq/ → /it/faq): the pages have no trailing slash, but people type one."""
    return redirect(request.path.rstrip("/"), permanent=True)


MEDIA_IMMUTABLE_SECONDS = 365 * 24 * 3600
MEDIA_MAX_AGE_SECONDS = 24 * 3600


@require_safe
def media(request, path: str):
    """Files the owner uploaded in the admin (photos, blog covers), from MEDIA_ROOT under DATA_DIR.

    Served by the app so that a one-process install needs no separate web server; django's serve()
    refuses paths that leave MEDIA_ROOT.
    """
    if not Path(settings.MEDIA_ROOT).is_dir():
        raise Http404("No uploads yet.")
    try:
        response = serve(request, path, document_root=settings.MEDIA_ROOT)
    except SuspiciousFileOperation:
        raise Http404("Not an upload.") from None
    # Sized photos and share images are named by their content (booking/catalog/images.py): they never
    # change, so browsers keep them for a year. An original may be replaced under its name: a day.
    immutable = path.startswith(("photos/sized/", "share/"))
    if immutable:
        patch_cache_control(response, public=True, max_age=MEDIA_IMMUTABLE_SECONDS, immutable=True)
    else:
        patch_cache_control(response, public=True, max_age=MEDIA_MAX_AGE_SECONDS)
    return response
