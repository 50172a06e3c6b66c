"""Online check-in at {manage link}/check-in (booking/italy/checkin.py does the work).

GET shows the form for every guest of the stay, phone-first; POST submits it (HTML); PUT takes the
same data as JSON and answers the stored check-in, or 422 naming each bad field. The manage token
is the credential, as for the manage page (pages/manage.py), and the answer never shows a document
number in full. `/check-in/comuni?q=` answers the comuni typeahead.

Countries are chosen by name in the reader's language (booking/italy/countries.py) and submitted
as their code. A form sent back with errors keeps every field; the document number, which is never
echoed, is kept for an hour in the cache under a random key the form carries (`document_kept`), so
the guest does not type it again.
"""

import json
import re
import secrets

from django.core.cache import cache
from django.http import HttpResponseRedirect, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_http_methods, require_safe

from booking.errors import BookingError, InvalidInput, fields_at
from booking.italy import checkin
from booking.italy.countries import country_choices
from booking.italy.models import Guest
from booking.italy.party_form import payload_from_form, stored_number
from booking.italy.tables import tables
from booking.reservations.models import Reservation
from pages import seo
from pages.i18n import lang_path
from pages.manage import manage_page, with_a_form

KEPT_NUMBER_SECONDS = 3600
KEPT_KEY = re.compile(r"[A-Za-z0-9_-]{22}")


@csrf_exempt  # PUT carries JSON with the token in its path (no cookie); POST is checked below
@sensitive_post_parameters("g0-document_number")  # never in an error report
@require_http_methods(["GET", "HEAD", "POST", "PUT"])
@manage_page
def check_in(request, reservation: Reservation):
    if request.method == "PUT":
        return put_json(request, reservation)
    return form(request, reservation)


def put_json(request, reservation: Reservation) -> JsonResponse:
    if request.content_type != "application/json":
        return JsonResponse(InvalidInput.single(["body"], "Send the check-in as JSON (Content-Type: application/json).", "json_type").as_body(), status=422)
    try:
        body = json.loads(request.body or b"null")
    except ValueError:
        return JsonResponse(InvalidInput.single(["body"], "The body is not valid JSON.", "json_invalid").as_body(), status=422)
    try:
        with fields_at("body"):  # the service names the check-in's fields; they came in the body
            stored = checkin.save_check_in(reservation, body)
    except BookingError as error:
        return JsonResponse(error.as_body(), status=error.status)
    return JsonResponse(checkin.present(reservation, checkin.check_in_for(stored.reservation)))


@csrf_protect
def form(request, reservation: Reservation):
    existing = checkin.check_in_for(reservation)
    context = context_for(request, reservation, existing)
    if request.method != "POST":
        context["guests"] = guest_rows(reservation, existing, None, {})
        return with_a_form(render(request, "pages/check_in.html", context))
    kept_number = _kept_number(reservation, request.POST.get("document_kept", ""))
    payload = payload_from_form(request.POST, reservation.guests, existing, kept_number=kept_number)
    try:
        checkin.save_check_in(reservation, payload)
    except InvalidInput as error:
        errors = {problem.field: problem.msg for problem in error.problems}
        context["document_kept"] = key = _keep_number(reservation, payload, errors, stored=stored_number(existing))
        kept = payload["guests"][0]["document"]["number"] if key else stored_number(existing)
        context.update(guests=guest_rows(reservation, existing, payload, errors, kept=kept), errors=errors, party=payload.get("party"))
        context["general_errors"] = [msg for loc, msg in errors.items() if len(loc) <= 1]
        return with_a_form(render(request, "pages/check_in.html", context, status=422))
    except BookingError as error:
        context.update(guests=guest_rows(reservation, existing, payload, {}, kept=stored_number(existing)), general_errors=[error.detail])
        return with_a_form(render(request, "pages/check_in.html", context, status=error.status))
    return HttpResponseRedirect(lang_path(f"/manage/{reservation.manage_token}") + "?checked_in=1", status=303)


def _kept_number(reservation: Reservation, key: str) -> str:
    """The number typed before a validation error, kept under the key the form carries; read once
    (kept again under a new key if the form comes back with errors again)."""
    if not KEPT_KEY.fullmatch(key):
        return ""
    number = cache.get(f"check-in-number:{reservation.pk}:{key}", "")
    cache.delete(f"check-in-number:{reservation.pk}:{key}")
    return number


def _keep_number(reservation: Reservation, payload: dict, errors: dict, *, stored: str) -> str:
    """Keep a well-formed number typed with other errors (not the one already stored); return the
    key for the form."""
    document = (payload["guests"][0].get("document") or {}) if payload["guests"] else {}
    number = document.get("number", "")
    if not number or number == stored or any(loc[:4] == ("guests", 0, "document", "number") for loc in errors):
        return ""
    key = secrets.token_urlsafe(16)
    cache.set(f"check-in-number:{reservation.pk}:{key}", number, KEPT_NUMBER_SECONDS)
    return key


def guest_rows(reservation: Reservation, existing, payload, errors: dict, *, kept: str = "") -> list[dict]:
    """Each guest's fields as stored, or as sent back with errors; the document number never in
    full, and after errors only the one that is kept (`kept`) if the field is left empty."""
    stored = {g.position: checkin.present_guest(g) for g in existing.guests.all()} if existing else {}
    given = payload["guests"] if payload else []
    rows = []
    for index in range(reservation.guests):
        values = dict(given[index]) if index < len(given) else dict(stored.get(index, {}))
        document = values.pop("document", None) or {}
        if payload and document:
            document = {**document, "number": checkin.masked(kept)}
        guest_errors = {"_".join(str(p) for p in loc[2:]): msg for loc, msg in errors.items() if loc[:2] == ("guests", index)}
        if "document" in guest_errors:  # the whole document missing: shown at its first field
            guest_errors.setdefault("document_type", guest_errors.pop("document"))
        rows.append({"index": index, "values": {k: v or "" for k, v in values.items()}, "document": document, "errors": guest_errors})
    return rows


def context_for(request, reservation: Reservation, existing) -> dict:
    return {
        "meta": seo.PageMeta(title=_("Online check-in"), description=_("Your booking."), path=request.path, noindex=True),
        "reservation": reservation,
        "property": reservation.property,
        "manage_path": lang_path(f"/manage/{reservation.manage_token}"),
        "check_in_path": lang_path(f"/manage/{reservation.manage_token}/check-in"),
        "open": checkin.check_in_open(reservation),
        "existing": existing,
        "party": existing.party if existing else "family",
        "countries": country_choices(),
        "sexes": Guest.Sex.choices,
        "document_types": Guest.DocumentType.choices,
        "errors": {},
        "general_errors": [],
        "document_kept": "",
    }


@require_safe
@manage_page
def comuni(request, reservation: Reservation) -> JsonResponse:
    found = tables().search_comuni(request.GET.get("q", ""))
    return JsonResponse({"comuni": [{"name": c.name.title(), "province": c.province} for c in found]})
