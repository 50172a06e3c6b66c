"""The change-dates screen: new dates, then a confirmation page with the old and new price and the
difference (and whether the guest then owes or is refunded), then the change through
services.date_changes.change_dates, which checks everything again under the calendar lock. Staff
are not bound by the guest's full-refund rule; the calendar and the booking rules still apply.
The page carries the total it showed: a price that moved since is refused, nothing is changed."""

from decimal import Decimal

from django import forms
from django.contrib import messages
from django.contrib.admin.utils import quote, unquote
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from booking.admin_display import with_currency
from booking.errors import BookingError
from booking.payments.services.date_changes import DateChangeNotAllowed, DateChangeQuote, change_dates, quote_change
from booking.reservations.models import Reservation


class ChangeDatesForm(forms.Form):
    check_in = forms.DateField(label=gettext_lazy("New check-in"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))
    check_out = forms.DateField(label=gettext_lazy("New check-out"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))
    # The total the confirmation page showed; absent on the first step.
    total = forms.DecimalField(max_digits=10, decimal_places=2, required=False, widget=forms.HiddenInput)

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("check_in") and cleaned.get("check_out") and cleaned["check_out"] <= cleaned["check_in"]:
            raise forms.ValidationError(_("Check-out must be after check-in."))
        return cleaned


def _refusal(reservation: Reservation) -> str | None:
    """Why this stay's dates cannot be changed here, if they cannot."""
    if reservation.status != Reservation.Status.CONFIRMED:
        return _("Only a confirmed stay's dates can be changed.")
    if reservation.channel_booking_id:
        # The platform owns the booking and its price: a change made here would not reach it.
        return _("This booking was made on %(channel)s: change its dates there; the change reaches this calendar by itself.") % {
            "channel": reservation.get_source_display()
        }
    return None


def change_dates_view(model_admin, request, object_id):
    """Step 1 (GET): the dates. Step 2 (POST "preview"): the new price and the money. Step 3 (POST
    "apply"): the change; back to the reservation with what was done."""
    reservation = model_admin.get_object(request, unquote(object_id))
    if reservation is None:
        raise Http404(_("No reservation with this id."))
    if not model_admin.has_change_permission(request, reservation):
        raise PermissionDenied
    change_url = reverse("admin:reservations_reservation_change", args=[quote(reservation.pk)])
    refusal = _refusal(reservation)
    if refusal:
        model_admin.message_user(request, refusal, messages.WARNING)
        return HttpResponseRedirect(change_url)
    initial = {"check_in": reservation.check_in, "check_out": reservation.check_out}
    form = ChangeDatesForm(request.POST if request.method == "POST" else None, initial=initial)
    preview: DateChangeQuote | None = None
    status = 200
    # A change that refunds goes through the refund service: it needs the refund page's permission.
    may_refund = model_admin.has_refund_permission(request, reservation)
    if form.is_bound and form.is_valid():
        data = form.cleaned_data
        try:
            if "apply" in request.POST:
                done = change_dates(
                    reservation.pk,
                    data["check_in"],
                    data["check_out"],
                    actor=f"staff {request.user.get_username()}",
                    by_guest=False,
                    expected_total=data["total"] if data["total"] is not None else Decimal("-1"),
                    may_refund=may_refund,
                )
                _tell_what_was_done(model_admin, request, done.reservation, done.quote, done.refund_failed)
                return HttpResponseRedirect(change_url)
            preview = quote_change(reservation.pk, data["check_in"], data["check_out"], by_guest=False)
            if preview.refund > 0 and not may_refund:
                raise DateChangeNotAllowed(reason=DateChangeNotAllowed.REFUND_NOT_ALLOWED)
            form = ChangeDatesForm(initial={**data, "total": preview.total})
        except DateChangeNotAllowed as refused:
            if refused.reason != DateChangeNotAllowed.REFUND_NOT_ALLOWED:
                form.add_error(None, refused.detail)
            else:
                preview, status = None, 403
                form.add_error(None, _("These dates would refund part of the payment to the guest, and you may not make refunds. Ask someone who may."))
        except BookingError as error:
            form.add_error(None, error.detail)
    context = {
        **model_admin.admin_site.each_context(request),
        "title": _("Change the dates of reservation %(reservation)s") % {"reservation": reservation.pk},
        "opts": model_admin.model._meta,
        "reservation": reservation,
        "form": form,
        "preview": preview,
        "money": _money(preview, reservation.currency) if preview else {},
    }
    return TemplateResponse(request, "admin/reservations/reservation/change_dates.html", context, status=status)


def _money(preview: DateChangeQuote, currency: str) -> dict[str, str]:
    sign = "+" if preview.difference > 0 else ""
    return {
        "old_total": with_currency(preview.old_total, currency),
        "total": with_currency(preview.total, currency),
        "difference": sign + with_currency(preview.difference, currency),
        "owed": with_currency(preview.owed, currency) if preview.owed else "",
        "refund": with_currency(preview.refund, currency) if preview.refund else "",
        "special_price": with_currency(preview.special_price, currency) if preview.special_price is not None else "",
    }


def _tell_what_was_done(model_admin, request, reservation: Reservation, change: DateChangeQuote, refund_failed: str) -> None:
    model_admin.message_user(
        request,
        _("%(reservation)s: the stay now runs %(check_in)s to %(check_out)s, total %(total)s; the guest is emailed.")
        % {
            "reservation": reservation.pk,
            "check_in": reservation.check_in,
            "check_out": reservation.check_out,
            "total": with_currency(reservation.total, reservation.currency),
        },
        messages.SUCCESS,
    )
    if refund_failed:
        model_admin.message_user(
            request,
            _("The refund of %(amount)s failed (%(error)s); the reservation is flagged. Refund it from the refund page.")
            % {"amount": with_currency(change.refund, reservation.currency), "error": refund_failed},
            messages.WARNING,
        )
    elif change.owed:
        model_admin.message_user(
            request,
            _("The guest owes %(amount)s; they can pay it from their booking page.") % {"amount": with_currency(change.owed, reservation.currency)},
            messages.INFO,
        )
