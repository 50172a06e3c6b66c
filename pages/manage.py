"""The guest's own page for a confirmed stay: {BASE_URL}/manage/<token>.

The token (256 random bits, not the reservation id) is the guest's credential: it is in the
confirmation email and on the thank-you page the payer returns to. The page shows the stay, the
price line by line, what was paid and refunded, the policy and what cancelling today gives back;
it offers the stay as an .ics file and a cancel button behind a confirmation step.

Because the token is a credential: the pages are never indexed or cached, send no Referer, and a
client that keeps trying unknown tokens is answered 429 for a while (a known token still opens).
"""

from decimal import Decimal
from functools import wraps

from django.conf import settings
from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from booking.callers import client_ip
from booking.catalog import accepted_terms, pricing
from booking.catalog import payment_schedule as schedules
from booking.catalog.breakdown_words import read_breakdown
from booking.errors import BookingError, InvalidInput, NotFound, Problem, RateLimited
from booking.italy.arrival import manage_page_context
from booking.payments.emails import refund_context
from booking.payments.selectors import refund_if_cancelled
from booking.payments.services import security_deposits
from booking.payments.services.balances import balance_owed, schedule_of, start_balance_checkout
from booking.payments.services.cancellation import cancel_by_guest
from booking.payments.services.guest_bookings import booking_for_token
from booking.payments.services.receipts import receipt_for, receipt_pdf, receipts_of
from booking.reservations.calendar_file import stay_calendar
from booking.reservations.models import Reservation
from booking.reservations.selectors import accepted_tiers
from booking.reservations.services import reviews
from pages import seo
from pages.i18n import lang_path
from pages.views import not_found


def manage_page(view):
    """Resolve the token (under the limit on unknown tokens every interface shares,
    booking/payments/services/guest_bookings.py) and mark every answer private: noindex, no Referer, no
    caching. The token's 256 bits are what keeps guessers out; the limit spares the site their traffic."""

    @wraps(view)
    def wrapper(request, token: str, *args, **kwargs):
        try:
            reservation = booking_for_token(token, client_ip=client_ip(request))
        except RateLimited as limited:
            response = HttpResponse(limited.detail, status=429, content_type="text/plain; charset=utf-8")
            response["Retry-After"] = str(limited.retry_after)
            return private(response)
        except NotFound:
            return private(not_found(request))
        return private(view(request, reservation, *args, **kwargs))

    return wrapper


def private(response: HttpResponse) -> HttpResponse:
    response["X-Robots-Tag"] = "noindex, nofollow"
    # The address is the credential: never sent on as a Referer. The cancel form's page says
    # same-origin instead, because under no-referrer browsers send `Origin: null` with its POST,
    # which CSRF protection (rightly) refuses; same-origin still never leaves the site.
    response.setdefault("Referrer-Policy", "no-referrer")
    response["Cache-Control"] = "private, no-store"
    return response


def with_a_form(response: HttpResponse) -> HttpResponse:
    response["Referrer-Policy"] = "same-origin"
    return response


@require_safe
@manage_page
def manage(request, reservation: Reservation):
    return render(request, "pages/manage.html", context_for(request, reservation))


