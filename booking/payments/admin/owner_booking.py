"""The "Book for a guest" screen: the owner or staff hold a stay for a guest who phoned, and the
guest is emailed a link to pay (services.owner_bookings.book_for_guest: the same hold, the same
lock as every other booking). Offered to users who may add or change reservations; others get a 403.

On the reservation's page, while such a hold lives: the link the guest was emailed, when it stops
working, and "Send the link again" (services.owner_bookings.resend_payment_link)."""

from decimal import Decimal

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.admin.utils import quote
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponseNotAllowed, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from booking.admin_display import local_time, with_currency
from booking.api.validation import ReservationCreate, validate
from booking.catalog.children_ages import ChildrenAgesInvalid, parse_children_ages
from booking.catalog.pricing import Unavailable
from booking.errors import BookingError, DatesUnavailable, InvalidInput, Problem, RateLimited, ServiceUnavailable
from booking.payments.services.owner_bookings import (
    HOLD_HOURS_DEFAULT,
    HOLD_HOURS_MAX,
    HOLD_HOURS_MIN,
    Party,
    PaymentLinkNotResent,
    book_for_guest,
    link_is_live,
    payment_link,
    resend_payment_link,
)
from booking.reservations.models import Reservation
from booking.reservations.services.holds import GuestDetails


def may_book_for_guests(user) -> bool:
    return user.is_active and user.is_staff and (user.has_perm("reservations.add_reservation") or user.has_perm("reservations.change_reservation"))


class DateInput(forms.DateInput):
    input_type = "date"

    def __init__(self):
        super().__init__(format="%Y-%m-%d")


class OwnerBookingForm(forms.Form):
    check_in = forms.DateField(label=gettext_lazy("Arrival"), widget=DateInput())
    check_out = forms.DateField(label=gettext_lazy("Departure"), widget=DateInput())
    adults = forms.IntegerField(label=gettext_lazy("Adults"), min_value=1, max_value=50, initial=2)
    children_ages = forms.CharField(
        label=gettext_lazy("Children's ages"),
        required=False,
        max_length=60,
        help_text=gettext_lazy("One age (0 to 17) per child, separated by commas, e.g. 5, 14. Leave empty when no children come."),
    )
    first_name = forms.CharField(label=gettext_lazy("First name"), max_length=100)
    last_name = forms.CharField(label=gettext_lazy("Last name"), max_length=100)
    email = forms.EmailField(label=gettext_lazy("Email"), max_length=254, help_text=gettext_lazy("The payment link is sent here."))
    phone = forms.CharField(label=gettext_lazy("Phone"), max_length=40, required=False)
    language = forms.ChoiceField(label=gettext_lazy("Language of the guest's emails"), choices=lambda: settings.LANGUAGES, initial="en")
    special_price = forms.DecimalField(
        label=gettext_lazy("Special price"),
        required=False,
        max_digits=10,
        decimal_places=2,
        min_value=Decimal("0.01"),
        help_text=gettext_lazy(
            "Optional: what the stay costs before the city tax (nights, cleaning and extras). It may only lower the list price; "
            "the city tax is added as the law requires. Leave empty for the usual price."
        ),
    )
    hold_hours = forms.IntegerField(
        label=gettext_lazy("Hold the dates for (hours)"),
        min_value=HOLD_HOURS_MIN,
        max_value=HOLD_HOURS_MAX,
        initial=HOLD_HOURS_DEFAULT,
        help_text=gettext_lazy("1 to 24 hours. The payment link stops working when the hold ends, and the dates are freed."),
    )
    special_requests = forms.CharField(
        label=gettext_lazy("The guest's requests"),
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=gettext_lazy("What the guest asked for, in their words: the guest sees it in their emails."),
    )
    staff_note = forms.CharField(
        label=gettext_lazy("Internal note"),
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=gettext_lazy("For staff only (e.g. how the booking came in): never shown or sent to the guest."),
    )

    def clean_check_in(self):
        check_in = self.cleaned_data["check_in"]
        if check_in < timezone.localdate():
            raise forms.ValidationError(_("The arrival cannot be in the past."))
        return check_in

    def clean_children_ages(self):
        try:
            return parse_children_ages(self.cleaned_data["children_ages"])
        except ChildrenAgesInvalid:
            raise forms.ValidationError(_("Give each child's age as a whole number from 0 to 17, separated by commas.")) from None

    def clean(self):
        cleaned = super().clean()
        check_in, check_out = cleaned.get("check_in"), cleaned.get("check_out")
        if check_in and check_out and check_out <= check_in:
            self.add_error("check_out", _("The departure must be after the arrival."))
        return cleaned


