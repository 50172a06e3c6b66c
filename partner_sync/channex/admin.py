"""The back office for the channel manager: the connection (its ids and markup, editable; its
state: connected, last push, nights waiting, last revision, last error) with a "send everything
again" button (the `resync_channex` permission, a POST with CSRF), and the booking revisions
received, read-only. Actions call partner_sync.channex services."""

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.utils import quote
from django.core.exceptions import PermissionDenied
from django.db import models
from django.http import HttpRequest, HttpResponseRedirect
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from booking.admin_display import time_column
from config.admin import GuardedModelAdmin
from partner_sync.channex import push
from partner_sync.channex.connection import is_on
from partner_sync.channex.status import channel_manager_status
from partner_sync.models import ChannexConnection, ChannexRevision


def _https_by_default(field: models.Field, **kwargs) -> forms.Field | None:
    if isinstance(field, models.URLField):
        kwargs["assume_scheme"] = "https"  # as the feeds' (Django 6's default)
    return field.formfield(**kwargs)


class ConnectionForm(forms.ModelForm):
    class Meta:
        model = ChannexConnection
        formfield_callback = _https_by_default
        fields = ["api_base", "property_id", "room_type_id", "rate_plan_id", "channel_rate_markup_percent"]


STATE_FIELDS = ["last_push_at_local", "last_revision_at_local", "last_full_sync_at_local", "last_error", "retry_at_local"]


@admin.register(ChannexConnection)
class ChannexConnectionAdmin(GuardedModelAdmin):
    form = ConnectionForm
    formfield_overrides = {models.URLField: {"assume_scheme": "https"}}  # as the feeds' (Django 6's default)
    list_display = ["__str__", "property_id", "connected", "last_push_at_local", "pending", "last_revision_at_local", "last_error"]
    fieldsets = [
        (None, {"fields": ["api_base", "property_id", "room_type_id", "rate_plan_id", "channel_rate_markup_percent"]}),
        (gettext_lazy("State"), {"fields": [*STATE_FIELDS]}),
    ]
    readonly_fields = STATE_FIELDS
    last_push_at_local = time_column(ChannexConnection, "last_push_at")
    last_revision_at_local = time_column(ChannexConnection, "last_revision_at")
    last_full_sync_at_local = time_column(ChannexConnection, "last_full_sync_at")
    retry_at_local = time_column(ChannexConnection, "retry_at")

    def get_urls(self):
        resync = self.admin_site.admin_view(require_POST(self.resync_view))
        return [path("resync/", resync, name="partner_sync_channexconnection_resync"), *super().get_urls()]

    def changelist_view(self, request, extra_context=None):
        push.first_connection()
        context = {
            "channex_on": is_on(),
            "channex": channel_manager_status(),
            "can_resync": request.user.has_perm("partner_sync.resync_channex"),
            "resync_url": reverse("admin:partner_sync_channexconnection_resync"),
            **(extra_context or {}),
        }
        return super().changelist_view(request, extra_context=context)

    def resync_view(self, request: HttpRequest):
        if not request.user.has_perm("partner_sync.resync_channex"):
            raise PermissionDenied
        if not is_on():
            self.message_user(request, _("The channel manager is not connected: set CHANNEX_API_KEY."), messages.ERROR)
        else:
            push.queue_full_sync()
            self.message_user(request, _("Every night of the next 500 days will be sent to Channex again within a minute."), messages.SUCCESS)
        return HttpResponseRedirect(reverse("admin:partner_sync_channexconnection_changelist"))

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        if form.changed_data:  # other ids, another server or another markup: everything goes again
            push.queue_full_sync()
            self.message_user(request, _("Every night of the next 500 days will be sent to Channex again within a minute."), messages.INFO)

    @admin.display(description=gettext_lazy("Connected"), boolean=True)
    def connected(self, connection):
        status = channel_manager_status()
        return bool(status and status["connected"])

    @admin.display(description=gettext_lazy("Nights waiting"))
    def pending(self, connection):
        return push.pending_nights()

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(ChannexRevision)
class ChannexRevisionAdmin(admin.ModelAdmin):
    """Read-only: what Channex sent, as seen, and what became of it."""

    list_display = ["unique_id", "status", "outcome", "problem", "reservation_link", "inserted_at_local", "received_at_local", "acked_at_local"]
    list_filter = ["outcome", "status"]
    search_fields = ["unique_id", "booking_id", "revision_id"]
    readonly_fields = [
        "revision_id",
        "booking_id",
        "property_id",
        "status",
        "unique_id",
        "inserted_at_local",
        "received_at_local",
        "applied_at_local",
        "acked_at_local",
        "outcome",
        "problem",
        "reservation_link",
        "payload",
    ]
    fields = tuple(readonly_fields)
    inserted_at_local = time_column(ChannexRevision, "inserted_at")
    received_at_local = time_column(ChannexRevision, "received_at")
    applied_at_local = time_column(ChannexRevision, "applied_at")
    acked_at_local = time_column(ChannexRevision, "acked_at")

    @admin.display(description=gettext_lazy("Reservation"))
    def reservation_link(self, revision):
        if not revision.reservation_id:
            return "—"
        url = reverse("admin:reservations_reservation_change", args=[quote(revision.reservation_id)])
        return format_html('<a href="{}">{}</a>', url, revision.reservation_id)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
