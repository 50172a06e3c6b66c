"""The UCP REST binding at /ucp/v1/booking-sessions…, the business profile at /.well-known/ucp and
the continue page (/pay/<id>) that every session's continue_url opens. Thin adapters over
sessions.py; every refusal (bad input, an unknown session, a reused Idempotency-Key) is UCP's
error envelope with the JSON API's HTTP status (sessions.error_answer)."""

import logging
from urllib.parse import urlencode

from django.http import HttpResponseRedirect
from django.shortcuts import render
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe
from rest_framework.response import Response

from booking.api.base import ApiView
from booking.callers import Caller
from booking.errors import BookingError, NotFound, RateLimited, ReservationNotPayable
from booking.payments import guest_prefill
from booking.payments.services import checkouts as payments
from booking.reservations.models import Reservation
from booking.reservations.services.reservations import get_reservation
from discovery.ucp import profile, sessions
from discovery.views import cacheable_json

logger = logging.getLogger("discovery.ucp")


@require_safe
def business_profile(request):
    # As the other discovery files: a strong ETag, public caching, 304 on revalidation.
    return cacheable_json(request, profile.business_profile())


class SessionView(ApiView):
    """The REST binding's answers: 201 for a new session, 200 for every other business outcome."""

    schema = None  # described in docs/ucp.md and by UCP itself, not in the JSON API's OpenAPI

    def caller(self) -> Caller:
        return Caller.from_request(Reservation.Source.API, self.request, actor_prefix="ucp")

    def answer(self, operation, *args, **kwargs) -> Response:
        try:
            status, body = operation(*args, **kwargs)
        except BookingError as error:  # bad input, unknown session, a reused key: UCP's error envelope
            status, body = sessions.error_answer(error)
            response = Response(body, status=status)
            if isinstance(error, RateLimited):
                response["Retry-After"] = str(max(1, int(error.retry_after)))
            return response
        return Response(body, status=status)

    def key(self) -> str | None:
        return self.request.headers.get("Idempotency-Key")


class BookingSessionsView(SessionView):
    def post(self, request):
        return self.answer(sessions.create, request.data, self.caller(), idempotency_key=self.key(), agent_name=ucp_agent(request))


class BookingSessionView(SessionView):
    def get(self, request, session_id: str):
        return self.answer(sessions.get, session_id)

    def put(self, request, session_id: str):
        return self.answer(sessions.update, session_id, request.data, self.caller(), idempotency_key=self.key())


class CompleteView(SessionView):
    def post(self, request, session_id: str):
        return self.answer(sessions.complete, session_id, request.data, idempotency_key=self.key())


class CancelView(SessionView):
    def post(self, request, session_id: str):
        return self.answer(sessions.cancel, session_id, self.caller(), request.data, idempotency_key=self.key())


def ucp_agent(request) -> str | None:
    """The platform's profile URL from `UCP-Agent: profile="…"`, kept as the hold's agent name."""
    header = request.headers.get("UCP-Agent", "")
    _, _, value = header.partition("profile=")
    return value.strip().strip('"')[:100] or None


@never_cache
def continue_booking(request, session_id: str):
    """A session's continue_url: the payment page of its hold, opened (or reopened) now. A stay
    already paid, or a hold that ended, goes to the thank-you page, which shows which it is."""
    thank_you = f"/thank-you?reservation_id={session_id}"
    try:
        reservation = get_reservation(session_id)  # NotFound, with no query, for what is not an id
    except NotFound:
        return render(request, "ucp/continue.html", {"problem": _("There is no booking with this link.")}, status=404)
    if reservation.status != Reservation.Status.HELD:
        return HttpResponseRedirect(thank_you, status=303)
    # The owner's link for a guest carries a signed token: the checkout opens with their details.
    token = request.GET.get(guest_prefill.QUERY)
    prefill = guest_prefill.token_opens(token, reservation.pk)
    try:
        with translation.override(reservation.language):
            reservation = payments.open_checkout(reservation.pk, actor="ucp continue", prefill_guest=prefill)
    except ReservationNotPayable:
        return HttpResponseRedirect(thank_you, status=303)
    except BookingError as error:  # the payment provider did not answer: nothing changed
        logger.warning("continue %s: %s", session_id, error.detail)
        return render(request, "ucp/continue.html", {"problem": _("The payment page could not be opened just now. Please try again in a minute.")}, status=502)
    if prefill and reservation.payment_provider == "sandbox":  # the site's own checkout page reads it
        return HttpResponseRedirect(f"{reservation.checkout_url}?{urlencode({guest_prefill.QUERY: token})}", status=303)
    return HttpResponseRedirect(reservation.checkout_url, status=303)
