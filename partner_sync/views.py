"""The partner endpoints: the sync's runtime status, and the calendar the platforms import."""

from django.http import HttpResponse
from django.utils.cache import get_conditional_response
from django.utils.http import http_date
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.negotiation import BaseContentNegotiation
from rest_framework.response import Response

from booking.api.base import ApiView, error
from partner_sync import selectors, services
from partner_sync.schemas import PartnerStatusResult

ICALENDAR = "text/calendar; charset=utf-8"


class PartnerStatusView(ApiView):
    @extend_schema(
        operation_id="partner_status",
        summary="Runtime status of the listing-platform iCal sync and of the listing probe",
        description=(
            "`ical`: the overall state and each imported calendar feed; `listing_probe`: the last check of the "
            "public listing page. `stale` means no success for three sync intervals (PARTNER_SYNC_SECONDS). "
            "`channel_manager`: the Channex connection (last push, nights waiting, last booking received, last error), "
            "null when it is off."
        ),
        responses={200: PartnerStatusResult, 503: error("service_unavailable")},
    )
    def get(self, request):
        services.ensure_configured_feeds()
        services.ensure_listing_probe()
        return Response(selectors.partner_status())


class JsonForErrors(BaseContentNegotiation):
    """The calendar view answers text/calendar whatever the Accept header says (platforms send all
    sorts); errors raised before or around it are rendered as the usual JSON."""

    def select_renderer(self, request, renderers, format_suffix=None):
        return renderers[0], renderers[0].media_type

    def select_parser(self, request, parsers):
        return parsers[0] if parsers else None


class CalendarExportView(ApiView):
    content_negotiation_class = JsonForErrors

    @extend_schema(
        operation_id="calendar_ics",
        summary="Our booked and blocked nights as an iCalendar feed, for the listing platforms to import",
        description=(
            'All-day events (VALUE=DATE, exclusive DTEND) for confirmed stays and unexpired holds ("Booked") and '
            'staff blocks ("Blocked"); no personal data. Supports conditional GET (ETag / Last-Modified → 304).'
        ),
        responses={
            (200, "text/calendar"): OpenApiResponse(OpenApiTypes.STR, description="An iCalendar document (RFC 5545)."),
            304: OpenApiResponse(description="Not modified since the ETag or date the client sent."),
            404: error("not_found: no property is configured"),
        },
    )
    def get(self, request):
        export = services.export_calendar()
        response = HttpResponse(export.body, content_type=ICALENDAR)
        response["ETag"] = export.etag
        response["Last-Modified"] = http_date(export.last_modified.timestamp())
        response["Cache-Control"] = "no-cache"  # revalidate every time; the 304 keeps that cheap
        response["Content-Disposition"] = 'inline; filename="calendar.ics"'
        return get_conditional_response(request, etag=export.etag, last_modified=int(export.last_modified.timestamp()), response=response)
