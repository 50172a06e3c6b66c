"""The back office for the partner sync: the owner edits the feeds (name, URL, enabled) and the
listing probe; staff see each feed's sync state, the probe's last check and the conflicts between
platform bookings and confirmed direct stays. Actions call partner_sync.services."""

from django.conf import settings
from django.contrib import admin, messages
from django.contrib.admin.utils import quote
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext, pgettext_lazy

from booking.admin_display import time_column
from config.admin import GuardedModelAdmin
from partner_sync import selectors, services
from partner_sync.channex.connection import is_on as channex_is_on
from partner_sync.models import Conflict, Feed, ListingProbe

STATE_COLOURS = {"ok": "#2e7d32", "never_synced": "#666", "disabled": "#666", "held_back": "#b26a00", "error": "#c62828", "stale": "#c62828"}
SYNC_STATE_FIELDS = [
    "last_attempt_at_local",
    "last_success_at_local",
    "last_outcome",
    "last_error",
    "last_status_code",
    "event_count",
    "empty_since_local",
    "etag",
    "last_modified",
    "created_at_local",
]


# Links pasted without a scheme are read as https (Django 6's default, chosen now).
URL_FIELDS = {models.URLField: {"assume_scheme": "https"}}


STATE_LABELS = {
    "ok": pgettext_lazy("sync state", "ok"),
    "never_synced": pgettext_lazy("sync state", "never synced"),
    "disabled": pgettext_lazy("sync state", "disabled"),
    "held_back": pgettext_lazy("sync state", "held back"),
    "error": pgettext_lazy("sync state", "error"),
    "stale": pgettext_lazy("sync state", "stale"),
    "not_configured": pgettext_lazy("sync state", "not configured"),
}

OUTCOME_LABELS = {
    "imported": pgettext_lazy("sync outcome", "imported"),
    "not_modified": pgettext_lazy("sync outcome", "not modified"),
    "held_back": pgettext_lazy("sync outcome", "held back"),
    "failed": pgettext_lazy("sync outcome", "failed"),
}


def state_badge(state: str):
    return format_html('<strong style="color:{}">{}</strong>', STATE_COLOURS.get(state, "#666"), STATE_LABELS.get(state, state.replace("_", " ")))


@admin.register(Feed)
class FeedAdmin(GuardedModelAdmin):
    formfield_overrides = URL_FIELDS
    list_display = [
        "name",
        "shown_url",
        "enabled",
        "source",
        "state",
        "last_attempt_at_local",
        "last_success_at_local",
        "last_status_code",
        "last_error",
        "event_count",
        "open_conflicts",
    ]
    list_filter = ["enabled", "last_outcome"]
    search_fields = ["name"]
    actions = ["sync_now"]
    fieldsets = [
        (None, {"fields": ["name", "url", "enabled", "source"]}),
        (gettext_lazy("Last sync"), {"fields": ["state", *SYNC_STATE_FIELDS]}),
    ]
    readonly_fields = ["source", "state", *SYNC_STATE_FIELDS]
    # Times on the property's clock with its zone (booking/admin_display.py).
    last_attempt_at_local = time_column(Feed, "last_attempt_at")
    last_success_at_local = time_column(Feed, "last_success_at")
    empty_since_local = time_column(Feed, "empty_since")
    created_at_local = time_column(Feed, "created_at")

    def get_queryset(self, request):
        return selectors.with_open_conflicts(super().get_queryset(request))

    def changelist_view(self, request, extra_context=None):
        services.ensure_configured_feeds()
        services.ensure_listing_probe()
        status = selectors.partner_status()
        open_conflicts = Conflict.objects.filter(resolved_at=None, reservation__status="confirmed").select_related("feed", "reservation").order_by("start")
        context = {
            "ical_state": status["ical"]["state"],
            "ical_state_badge": state_badge(status["ical"]["state"]),
            "probe": status["listing_probe"],
            "open_conflicts": [
                {"conflict": c, "reservation_url": reverse("admin:reservations_reservation_change", args=[quote(c.reservation_id)])} for c in open_conflicts
            ],
            "interval_seconds": status["ical"]["interval_seconds"],
            "export_url": settings.BASE_URL + reverse("api-calendar-ics"),
            # Once the channel manager brings a platform's bookings, its iCal feed only repeats them.
            "channex_on": channex_is_on(),
            **(extra_context or {}),
        }
        return super().changelist_view(request, extra_context=context)

    @admin.display(description=gettext_lazy("URL"))
    def shown_url(self, feed):
        return selectors.mask_url(feed.url)

    @admin.display(description=gettext_lazy("Source"))
    def source(self, feed):
        return "PARTNER_ICAL_URLS" if feed.from_environment else pgettext("feed source", "admin")

    @admin.display(description=gettext_lazy("State"))
    def state(self, feed):
        return state_badge(selectors.feed_state(feed, now=timezone.now()))

    @admin.display(description=gettext_lazy("Conflicts"), ordering="open_conflicts")
    def open_conflicts(self, feed):
        count = feed.open_conflicts
        if not count:
            return "0"
        url = reverse("admin:partner_sync_conflict_changelist") + f"?feed__id__exact={feed.pk}&resolved_at__isnull=True"
        return format_html('<a href="{}" style="color:#c62828"><strong>{}</strong></a>', url, count)

    def has_delete_permission(self, request, obj=None):
        # A feed listed in PARTNER_ICAL_URLS would be seeded again at once: disable it instead.
        if obj is not None and obj.from_environment and obj.environment_url in services.configured_feed_urls():
            return False
        return super().has_delete_permission(request, obj)

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        services.feed_settings_changed(obj, changed=set(form.changed_data))
        if "enabled" in form.changed_data and not obj.enabled:
            self.message_user(
                request, _("%(feed)s: its blocks were removed; those nights are open for direct stays again.") % {"feed": obj.name}, messages.WARNING
            )

    def delete_model(self, request, obj):
        services.delete_feed(obj)

    def delete_queryset(self, request, queryset):
        for feed in queryset:
            if self.has_delete_permission(request, feed):
                services.delete_feed(feed)

    @admin.action(description=gettext_lazy("Sync the selected calendars now"), permissions=["change"])
    def sync_now(self, request, queryset):
        reports = services.sync_feeds_now(list(queryset.values_list("pk", flat=True)))
        for report in reports:
            level = messages.ERROR if report.outcome == "failed" else messages.WARNING if report.error else messages.SUCCESS
            detail = report.error or _("%(created)d new, %(updated)d moved, %(deleted)d removed blocks; %(conflicts)d conflicts") % {
                "created": report.created,
                "updated": report.updated,
                "deleted": report.deleted,
                "conflicts": report.conflicts,
            }
            self.message_user(request, f"{report.feed_name}: {OUTCOME_LABELS.get(report.outcome, report.outcome.replace('_', ' '))}. {detail}", level)
        if not reports:
            self.message_user(request, _("Nothing was synced: the selected calendars are disabled or being synced right now."), messages.WARNING)


