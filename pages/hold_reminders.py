"""The booking page's side of the one reminder of an unfinished booking (booking/reservations/services/hold_reminders.py,
docs/own-holds.md): storing the address the guest gave with the box ticked, and the link in the email.

- POST /book/remind {"reservation_id", "email"}: sent by static/js/booking.js right after the hold,
  before the guest leaves for the payment page. Only for a hold this browser made (its signed
  own-holds cookie, SameSite=Lax: another site's page cannot send it, hence no CSRF token).
- GET /book/resume/<signed token>: a live hold → this browser now owns it (the own-holds cookie) and
  /book shows "held for you until …: continue to payment / release them"; a lapsed or ended hold →
  /book with its dates, party, promo code and extras filled in, saying whether they are still free; a paid one → its
  thank-you page. Any device: the token is the credential."""

import json
from urllib.parse import urlencode

from django.http import HttpResponse, HttpResponseRedirect, JsonResponse
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST, require_safe

from booking.api import own_holds
from booking.reservations.models import Reservation
from booking.reservations.services import hold_reminders
from pages import i18n

RESUMED = "resumed"


@csrf_exempt  # the credential is the SameSite=Lax own-holds cookie, never sent by another site's form
@require_POST
def remind(request):
    try:
        data = json.loads(request.body or b"{}")
    except ValueError:
        data = None
    if not isinstance(data, dict) or not isinstance(data.get("reservation_id"), str) or not isinstance(data.get("email"), str):
        return JsonResponse({"detail": "Send reservation_id and email."}, status=422)
    if data["reservation_id"] not in own_holds.remembered(request):
        return JsonResponse({"detail": "Not a hold made by this browser."}, status=404)
    try:
        stored = hold_reminders.ask_for_reminder(data["reservation_id"], data["email"][:300])
    except hold_reminders.InvalidReminderEmail:
        return JsonResponse({"detail": "Not an email address."}, status=422)
    if not stored:
        return JsonResponse({"detail": "This hold has ended."}, status=409)
    return HttpResponse(status=204)


@require_safe
def resume(request, token: str):
    hold = hold_reminders.reservation_for_token(token)
    if hold is None:
        response = HttpResponseRedirect(i18n.lang_path("/book"))
    elif hold.status == Reservation.Status.CONFIRMED:
        response = HttpResponseRedirect(i18n.lang_path("/thank-you") + "?" + urlencode({"reservation_id": hold.pk}))
    elif hold.is_blocking():
        response = HttpResponseRedirect(i18n.lang_path("/book"))
        own_holds.remember(request, response, hold.pk)
    else:
        response = HttpResponseRedirect(i18n.lang_path("/book") + "?" + urlencode({**stay_query(hold), RESUMED: "1"}))
    patch_cache_control(response, private=True, no_store=True)
    response["Referrer-Policy"] = "no-referrer"  # the address is the credential
    return response


def stay_query(hold: Reservation) -> dict[str, str]:
    query = {"check_in": hold.check_in.isoformat(), "check_out": hold.check_out.isoformat(), "guests": str(hold.guests)}
    if hold.children_ages:
        query["children_ages"] = ",".join(str(age) for age in hold.children_ages)
    # The offers the hold was priced with come back chosen too; the page checks them again (a code
    # used up or an extra no longer offered meanwhile is said, not applied).
    if hold.promo_code_id:
        query["promo_code"] = hold.promo_code.code
    extras = [f"{line.get('code')}:{int(line.get('quantity') or 1)}" for line in (hold.price_breakdown or {}).get("extras") or ()]
    if extras:
        query["extras"] = ",".join(extras)
    return query


def resumed_notice(query, link_problem: str) -> str:
    """What /book says when opened from the reminder after the hold ended: the dates are still free
    (the notice) or not (the link's own problem, already said)."""
    if query.get(RESUMED) != "1" or link_problem or not query.get("check_in"):
        return ""
    return _("Your hold on these dates has ended, but they are still free: your dates and guests are filled in below.")
