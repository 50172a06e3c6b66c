"""Response shapes of the partner endpoints for the OpenAPI document (drf-spectacular). The bodies
are built in partner_sync/selectors.py; these serializers only describe them."""

from rest_framework import serializers as s

STATES = "ok, error, stale, held_back (a suddenly empty feed waits for confirmation), never_synced, disabled"


class FeedStatus(s.Serializer):
    name = s.CharField()
    url = s.CharField(help_text="scheme://host/path only: the query string (the platform's secret token) is never shown.")
    source = s.ChoiceField(choices=["environment", "admin"], help_text="Seeded from PARTNER_ICAL_URLS, or added in the admin.")
    configured = s.BooleanField(help_text="False for a feed seeded from PARTNER_ICAL_URLS and since removed from it.")
    enabled = s.BooleanField()
    state = s.CharField(help_text=STATES)
    last_attempt_at = s.DateTimeField(allow_null=True)
    last_success_at = s.DateTimeField(allow_null=True)
    last_error = s.CharField(allow_null=True, help_text="Names the HTTP status when there was one, e.g. 'HTTP 503 Service Unavailable'.")
    last_status_code = s.IntegerField(allow_null=True)
    events = s.IntegerField(help_text="Current and future events imported from the feed.")
    conflicts = s.IntegerField(help_text="Platform bookings overlapping a confirmed direct stay (staff must act).")
    stale = s.BooleanField(help_text="No successful sync for three intervals.")

    class Meta:
        ref_name = "PartnerFeedStatus"


class IcalStatus(s.Serializer):
    state = s.CharField(help_text=f"not_configured, disabled, or the worst state of the enabled feeds: {STATES}")
    interval_seconds = s.IntegerField(help_text="PARTNER_SYNC_SECONDS")
    feeds = FeedStatus(many=True)

    class Meta:
        ref_name = "PartnerIcalStatus"


class ListingProbeStatus(s.Serializer):
    configured = s.BooleanField()
    enabled = s.BooleanField()
    url = s.CharField(allow_null=True)
    last_attempt_at = s.DateTimeField(allow_null=True)
    last_success_at = s.DateTimeField(allow_null=True)
    last_error = s.CharField(allow_null=True)
    last_status_code = s.IntegerField(allow_null=True)
    latency_ms = s.IntegerField(allow_null=True, help_text="Time to the response headers.")
    stale = s.BooleanField(help_text="No successful probe for three intervals.")

    class Meta:
        ref_name = "PartnerListingProbeStatus"


class ChannelManagerStatus(s.Serializer):
    provider = s.ChoiceField(choices=["channex"])
    connected = s.BooleanField(help_text="Configured, and the last exchange with the channel manager went well.")
    last_push_at = s.DateTimeField(allow_null=True, help_text="When availability, rates or restrictions were last accepted.")
    pending_dates = s.IntegerField(help_text="Nights changed here and not yet accepted by the channel manager.")
    last_revision_at = s.DateTimeField(allow_null=True, help_text="When a booking from the channel manager was last applied.")
    last_error = s.CharField(allow_null=True)

    class Meta:
        ref_name = "PartnerChannelManagerStatus"


class PartnerStatusResult(s.Serializer):
    ical = IcalStatus()
    listing_probe = ListingProbeStatus()
    channel_manager = ChannelManagerStatus(allow_null=True, help_text="The Channex connection; null when it is off (no CHANNEX_API_KEY).")

    class Meta:
        ref_name = "PartnerStatus"
