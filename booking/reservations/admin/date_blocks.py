"""The date blocks screen: staff block nights (with a reason) through the block services; partner
blocks arrive from the iCal sync and are read-only here."""

from django import forms
from django.contrib import admin, messages
from django.http import HttpResponseRedirect
from django.urls import reverse
from django.utils.translation import gettext as _

from booking.catalog.selectors import get_property
from booking.errors import BookingError, InvalidInput
from booking.reservations.models import DateBlock
from booking.reservations.selectors import blocking_reservations
from booking.reservations.services import blocks as block_services
from config.admin import GuardedModelAdmin


class DateBlockForm(forms.ModelForm):
    class Meta:
        model = DateBlock
        fields = ["start", "end", "reason"]

    def clean(self):
        # A read-only look ahead so the usual clash comes back as a form error with the form
        # still filled in; the service re-checks under the calendar lock when saving.
        cleaned = super().clean()
        start, end = cleaned.get("start"), cleaned.get("end")
        if start and end:
            if end <= start:
                raise forms.ValidationError(_("The block must end after it starts."))
            clash = blocking_reservations(get_property(), start, end).first()
            if clash is not None:
                raise forms.ValidationError(
                    _("Reservation %(reservation)s (%(status)s) takes some of these nights; cancel it first.")
                    % {"reservation": clash.pk, "status": clash.get_status_display()}
                )
        return cleaned


@admin.register(DateBlock)
class DateBlockAdmin(GuardedModelAdmin):
    """Staff block nights here (with a reason); partner blocks arrive from the iCal sync."""

    list_display = ["start", "end", "source", "reason", "feed_key", "created_by"]
    list_filter = ["source", "feed_key"]
    search_fields = ["reason", "external_uid"]
    form = DateBlockForm

    def has_change_permission(self, request, obj=None):
        return obj is None or obj.source == DateBlock.Source.STAFF and super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None):
        return (obj is None or obj.source == DateBlock.Source.STAFF) and super().has_delete_permission(request, obj)

    def save_model(self, request, obj, form, change):
        actor = f"staff {request.user.get_username()}"
        try:
            if change:
                block = block_services.change_block(obj.pk, start=obj.start, end=obj.end, reason=obj.reason, actor=actor)
            else:
                block = block_services.block_dates(start=obj.start, end=obj.end, reason=obj.reason, actor=actor)
        except BookingError as error:
            # Lost a race with a hold after the form's check: nothing was written. Say only that.
            request.block_refused = "; ".join(p.msg for p in error.problems) if isinstance(error, InvalidInput) else error.detail
            return
        obj.pk = block.pk

    def log_addition(self, request, obj, message):
        if not getattr(request, "block_refused", None):
            return super().log_addition(request, obj, message)

    def log_change(self, request, obj, message):
        if not getattr(request, "block_refused", None):
            return super().log_change(request, obj, message)

    def _refused_response(self, request, obj):
        self.message_user(request, request.block_refused, messages.ERROR)
        target = reverse("admin:reservations_dateblock_change", args=[obj.pk]) if obj.pk else reverse("admin:reservations_dateblock_add")
        return HttpResponseRedirect(target)

    def response_add(self, request, obj, post_url_continue=None):
        if getattr(request, "block_refused", None):
            return self._refused_response(request, obj)
        return super().response_add(request, obj, post_url_continue)

    def response_change(self, request, obj):
        if getattr(request, "block_refused", None):
            return self._refused_response(request, obj)
        return super().response_change(request, obj)

    def delete_model(self, request, obj):
        block_services.unblock_dates(obj.pk, actor=f"staff {request.user.get_username()}")

    def delete_queryset(self, request, queryset):
        for block in queryset.filter(source=DateBlock.Source.STAFF):
            self.delete_model(request, block)
