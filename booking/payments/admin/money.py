"""Back-office screens for the money of the second round (docs/money.md): each payment of a stay,
and the security deposits held on guests' cards, with the claim page (refund permission).

Imported from booking/payments/admin/__init__.py. Thin adapters over
booking/payments/services/security_deposits.py.
"""

from decimal import Decimal

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from booking.admin_display import local_time
from booking.errors import BookingError
from booking.payments.models import Payment, SecurityDeposit
from booking.payments.services.security_deposits import claim_security_deposit

REFUND_PERMISSION = "reservations.refund_reservation"


@admin.register(Payment)
class PaymentAdmin(admin.ModelAdmin):
    """Read-only: payments are written by the payment code only."""

    list_display = ["paid_when", "reservation", "kind", "amount", "currency", "provider", "provider_id"]
    list_filter = ["kind", "provider"]
    search_fields = ["reservation__id", "provider_id"]
    date_hierarchy = "paid_at"

    @admin.display(description=gettext_lazy("paid at"), ordering="paid_at")
    def paid_when(self, obj):
        return local_time(obj.paid_at)  # the property's clock with its zone

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class ClaimForm(forms.Form):
    amount = forms.DecimalField(label=gettext_lazy("Amount to keep"), min_value=Decimal("0.01"), max_digits=10, decimal_places=2)
    reason = forms.CharField(
        label=gettext_lazy("Reason (emailed to the guest)"),
        widget=forms.Textarea(attrs={"rows": 3}),
        max_length=2000,
        help_text=gettext_lazy("e.g. a broken glass table on the terrace."),
    )


@admin.register(SecurityDeposit)
class SecurityDepositAdmin(admin.ModelAdmin):
    list_display = ["reservation", "amount", "currency", "status", "placed_on", "claimed_amount", "provider_id"]
    list_filter = ["status"]
    search_fields = ["reservation__id", "provider_id"]
    readonly_fields = [f.name for f in SecurityDeposit._meta.fields]

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def get_urls(self):
        return [path("<int:deposit_id>/claim/", self.admin_site.admin_view(self.claim_view), name="payments_securitydeposit_claim"), *super().get_urls()]

    def claim_view(self, request, deposit_id: int):
        """Keep part or all of a held deposit: needs the permission to refund (money decisions)."""
        if not request.user.has_perm(REFUND_PERMISSION):
            raise PermissionDenied
        deposit = get_object_or_404(SecurityDeposit.objects.select_related("reservation"), pk=deposit_id)
        form = ClaimForm(request.POST or None, initial={"amount": deposit.amount})
        if request.method == "POST" and form.is_valid():
            try:
                claim_security_deposit(
                    deposit.pk, amount=form.cleaned_data["amount"], reason=form.cleaned_data["reason"], actor=f"staff {request.user.get_username()}"
                )
            except BookingError as error:  # a fixed sentence of the service reads in the back office's language
                self.message_user(request, _(error.detail), messages.ERROR)
            else:
                self.message_user(
                    request,
                    _("Claimed %(amount)s %(currency)s; the guest is emailed the reason.")
                    % {"amount": form.cleaned_data["amount"], "currency": deposit.currency},
                    messages.SUCCESS,
                )
            return HttpResponseRedirect(reverse("admin:payments_securitydeposit_change", args=[deposit.pk]))
        context = {
            **self.admin_site.each_context(request),
            "title": _("Claim from the security deposit of %(reservation)s") % {"reservation": deposit.reservation},
            "opts": self.model._meta,
            "deposit": deposit,
            "form": form,
        }
        return TemplateResponse(request, "admin/payments/securitydeposit/claim.html", context)
