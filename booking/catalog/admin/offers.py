"""The back office's offers: promo codes (with their bookings and revenue) and extras, and the
automatic discounts are on the property's form (booking/catalog/admin/properties.py; docs/offers.md)."""

from django import forms
from django.contrib import admin
from django.db.models import Count, DecimalField, Q, Sum, Value
from django.db.models.functions import Coalesce
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from modeltranslation.admin import TranslationAdmin

from booking.admin_display import with_currency
from booking.catalog.models import Extra, PromoCode
from booking.catalog.selectors import get_property
from booking.reservations.models import Reservation
from config.admin import GuardedModelAdmin

CONFIRMED = Q(reservations__status=Reservation.Status.CONFIRMED)


class PromoCodeForm(forms.ModelForm):
    class Meta:
        model = PromoCode
        fields = ["code", "percent", "amount", "bookable_from", "bookable_until", "stay_from", "stay_until", "min_nights", "max_uses", "active"]

    def clean_code(self):
        code = self.cleaned_data["code"].upper()
        if PromoCode.objects.filter(code__iexact=code).exclude(pk=self.instance.pk).exists():
            raise forms.ValidationError(_("A promo code with this name exists already."))
        return code


@admin.register(PromoCode)
class PromoCodeAdmin(GuardedModelAdmin):
    form = PromoCodeForm
    list_display = ["code", "discount", "bookable", "stay_window", "min_nights", "uses", "revenue", "active"]
    list_filter = ["active"]
    list_select_related = ["property"]
    search_fields = ["code"]

    def get_queryset(self, request):
        return (
            super()
            .get_queryset(request)
            .annotate(
                confirmed_uses=Count("reservations", filter=CONFIRMED),
                confirmed_revenue=Coalesce(Sum("reservations__total", filter=CONFIRMED), Value(0), output_field=DecimalField()),
            )
        )

    def save_model(self, request, obj, form, change):
        if not change:
            obj.property = get_property()
        super().save_model(request, obj, form, change)

    @admin.display(description=gettext_lazy("Discount"))
    def discount(self, obj):
        return f"{obj.percent.normalize():f} %" if obj.percent is not None else with_currency(obj.amount, obj.property.currency)

    @admin.display(description=gettext_lazy("Bookable"))
    def bookable(self, obj):
        return window(obj.bookable_from, obj.bookable_until)

    @admin.display(description=gettext_lazy("Nights covered"))
    def stay_window(self, obj):
        return window(obj.stay_from, obj.stay_until)

    @admin.display(description=gettext_lazy("Bookings"), ordering="confirmed_uses")
    def uses(self, obj):
        return f"{obj.confirmed_uses} / {obj.max_uses}" if obj.max_uses else str(obj.confirmed_uses)

    @admin.display(description=gettext_lazy("Revenue"), ordering="confirmed_revenue")
    def revenue(self, obj):
        return with_currency(obj.confirmed_revenue, obj.property.currency)


def window(start, end) -> str:
    if not start and not end:
        return _("any time")
    return f"{start.isoformat() if start else '…'} – {end.isoformat() if end else '…'}"


@admin.register(Extra)
class ExtraAdmin(TranslationAdmin, GuardedModelAdmin):  # the name in every language (booking/catalog/translation.py)
    list_display = ["code", "name", "price_shown", "per", "max_quantity", "notice_days", "active"]
    list_editable = ["active"]
    list_select_related = ["property"]
    exclude = ["property"]

    def save_model(self, request, obj, form, change):
        if not change:
            obj.property = get_property()
        super().save_model(request, obj, form, change)

    @admin.display(description=gettext_lazy("Price"))
    def price_shown(self, obj):
        return with_currency(obj.price, obj.property.currency)