@admin.register(Conflict)
class ConflictAdmin(admin.ModelAdmin):
    """Read-only: a conflict resolves itself once the platform's booking or the direct stay is gone."""

    list_display = ["feed", "start", "end", "reservation_link", "reservation_status", "first_seen_at_local", "last_seen_at_local", "resolved_at_local"]
    list_filter = [("resolved_at", admin.EmptyFieldListFilter), "feed"]
    list_select_related = ["feed", "reservation"]
    readonly_fields = [
        "feed",
        "reservation_link",
        "reservation_status",
        "external_uid",
        "start",
        "end",
        "first_seen_at_local",
        "last_seen_at_local",
        "resolved_at_local",
    ]
    fields = readonly_fields
    first_seen_at_local = time_column(Conflict, "first_seen_at")
    last_seen_at_local = time_column(Conflict, "last_seen_at")
    resolved_at_local = time_column(Conflict, "resolved_at")

    @admin.display(description=gettext_lazy("Direct stay"))
    def reservation_link(self, conflict):
        url = reverse("admin:reservations_reservation_change", args=[quote(conflict.reservation_id)])
        return format_html('<a href="{}">{}</a>', url, conflict.reservation_id)

    @admin.display(description=gettext_lazy("Stay status"))
    def reservation_status(self, conflict):
        return conflict.reservation.get_status_display()

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(ListingProbe)
class ListingProbeAdmin(GuardedModelAdmin):
    formfield_overrides = URL_FIELDS
    list_display = ["shown_url", "enabled", "last_attempt_at_local", "last_success_at_local", "last_status_code", "latency_ms", "last_error", "stale"]
    fields = ["url", "enabled", "last_attempt_at_local", "last_success_at_local", "last_status_code", "latency_ms", "last_error"]
    readonly_fields = ["last_attempt_at_local", "last_success_at_local", "last_status_code", "latency_ms", "last_error"]
    last_attempt_at_local = time_column(ListingProbe, "last_attempt_at")
    last_success_at_local = time_column(ListingProbe, "last_success_at")
    actions = ["probe_now"]

    def changelist_view(self, request, extra_context=None):
        services.ensure_listing_probe()
        return super().changelist_view(request, extra_context)

    @admin.display(description=gettext_lazy("URL"))
    def shown_url(self, probe):
        return selectors.mask_url(probe.url) or "—"

    @admin.display(description=gettext_lazy("Stale"), boolean=True)
    def stale(self, probe):
        return selectors.listing_probe_status(now=timezone.now())["stale"]

    def has_add_permission(self, request):
        return not ListingProbe.objects.filter(pk=ListingProbe.SINGLETON_PK).exists()

    def save_model(self, request, obj, form, change):
        obj.pk = ListingProbe.SINGLETON_PK  # a single row: the status endpoint reads this one
        super().save_model(request, obj, form, change)

    @admin.action(description=gettext_lazy("Probe the listing now"), permissions=["change"])
    def probe_now(self, request, queryset):
        probe = services.probe_listing()
        if probe is None or not probe.url or not probe.enabled:
            self.message_user(request, _("The probe has no URL or is disabled."), messages.WARNING)
        elif probe.last_error:
            self.message_user(request, _("The listing did not answer well: %(error)s") % {"error": probe.last_error}, messages.ERROR)
        else:
            self.message_user(
                request, _("The listing answered %(status)s in %(ms)s ms.") % {"status": probe.last_status_code, "ms": probe.latency_ms}, messages.SUCCESS
            )


# The channel manager (Channex): its connection and the booking revisions it sent.
from partner_sync.channex import admin as channex_admin  # noqa: E402, F401