# The fields the service's errors name (their last part) on the form.
FORM_FIELD = {"check_in": "check_in", "check_out": "check_out", "children_ages": "children_ages", "email": "email", "phone": "phone"}


def unavailable_message(error: DatesUnavailable) -> str:
    messages_by_reason = {
        Unavailable.BOOKED: _("These dates are taken (a confirmed stay or a block). Nothing was held."),
        Unavailable.ON_HOLD: _("Another guest holds some of these nights while they pay. Nothing was held; try again after %(until)s."),
        Unavailable.TOO_MANY_GUESTS: _("The party is larger than the property sleeps. Nothing was held."),
        Unavailable.BEYOND_BOOKING_WINDOW: _("These dates are beyond the booking window. Nothing was held."),
        Unavailable.CLOSED_TO_ARRIVAL: _("Arrivals are closed on this weekday. Nothing was held."),
        Unavailable.CLOSED_TO_DEPARTURE: _("Departures are closed on this weekday. Nothing was held."),
        Unavailable.MIN_STAY: _("The stay is shorter than the minimum stay for this arrival. Nothing was held."),
        Unavailable.MAX_STAY: _("The stay is longer than the maximum stay. Nothing was held."),
    }
    message = messages_by_reason.get(error.reason or "", _("These dates cannot be booked: %(reason)s") % {"reason": error.detail})
    return message % {"until": local_time(error.held_until)} if "%(until)s" in message else message


def special_price_message(problem: Problem) -> str:
    ctx = problem.ctx or {}
    limit = with_currency(Decimal(ctx.get("limit", "0")), ctx.get("currency", "EUR"))
    return {
        "special_price_above_list_price": _("A special price can only lower the price: this stay's list price is %(amount)s."),
        "special_price_below_fees": _("The special price must at least cover the cleaning fee and extras (%(amount)s)."),
    }.get(problem.type, _("The special price must be more than zero.")) % {"amount": limit}


def add_service_errors(form: OwnerBookingForm, error: InvalidInput) -> None:
    """The services' and the API validation's errors on the form: each names a field (its last
    part is enough here: guest.email is the form's email)."""
    for problem in error.problems:
        field = str(problem.field[-1]) if problem.field else ""
        if field == "special_price":
            form.add_error("special_price", special_price_message(problem))
        elif field == "guests":  # the API's 1..7 guests: the same words as the property's own limit
            form.add_error("adults", _("The party is larger than the property sleeps. Nothing was held."))
        elif field in FORM_FIELD:
            form.add_error(FORM_FIELD[field], problem.msg)
        else:
            form.add_error(None, problem.msg)


