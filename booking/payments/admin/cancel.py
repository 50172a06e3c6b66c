"""The cancel screen: a confirmation page listing each stay with the refund its policy gives today;
then the guest's own cancel path (services.cancellation.cancel_stay) for each: the nights freed,
the emails queued, the refund through the provider, a hold's checkout closed.

Giving money back needs the refund permission, as the refund page does (DESIGN "Reliability,
fourth round"): without it the screen (and the list's bulk action, the same screen) offers only
"no refund", and a forged refund choice is refused (403) with nothing done."""

from decimal import Decimal

from django import forms
from django.contrib import messages
from django.contrib.admin import helpers
from django.contrib.admin.utils import quote
from django.http import HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from booking.admin_display import with_currency
from booking.errors import BookingError
from booking.payments.selectors import refund_if_cancelled
from booking.payments.services import cancellation as cancellation_services
from booking.payments.services import refunds
from booking.reservations.models import Reservation


class CancelForm(forms.Form):
    REFUND_CHOICES = [
        ("policy", gettext_lazy("As the cancellation policy gives today (suggested above)")),
        ("full", gettext_lazy("Everything paid and not yet refunded")),
        ("none", gettext_lazy("No refund")),
        ("amount", gettext_lazy("This amount (one reservation only):")),
    ]
    refund = forms.ChoiceField(label=gettext_lazy("Refund"), choices=REFUND_CHOICES, initial="policy", widget=forms.RadioSelect)
    amount = forms.DecimalField(label=gettext_lazy("Amount"), max_digits=10, decimal_places=2, min_value=Decimal("0"), required=False)
    reason = forms.CharField(label=gettext_lazy("Reason"), max_length=300, required=False, help_text=gettext_lazy("Kept in the reservation's history."))

    def __init__(self, *args, reservations: list[Reservation], may_refund: bool = True, **kwargs):
        super().__init__(*args, **kwargs)
        self.reservations = reservations
        self.may_refund = may_refund
        if not may_refund:  # only "no refund" is a valid choice: any other is refused by the form
            refund = self.fields["refund"]
            assert isinstance(refund, forms.ChoiceField)
            refund.choices = [choice for choice in self.REFUND_CHOICES if choice[0] == "none"]
            refund.initial = "none"
            del self.fields["amount"]

    @property
    def forged_refund(self) -> bool:
        """A refund asked by someone who may not make refunds (a forged POST)."""
        return self.is_bound and not self.may_refund and self.data.get("refund", "none") != "none"

    def clean(self):
        cleaned = super().clean() or {}
        if cleaned.get("refund") == "amount":
            if len(self.reservations) != 1:
                raise forms.ValidationError(_("An amount can be given for one reservation at a time."))
            amount, refundable = cleaned.get("amount"), refunds.refundable(self.reservations[0])
            if amount is None:
                self.add_error("amount", _("Give the amount to refund."))
            elif amount > refundable:
                self.add_error("amount", _("At most %(amount)s is left to refund.") % {"amount": with_currency(refundable, self.reservations[0].currency)})
        return cleaned

    def refund_for(self, reservation: Reservation) -> Decimal | None:
        """None means: by the policy (the service computes it under the lock)."""
        choice = self.cleaned_data["refund"]
        if not self.may_refund:
            return Decimal("0")
        if choice == "full":
            return refunds.refundable(reservation)
        if choice == "none":
            return Decimal("0")
        if choice == "amount":
            return self.cleaned_data["amount"]
        return None


def cancel_confirmation(model_admin, request, reservations: list[Reservation], *, from_list: bool):
    """A confirmation page first: each stay with the refund its policy gives today; staff may
    choose a full refund, none, or (for one stay) an amount up to what is left. Then the guest's
    own cancel path (services.cancellation.cancel_stay): emails, refund through the provider."""
    may_refund = model_admin.has_refund_permission(request)
    form = CancelForm(request.POST if "apply" in request.POST else None, reservations=reservations, may_refund=may_refund)
    status = 403 if form.forged_refund else 200
    if status == 200 and form.is_bound and form.is_valid():
        actor = f"staff {request.user.get_username()}"
        done = 0
        for reservation in reservations:
            if reservation.status == Reservation.Status.CANCELLED:
                model_admin.message_user(
                    request, _("%(reservation)s was already cancelled: nothing was done.") % {"reservation": reservation.pk}, messages.INFO
                )
                continue
            try:
                cancelled = cancellation_services.cancel_stay(
                    reservation.pk,
                    actor=actor,
                    refund=form.refund_for(reservation),
                    reason=form.cleaned_data["reason"] or "cancelled in the back office",
                )
            except BookingError as error:
                model_admin.message_user(request, f"{reservation.pk}: {error.detail}", messages.ERROR)
                continue
            done += 1
            if cancelled.refund_pending > 0:
                model_admin.message_user(
                    request,
                    _("%(reservation)s: the refund of %(amount)s is pending (the provider did not answer); it is retried automatically.")
                    % {
                        "reservation": reservation.pk,
                        "amount": with_currency(cancelled.refund_pending, cancelled.currency),
                    },
                    messages.WARNING,
                )
        if done:
            model_admin.message_user(
                request,
                ngettext(
                    "Cancelled %(count)d reservation(s); the guests are emailed.",
                    "Cancelled %(count)d reservation(s); the guests are emailed.",
                    done,
                )
                % {"count": done},
                messages.SUCCESS,
            )
        if from_list:
            return None
        return HttpResponseRedirect(reverse("admin:reservations_reservation_change", args=[quote(reservations[0].pk)]))
    rows = [
        {
            "reservation": r,
            "paid": with_currency(r.amount_paid, r.currency),
            "refunded": with_currency(r.amount_refunded, r.currency),  # an earlier refund, apart from the policy's
            "refundable": with_currency(refunds.refundable(r), r.currency),
            "suggested": with_currency(refund_if_cancelled(r).amount, r.currency) if r.status == Reservation.Status.CONFIRMED else "–",
        }
        for r in reservations
    ]
    context = {
        **model_admin.admin_site.each_context(request),
        "title": _("Cancel reservations") if from_list else _("Cancel reservation %(reservation)s") % {"reservation": reservations[0].pk},
        "opts": model_admin.model._meta,
        "rows": rows,
        "form": form,
        "action": "cancel_selected" if from_list else "",
        "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
        "may_refund": may_refund,
    }
    if status == 403:
        form.add_error(None, _("You may not make refunds: these reservations can only be cancelled without a refund."))
    return TemplateResponse(request, "admin/payments/cancel_confirmation.html", context, status=status)