@require_safe
@manage_page
def receipt(request, reservation: Reservation, year: int, sequence: str):
    """{link}/receipts/2027/0001.pdf: a receipt of this stay, in the guest's language."""
    found = receipt_for(reservation, year, int(sequence)) if sequence.isdigit() and len(sequence) <= 9 else None
    if found is None:
        return not_found(request)
    response = HttpResponse(receipt_pdf(found), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="receipt-{found.year}-{found.sequence:04d}.pdf"'
    return response


@require_http_methods(["GET", "HEAD", "POST"])
@manage_page
def pay_balance(request, reservation: Reservation):
    """GET: "Pay the balance of €X now?" POST: the guest pays what is left now (early, or after their
    card was refused): off to a checkout page for exactly the balance; the payment comes back
    through the payment event handlers."""
    if request.method != "POST":
        return with_a_form(render(request, "pages/manage_pay_balance.html", context_for(request, reservation)))
    try:
        url = start_balance_checkout(reservation, return_url=settings.BASE_URL + lang_path(f"/manage/{reservation.manage_token}"))
    except BookingError:
        return HttpResponseRedirect(lang_path(f"/manage/{reservation.manage_token}"), status=303)
    return HttpResponseRedirect(url, status=303)


@require_http_methods(["GET", "HEAD", "POST"])
@manage_page
def cancel(request, reservation: Reservation):
    """GET: "Cancel this stay? You get €X back." POST with confirm=yes: cancel, then back to the page."""
    context = context_for(request, reservation)
    if request.method != "POST":
        return with_a_form(render(request, "pages/manage_cancel.html", context))
    if request.POST.get("confirm") != "yes":
        context["error"] = _("Tick the box to confirm that you want to cancel this stay.")
        return with_a_form(render(request, "pages/manage_cancel.html", context, status=400))
    try:
        cancel_by_guest(reservation.manage_token)
    except BookingError as error:
        context["error"] = error.detail
        return with_a_form(render(request, "pages/manage_cancel.html", context, status=error.status if error.status < 500 else 409))
    return HttpResponseRedirect(lang_path(f"/manage/{reservation.manage_token}") + "?cancelled=1", status=303)


@require_http_methods(["GET", "HEAD", "POST"])
@manage_page
def review(request, reservation: Reservation):
    """The review form after the stay: stars and a few words, in the guest's language; POST stores
    it for the owner's approval (booking.reservations.services.reviews)."""
    context = context_for(request, reservation)
    if request.method == "POST":
        try:
            reviews.submit_review(
                reservation=reservation, rating=request.POST.get("rating"), text=request.POST.get("text"), language=translation.get_language()
            )
        except InvalidInput as error:
            errors = {problem.field[-1]: review_problem(problem) for problem in error.problems}
            context.update(errors=errors, rating=request.POST.get("rating"), text=request.POST.get("text", ""))
            return with_a_form(render(request, "pages/manage_review.html", context, status=422))
        except reviews.ReviewNotOpen:
            context["error"] = _("A review can be written after the stay, once.")
            return with_a_form(render(request, "pages/manage_review.html", context, status=409))
        except BookingError as error:
            context["error"] = error.detail
            return with_a_form(render(request, "pages/manage_review.html", context, status=409))
        return HttpResponseRedirect(lang_path(f"/manage/{reservation.manage_token}") + "?reviewed=1", status=303)
    return with_a_form(render(request, "pages/manage_review.html", context))


def review_problem(problem: Problem) -> str:
    """What the review form says of a field the service refused, in the guest's language."""
    said = {
        "rating": _("Choose from 1 to 5 stars."),
        "missing": _("Write a few words about your stay."),
        "string_too_long": _("At most %(count)s characters, please.") % {"count": reviews.MAX_TEXT},
    }
    return said.get(problem.type, problem.msg)


@require_safe
@manage_page
def stay_ics(request, reservation: Reservation):
    """The stay for the guest's calendar, while there is a stay: none for one cancelled (or a hold)."""
    if reservation.status != Reservation.Status.CONFIRMED:
        return not_found(request)
    response = HttpResponse(stay_calendar(reservation), content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="stay.ics"'
    return response


def context_for(request, reservation: Reservation) -> dict:
    prop = reservation.property
    confirmed = reservation.status == Reservation.Status.CONFIRMED
    quote = refund_if_cancelled(reservation) if confirmed else None
    balance = schedules.balance_entry(schedule_of(reservation))
    return {
        "meta": seo.PageMeta(title=_("Your stay at %(name)s") % {"name": prop.name}, description=_("Your booking."), path=request.path, noindex=True),
        "reservation": reservation,
        "property": prop,
        "link": settings.BASE_URL + lang_path(f"/manage/{reservation.manage_token}"),
        "path": lang_path(f"/manage/{reservation.manage_token}"),
        "breakdown": read_breakdown(reservation.price_breakdown or {}, prop),
        "total": reservation.total,
        "currency": reservation.currency,
        "policy_lines": pricing.policy_lines(accepted_tiers(reservation)),
        "refund_now": quote.amount if quote else Decimal("0.00"),
        "days_before_arrival": quote.days_before_arrival if quote else None,
        "can_cancel": confirmed and quote is not None and quote.days_before_arrival >= 0,
        "just_cancelled": request.GET.get("cancelled") == "1" and reservation.status == Reservation.Status.CANCELLED,
        "just_paid": request.GET.get("paid") == "1",
        "receipts": receipts_of(reservation),
        "balance_due": balance_owed(reservation),
        "balance_due_date": balance.due_date if balance else None,
        "security_deposit": accepted_terms.security_deposit(reservation.accepted_terms) if confirmed else Decimal("0"),
        "authorise_deposit": security_deposits.needs_authorisation(reservation),  # the card refused the hold
        "can_review": reviews.review_window_open(reservation),
        "just_reviewed": request.GET.get("reviewed") == "1",
        "italy": manage_page_context(reservation),  # online check-in and arrival instructions
        # A refund made before the cancellation, told apart from the cancellation's own.
        **refund_context(reservation),
    }
