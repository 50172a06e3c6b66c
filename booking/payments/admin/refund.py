"""The refund screen: a confirmation page, then one refund request through the refund service
(booking/payments/services/refunds.py), which locks the reservation and computes what is left from the
locked state. The page carries its own request key and what it showed as refunded: sent twice,
or after someone else refunded, it refunds nothing more."""

from decimal import Decimal

from django import forms
from django.contrib import messages
from django.contrib.admin.utils import quote, unquote
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from booking.admin_display import with_currency
from booking.errors import BookingError
from booking.payments.selectors import refund_if_cancelled
from booking.payments.services import cancellation as cancellation_services
from booking.payments.services import refunds
from booking.reservations.models import Reservation


class RefundForm(forms.Form):
    """The refund confirmation: how much (at most what is left), why, and whether to cancel too.
    `refunded_before` is what the page showed as refunded: a second send of the same page refunds
    nothing (services.refunds.refund_payment)."""

    amount = forms.DecimalField(
        max_digits=10, decimal_places=2, min_value=Decimal("0.01"), label=gettext_lazy("Amount"), help_text=gettext_lazy("At most what is left to refund.")
    )
    reason = forms.CharField(label=gettext_lazy("Reason"), max_length=300, required=False, help_text=gettext_lazy("Kept in the reservation's history."))
    cancel_reservation = forms.BooleanField(required=False, label=gettext_lazy("Also cancel the reservation (its dates become free; the guest is emailed)"))
    refunded_before = forms.DecimalField(max_digits=10, decimal_places=2, widget=forms.HiddenInput)
    # One page, one refund request: sent twice, it is one refund at the provider and here.
    request_key = forms.CharField(max_length=64, required=False, widget=forms.HiddenInput)

    def __init__(self, *args, refundable: Decimal, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["amount"].max_value = refundable
        self.fields["amount"].validators.append(MaxRefund(refundable))
        self.fields["amount"].widget.attrs["max"] = str(refundable)


class MaxRefund:
    def __init__(self, refundable: Decimal):
        self.refundable = refundable

    def __call__(self, value):
        if value is not None and value > self.refundable:
            raise forms.ValidationError(_("At most %(amount)s is left to refund.") % {"amount": number_format(self.refundable, 2)})


def refund_view(model_admin, request, object_id):
    """The refund confirmation page: what was paid, refunded, owed by a cancellation and being
    refunded now, and how much is left; refunds through services.refunds.refund_payment (or, with
    "also cancel", the cancel path), which re-checks everything under the reservation's lock."""
    if not model_admin.has_refund_permission(request):
        raise PermissionDenied
    reservation = model_admin.get_object(request, unquote(object_id))
    if reservation is None:
        raise Http404(_("No reservation with this id."))
    change_url = reverse("admin:reservations_reservation_change", args=[quote(reservation.pk)])
    state = refunds.refund_state(reservation)
    refundable = refunds.refundable(reservation)
    if refundable <= 0:
        model_admin.message_user(
            request,
            _("%(reservation)s: nothing is left to refund (no payment was taken, or it was refunded in full).") % {"reservation": reservation.pk},
            messages.WARNING,
        )
        return HttpResponseRedirect(change_url)
    initial = {"amount": refundable, "refunded_before": state.refunded + state.in_flight, "request_key": refunds.new_request_key()}
    form = RefundForm(request.POST if request.method == "POST" else None, initial=initial, refundable=refundable)
    if form.is_bound and form.is_valid():
        try:
            reservation = _refund(reservation, form.cleaned_data, actor=f"staff {request.user.get_username()}")
        except BookingError as error:
            model_admin.message_user(request, f"{reservation.pk}: {error.detail}", messages.ERROR)
            return HttpResponseRedirect(change_url)
        _tell_what_was_done(model_admin, request, reservation)
        return HttpResponseRedirect(change_url)
    context = {
        **model_admin.admin_site.each_context(request),
        "title": _("Refund reservation %(reservation)s") % {"reservation": reservation.pk},
        "opts": model_admin.model._meta,
        "reservation": reservation,
        "paid": with_currency(reservation.amount_paid, reservation.currency),
        "refunded": with_currency(reservation.amount_refunded, reservation.currency),
        "pending": with_currency(state.pending, reservation.currency) if state.pending else None,
        "in_flight": with_currency(state.in_flight, reservation.currency) if state.in_flight else None,
        "refundable": with_currency(refundable, reservation.currency),
        "suggested": with_currency(refund_if_cancelled(reservation).amount, reservation.currency)
        if reservation.status == Reservation.Status.CONFIRMED
        else None,
        "form": form,
    }
    return TemplateResponse(request, "admin/reservations/reservation/refund_confirmation.html", context)


def _refund(reservation: Reservation, data: dict, *, actor: str) -> Reservation:
    if data["cancel_reservation"] and reservation.status == Reservation.Status.CONFIRMED:
        state = refunds.refund_state(reservation)
        if data["refunded_before"] != state.refunded + state.in_flight:
            raise refunds.RefundNotPossible(_("Nothing was done: the reservation was refunded meanwhile. Check it before acting again."))
        # The guest-facing cancel path: the stay's nights freed, the guest emailed, this refund through the provider.
        return cancellation_services.cancel_stay(reservation.pk, actor=actor, refund=data["amount"], reason=data["reason"] or "cancelled with a refund")
    return refunds.refund_payment(
        reservation.pk,
        actor=actor,
        amount=data["amount"],
        reason=data["reason"],
        refunded_before=data["refunded_before"],
        request_key=data["request_key"] or None,
    )


def _tell_what_was_done(model_admin, request, reservation: Reservation) -> None:
    if reservation.refund_pending > 0 and reservation.status == Reservation.Status.CANCELLED:
        model_admin.message_user(
            request,
            _("%(reservation)s: cancelled; the refund of %(amount)s is pending (the provider did not answer) and is retried automatically.")
            % {"reservation": reservation.pk, "amount": with_currency(reservation.refund_pending, reservation.currency)},
            messages.WARNING,
        )
    else:
        model_admin.message_user(
            request,
            _("%(reservation)s: refunded so far %(amount)s.")
            % {"reservation": reservation.pk, "amount": with_currency(reservation.amount_refunded, reservation.currency)},
            messages.SUCCESS,
        )
