"""The JSON interface, /api/v1: one small view per operation over the booking services."""

from django.db import connection
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework.response import Response

from booking import presenters, validation
from booking.api.base import VALIDATION_ERROR, ApiView, client_ip, error
from booking.api.schemas import AvailabilityResult, CalendarResult, HealthResult, QuoteResult, ReservationResult
from booking.models import Reservation
from booking.rules import rules_for
from booking.selectors import get_property
from booking.services import stays
from booking.services.holds import GuestDetails, hold_stay
from booking.services.idempotency import run_idempotent
from booking.services.reservations import get_reservation

IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key", OpenApiTypes.STR, OpenApiParameter.HEADER, required=False,
    description="Send the same key when retrying: the first answer is replayed for 24 hours and nothing new is created.",
)


class PropertyView(ApiView):
    @extend_schema(operation_id="get_property", summary="The property: capacity, amenities, pricing rules, policies, reviews, coordinates", responses={200: OpenApiTypes.OBJECT})
    def get(self, request):
        prop = get_property()
        return Response(presenters.property_json(prop, rules_for(prop)))


class AvailabilityView(ApiView):
    @extend_schema(
        operation_id="check_availability",
        summary="Whether a stay can be booked, with its price breakdown",
        parameters=[validation.AvailabilityQuery],
        responses={200: AvailabilityResult, 422: VALIDATION_ERROR},
        examples=[OpenApiExample("A free week", value={"check_in": "2027-05-10", "check_out": "2027-05-17", "guests": 2}, request_only=True)],
    )
    def get(self, request):
        data = self.query(validation.AvailabilityQuery)
        return Response(presenters.availability_json(stays.check_stay(**data)))


class CalendarView(ApiView):
    @extend_schema(
        operation_id="get_calendar",
        summary="Day-by-day availability for a date picker",
        parameters=[validation.CalendarQuery],
        responses={200: CalendarResult, 422: VALIDATION_ERROR},
    )
    def get(self, request):
        data = self.query(validation.CalendarQuery)
        return Response(presenters.calendar_json(stays.calendar_months(**data)))


class QuoteView(ApiView):
    @extend_schema(
        operation_id="get_quote",
        summary="The full price breakdown for a stay, line by line",
        request=validation.QuoteRequest,
        responses={200: QuoteResult, 422: VALIDATION_ERROR},
        examples=[OpenApiExample("Four guests, one week", value={"check_in": "2027-05-10", "check_out": "2027-05-17", "guests": 4, "currency": "EUR"}, request_only=True)],
    )
    def post(self, request):
        data = self.body(validation.QuoteRequest)
        return Response(presenters.quote_json(stays.quote_stay(**data)))


class ReservationCreateView(ApiView):
    @extend_schema(
        operation_id="create_reservation",
        summary="Hold the dates (they are blocked at once) and get payment information",
        request=validation.ReservationCreate,
        parameters=[IDEMPOTENCY_KEY],
        responses={
            201: ReservationResult,
            409: error("dates_unavailable, or idempotency_key_reused"),
            422: VALIDATION_ERROR,
            429: error("rate_limited (see Retry-After)"),
        },
        examples=[OpenApiExample("A hold for two", value={"check_in": "2027-05-10", "check_out": "2027-05-14", "guests": 2, "agent_name": "example-agent"}, request_only=True)],
    )
    def post(self, request):
        data = self.body(validation.ReservationCreate)

        def create():
            reservation = hold_stay(
                check_in=data["check_in"],
                check_out=data["check_out"],
                guests=data["guests"],
                guest=GuestDetails.from_input(data.get("guest")),
                special_requests=data.get("special_requests"),
                agent_name=data.get("agent_name"),
                source=Reservation.Source.API,
                client_ip=client_ip(request),
                actor=f"api ({data['agent_name']})" if data.get("agent_name") else "api",
            )
            return 201, presenters.reservation_json(reservation, mask=False)

        status, body = run_idempotent(scope="reservations", key=request.headers.get("Idempotency-Key"), payload=request.data, produce=create)
        return Response(body, status=status)


class ReservationDetailView(ApiView):
    @extend_schema(
        operation_id="get_reservation",
        summary="A reservation's status (guest email and phone masked)",
        responses={200: ReservationResult, 404: error("not_found"), 422: VALIDATION_ERROR},
    )
    def get(self, request, reservation_id: str):
        data = validation.validate(validation.ReservationPath, {"reservation_id": reservation_id}, "path")
        return Response(presenters.reservation_json(get_reservation(data["reservation_id"]), mask=True))


class HealthView(ApiView):
    @extend_schema(operation_id="health", summary="Health check (the database is queried)", responses={200: HealthResult, 503: error("service_unavailable")})
    def get(self, request):
        now = timezone.now().isoformat()
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT 1")
                cursor.fetchone()
        except Exception:
            return Response(
                {"status": "error", "database": "unreachable", "version": "1.0.0", "time": now,
                 "detail": "The database is unreachable.", "code": "service_unavailable"},
                status=503,
            )
        return Response({"status": "ok", "database": "ok", "version": "1.0.0", "time": now})
