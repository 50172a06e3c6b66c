"""{manage link}/authorise-deposit: the guest authorises the refundable security deposit on a
checkout page after their saved card refused the hold (docs/money.md). GET explains it; POST opens
the checkout (a card hold, not a charge) through booking.payments.services.security_deposits; the hold
comes back through the payment event handlers like any payment."""

from django.conf import settings
from django.http import HttpResponseRedirect
from django.shortcuts import render
from django.views.decorators.http import require_http_methods

from booking.errors import BookingError
from booking.payments.services import security_deposits
from booking.reservations.models import Reservation
from pages.i18n import lang_path
from pages.manage import context_for, manage_page, with_a_form


@require_http_methods(["GET", "HEAD", "POST"])
@manage_page
def authorise_deposit(request, reservation: Reservation):
    back = lang_path(f"/manage/{reservation.manage_token}")
    if request.method != "POST":
        context = context_for(request, reservation)
        context.update(
            deposit_amount=security_deposits.deposit_amount(reservation),
            release_on=security_deposits.hold_window(reservation)[1],
            needs_authorisation=security_deposits.needs_authorisation(reservation),
        )
        return with_a_form(render(request, "pages/manage_authorise_deposit.html", context))
    try:
        url = security_deposits.start_authorisation(reservation, return_url=settings.BASE_URL + back)
    except BookingError:
        return HttpResponseRedirect(back, status=303)
    return HttpResponseRedirect(url, status=303)