def owner_booking_view(model_admin, request):
    """GET: the form. POST: the hold and the email, then the reservation's page; any refusal
    comes back as form errors with the form still filled in, and nothing held."""
    if not may_book_for_guests(request.user):
        raise PermissionDenied
    form = OwnerBookingForm(request.POST if request.method == "POST" else None)
    if form.is_bound and form.is_valid():
        data = form.cleaned_data
        try:
            # The party and the guest as the API checks them (dates, 1..7 guests, ages 0..17, the email).
            validate(
                ReservationCreate,
                {
                    "check_in": data["check_in"].isoformat(),
                    "check_out": data["check_out"].isoformat(),
                    "guests": data["adults"] + len(data["children_ages"]),
                    "children_ages": list(data["children_ages"]),
                    "guest": {"first_name": data["first_name"], "last_name": data["last_name"], "email": data["email"], "phone": data["phone"]},
                    "special_requests": data["special_requests"],
                },
                "body",
            )
            reservation = book_for_guest(
                check_in=data["check_in"],
                check_out=data["check_out"],
                party=Party(adults=data["adults"], children_ages=data["children_ages"]),
                guest=GuestDetails(first_name=data["first_name"], last_name=data["last_name"], email=data["email"], phone=data["phone"]),
                language=data["language"],
                staff=request.user.get_username(),
                hold_hours=data["hold_hours"],
                special_price=data["special_price"],
                special_requests=data["special_requests"],
                staff_note=data["staff_note"],
            )
        except DatesUnavailable as error:
            form.add_error(None, unavailable_message(error))
        except InvalidInput as error:
            add_service_errors(form, error)
        except (ServiceUnavailable, RateLimited):
            form.add_error(None, _("The calendar is busy; nothing was held. Try again in a moment."))
        except BookingError as error:  # e.g. no property configured yet: said plainly, never a 500
            form.add_error(None, _("Nothing was held: %(reason)s") % {"reason": error.detail})
        else:
            model_admin.message_user(
                request,
                _("Held until %(until)s for %(guest)s (total %(total)s). The payment link was emailed to %(email)s.")
                % {
                    "until": local_time(reservation.hold_expires_at),
                    "guest": reservation.guest_name,
                    "total": with_currency(reservation.total, reservation.currency),
                    "email": reservation.guest_email,
                },
                messages.SUCCESS,
            )
            return HttpResponseRedirect(reverse("admin:reservations_reservation_change", args=[quote(reservation.pk)]))
    context = {
        **model_admin.admin_site.each_context(request),
        "title": _("Book for a guest"),
        "opts": model_admin.model._meta,
        "form": form,
    }
    return TemplateResponse(request, "admin/reservations/reservation/owner_booking.html", context)


# --- The payment link on the reservation's page ---------------------------------------------------


def payment_link_panel(model_admin, request, reservation: Reservation | None) -> dict | None:
    """What the reservation's page shows of the emailed payment link, while it works; else None."""
    if reservation is None or not link_is_live(reservation):
        return None
    return {
        "url": payment_link(reservation),
        "expires": local_time(reservation.hold_expires_at),
        "email": reservation.guest_email,
        "can_resend": model_admin.has_change_permission(request, reservation),
    }


def resend_refusal_message(error: PaymentLinkNotResent) -> str:
    return {
        PaymentLinkNotResent.PAID: _("The link was not sent: the stay is paid."),
        PaymentLinkNotResent.ENDED: _(
            "The link was not sent: the hold has ended, so the link no longer works. Book the stay for the guest again if they still want it."
        ),
        PaymentLinkNotResent.TOO_SOON: _("The link was not sent again: it was emailed less than a minute ago."),
        PaymentLinkNotResent.NOT_OWNER_BOOKING: _("The link was not sent: only a stay booked in the back office has an emailed payment link."),
    }.get(error.reason, _("The link was not sent: %(reason)s") % {"reason": error.detail})


def resend_payment_link_view(model_admin, request, object_id: str):
    """POST only (the admin checks the CSRF token): email the guest the payment link again, then
    back to the reservation's page with what happened."""
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    reservation = model_admin.get_object(request, object_id)
    if reservation is None:
        raise Http404(_("No reservation with this id."))
    if not model_admin.has_change_permission(request, reservation):
        raise PermissionDenied
    try:
        resend_payment_link(reservation.pk, staff=request.user.get_username())
    except PaymentLinkNotResent as error:
        model_admin.message_user(request, resend_refusal_message(error), messages.WARNING)
    else:
        model_admin.message_user(
            request,
            _("The payment link was emailed again to %(email)s. It works until %(until)s.")
            % {"email": reservation.guest_email, "until": local_time(reservation.hold_expires_at)},
            messages.SUCCESS,
        )
    return HttpResponseRedirect(reverse("admin:reservations_reservation_change", args=[quote(reservation.pk)]))
