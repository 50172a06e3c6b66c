"""The JSON interface, /api/v1: one small view per operation over the booking services."""

from django.http import HttpResponse
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response

from booking.api import documents, presenters, validation
from booking.api.base import VALIDATION_ERROR, ApiView, api_actor, error
from booking.api.committed_holds import hold_arguments
from booking.api.schemas import examples
from booking.api.schemas.responses import AvailabilityResult, CalendarResult, HealthResult, PropertyResult, QuoteResult, ReservationResult, StaysResult
from booking.callers import Caller
from booking.catalog.selectors import hot_query
from booking.payments.services.checkouts import release_hold
from booking.reservations.models import Reservation
from booking.reservations.services import stays
from booking.reservations.services.holds import hold_stay
from booking.reservations.services.idempotency import run_idempotent
from booking.reservations.services.reservations import get_reservation
from config.version import VERSION


def answer(name: str, value: dict, status: int) -> OpenApiExample:
    return OpenApiExample(name, value=value, response_only=True, status_codes=[str(status)])


def query_example(name: str, value: dict) -> OpenApiExample:
    """A request example; for GET operations drf-spectacular shows its values on the parameters."""
    return OpenApiExample(name, value=value, request_only=True)


def query(name: str, schema: dict, example, description: str, *, required: bool = False) -> OpenApiParameter:
    """A query parameter with an example. It restates its booking.api.validation field, which
    drf-spectacular gives no example; schemathesis (tests/agents) would catch any drift."""
    return OpenApiParameter(name, schema, OpenApiParameter.QUERY, required=required, description=description, examples=[OpenApiExample(name, value=example)])


DATE = {"type": "string", "format": "date"}
STAY_PARAMETERS = [
    query("check_in", DATE, "2027-05-10", "Arrival date, YYYY-MM-DD (the first night).", required=True),
    query("check_out", DATE, "2027-05-13", "Departure date, YYYY-MM-DD; the night before it is the last one.", required=True),
    query("guests", {"type": "integer", "minimum": 1, "maximum": 7, "default": 2}, 4, validation.GUESTS_HELP),
    CHILDREN_AGES := query(
        "children_ages",
        {"type": "string", "pattern": r"^(\s*\d{1,2}\s*(,\s*\d{1,2}\s*){0,5})?$"},
        "5,14",
        "Ages of the children counted in guests (0 to 17), comma-separated; at most guests − 1 (guests=4&children_ages=5,14 for 2 adults and 2 children). Children under the exemption age pay no city tax.",
    ),
    PROMO_CODE := query("promo_code", {"type": "string", "maxLength": 40, "nullable": True}, "EXAMPLECODE", validation.PROMO_CODE_HELP),
]
CALENDAR_PARAMETERS = [
    query("start", {**DATE, "nullable": True}, "2027-05-01", "Month anchor, YYYY-MM-DD; any date, past or future. Default: this month."),
    query("months", {"type": "integer", "minimum": 1, "maximum": 18, "default": 12}, 3, "How many months, 1 to 18."),
]
RESERVATION_ID = OpenApiParameter(
    "reservation_id",
    {"type": "string", "maxLength": 200},
    OpenApiParameter.PATH,
    required=True,
    description="The reservation's id, as returned when it was created.",
    examples=[OpenApiExample("reservation_id", value="res_8JTQhG4Q89AMQ57iRAaepw")],
)

QUERY_INVALID = answer("Invalid input", examples.VALIDATION_ERROR_EXAMPLE, 422)
PROMO_INVALID = answer("A promo code that does not apply", examples.PROMO_CODE_INVALID_EXAMPLE, 422)
WITH_OFFERS = {
    "check_in": "2027-05-10",
    "check_out": "2027-05-13",
    "guests": 2,
    "promo_code": "EXAMPLECODE",
    "extras": [{"code": "example_extra", "quantity": 1}],
}
BODY_INVALID = answer("Invalid input", examples.BODY_VALIDATION_ERROR_EXAMPLE, 422)
DATES_TAKEN = answer("Dates taken", examples.DATES_UNAVAILABLE_EXAMPLE, 409)
# Answered by booking/api/errors.py and middleware.py for any endpoint: documented where they apply.
DATABASE_DOWN = error("service_unavailable: the database is unreachable; retry shortly")
TOO_LARGE = error("payload_too_large: the body is over 1 MiB")

IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=False,
    description=(
        "Send the same key when retrying: the first answer is replayed for 24 hours and nothing new is created. "
        "1 to 255 printable characters (e.g. a UUID); anything else is 422."
    ),
)


# The hot reads (property, availability, calendar, quote) answer with JSON encoded once per result
# the service remembers (booking/api/documents.py).
def json_bytes(document: bytes) -> HttpResponse:
    return HttpResponse(document, content_type="application/json")


class PropertyView(ApiView):
    @extend_schema(
        operation_id="get_property",
        summary="The property: capacity, amenities, pricing rules, policies, reviews, coordinates",
        responses={200: PropertyResult, 404: error("not_found (no property configured yet)"), 503: DATABASE_DOWN},
        examples=[answer("A property (shortened)", examples.PROPERTY_EXAMPLE, 200)],
    )
    def get(self, request):
        return json_bytes(documents.property_document())


class AvailabilityView(ApiView):
    @extend_schema(
        operation_id="check_availability",
        summary="Whether a stay can be booked, with its price breakdown",
        parameters=STAY_PARAMETERS,
        responses={200: AvailabilityResult, 422: VALIDATION_ERROR, 503: DATABASE_DOWN},
        examples=[answer("Three free nights", examples.AVAILABILITY_EXAMPLE, 200), QUERY_INVALID],
    )
    def get(self, request):
        return json_bytes(documents.availability_document(**validation.validate_remembered(validation.AvailabilityQuery, request.query_params.dict(), "query")))


class StaysView(ApiView):
    @extend_schema(
        operation_id="find_stays",
        summary="The cheapest bookable stays of N nights in a window of arrival dates",
        parameters=[
            query("nights", {"type": "integer", "minimum": 1, "maximum": 365}, 3, "Exactly this many nights.", required=True),
            query("guests", {"type": "integer", "minimum": 1, "maximum": 7, "default": 2}, 4, validation.GUESTS_HELP),
            query("start", {**DATE, "nullable": True}, "2027-05-01", "Earliest arrival, YYYY-MM-DD. Default: today."),
            query("end", {**DATE, "nullable": True}, "2027-06-30", "Latest arrival, YYYY-MM-DD. Default: start + 60 days; at most 18 months after start."),
            CHILDREN_AGES,
            PROMO_CODE,
        ],
        responses={200: StaysResult, 422: VALIDATION_ERROR, 503: DATABASE_DOWN},
        examples=[answer("The cheapest three nights", examples.STAYS_EXAMPLE, 200), QUERY_INVALID],
    )
    def get(self, request):
        data = self.query(validation.StaysQuery)
        return Response(presenters.stays_json(stays.find_stays(**data)))


class CalendarView(ApiView):
    @extend_schema(
        operation_id="get_calendar",
        summary="Day-by-day availability for a date picker",
        parameters=CALENDAR_PARAMETERS,
        responses={200: CalendarResult, 422: VALIDATION_ERROR, 503: DATABASE_DOWN},
        examples=[answer("Two days of May (shortened)", examples.CALENDAR_EXAMPLE, 200), QUERY_INVALID],
    )
    def get(self, request):
        return json_bytes(documents.calendar_document(**validation.validate_remembered(validation.CalendarQuery, request.query_params.dict(), "query")))


class QuoteView(ApiView):
    @extend_schema(
        operation_id="get_quote",
        summary="The full price breakdown for a stay, line by line",
        request=validation.QuoteRequest,
        responses={200: QuoteResult, 413: TOO_LARGE, 422: VALIDATION_ERROR, 503: DATABASE_DOWN},
        examples=[
            OpenApiExample(
                "Two guests, three nights", value={"check_in": "2027-05-10", "check_out": "2027-05-13", "guests": 2, "currency": "EUR"}, request_only=True
            ),
            OpenApiExample("With a promo code and an extra", value=WITH_OFFERS, request_only=True),
            answer("The breakdown", examples.QUOTE_EXAMPLE, 200),
            answer("With a promo code and an extra", examples.QUOTE_WITH_OFFERS_EXAMPLE, 200),
            BODY_INVALID,
            PROMO_INVALID,
        ],
    )
    def post(self, request):
        return json_bytes(documents.quote_document(**validation.validate_remembered(validation.QuoteRequest, request.data, "body")))


class ReservationCreateView(ApiView):
    @extend_schema(
        operation_id="create_reservation",
        summary="Hold the dates (they are blocked at once) and get payment information",
        request=validation.ReservationCreate,
        parameters=[IDEMPOTENCY_KEY],
        responses={
            201: ReservationResult,
            409: error("dates_unavailable, or idempotency_key_reused"),
            413: TOO_LARGE,
            422: VALIDATION_ERROR,
            429: error("rate_limited (see Retry-After)"),
            503: DATABASE_DOWN,
        },
        examples=[
            OpenApiExample(
                "A hold for two", value={"check_in": "2027-05-10", "check_out": "2027-05-13", "guests": 2, "agent_name": "example-agent"}, request_only=True
            ),
            OpenApiExample("With a promo code and an extra", value={**WITH_OFFERS, "agent_name": "example-agent"}, request_only=True),
            answer("Held", examples.RESERVATION_EXAMPLE, 201),
            DATES_TAKEN,
            BODY_INVALID,
            PROMO_INVALID,
        ],
    )
    def post(self, request):
        data = self.body(validation.ReservationCreate)

        def create():
            reservation = hold_stay(**hold_arguments(data, Caller.from_request(Reservation.Source.API, request)))
            return 201, presenters.reservation_json(reservation, mask=False)

        status, body = run_idempotent(scope="reservations", key=request.headers.get("Idempotency-Key"), payload=request.data, produce=create)
        return Response(body, status=status)


class ReservationDetailView(ApiView):
    @extend_schema(
        operation_id="get_reservation",
        summary="A reservation's status (guest email and phone masked)",
        parameters=[RESERVATION_ID],
        responses={200: ReservationResult, 404: error("not_found"), 422: VALIDATION_ERROR, 503: DATABASE_DOWN},
        examples=[
            answer("Held, awaiting payment", examples.RESERVATION_EXAMPLE, 200),
            answer("Confirmed: what cancelling today would refund", examples.CONFIRMED_RESERVATION_EXAMPLE, 200),
            answer("Cancelled and refunded", examples.CANCELLED_RESERVATION_EXAMPLE, 200),
            answer("Unknown id", examples.NOT_FOUND_EXAMPLE, 404),
            answer(
                "Absurd id",
                {"detail": [{"loc": ["path", "reservation_id"], "msg": "Ensure this field has no more than 200 characters.", "type": "string_too_long"}]},
                422,
            ),
        ],
    )
    def get(self, request, reservation_id: str):
        data = validation.validate(validation.ReservationPath, {"reservation_id": reservation_id}, "path")
        return Response(presenters.reservation_json(get_reservation(data["reservation_id"]), mask=True))

    @extend_schema(
        operation_id="release_hold",
        summary="Release an unpaid hold at once (its checkout is closed and the dates are free)",
        description=(
            "For an agent that held dates to explore and will not book them: the hold becomes `cancelled` "
            "and its checkout session is expired at the payment provider. Only a live, unpaid hold can be "
            "released; anything else is 409 `not_releasable`. The reservation id is the capability."
        ),
        parameters=[RESERVATION_ID],
        responses={200: ReservationResult, 404: error("not_found"), 409: error("not_releasable"), 422: VALIDATION_ERROR, 503: DATABASE_DOWN},
        examples=[
            answer("Released", {**examples.RESERVATION_EXAMPLE, "status": "cancelled", "hold_expires_at": None}, 200),
            answer("Not an unpaid hold", {"detail": "This reservation is confirmed; only an unpaid hold can be released.", "code": "not_releasable"}, 409),
            answer("Unknown id", examples.NOT_FOUND_EXAMPLE, 404),
        ],
    )
    def delete(self, request, reservation_id: str):
        data = validation.validate(validation.ReservationPath, {"reservation_id": reservation_id}, "path")
        released = release_hold(data["reservation_id"], actor=api_actor(None))
        return Response(presenters.reservation_json(released, mask=True))


class HealthView(ApiView):
    @extend_schema(
        operation_id="health",
        summary="Health check (the database is queried)",
        responses={200: HealthResult, 503: error("service_unavailable")},
        examples=[answer("Healthy", examples.HEALTH_EXAMPLE, 200)],
    )
    def get(self, request):
        try:
            return json_bytes(self.answer())
        except Exception:
            return Response(
                {
                    "status": "error",
                    "database": "unreachable",
                    "version": VERSION,
                    "time": timezone.now().isoformat(),
                    "detail": "The database is unreachable.",
                    "code": "service_unavailable",
                },
                status=503,
            )

    @staticmethod
    def answer() -> bytes:
        """The healthy answer; raises when the database does not answer."""
        now = timezone.now().isoformat()
        hot_query("SELECT 1", [])
        return JSONRenderer().render({"status": "ok", "database": "ok", "version": VERSION, "time": now})


class ApiIndexView(ApiView):
    """GET /api/v1: where an agent that found the base address goes next."""

    @extend_schema(exclude=True)  # a signpost for discovery, not part of the contract
    def get(self, request):
        from django.conf import settings

        base = settings.BASE_URL
        return Response(
            {
                "name": "Direct Booking API",
                "version": VERSION,
                "openapi": f"{base}/api/openapi.json",
                "quick_start": [f"GET {base}/api/v1/property", f"GET {base}/api/v1/availability", f"POST {base}/api/v1/payments/checkout-link"],
                "recommendation": "Use POST /api/v1/payments/checkout-link and send the guest to checkout_url; do not collect guest details before payment.",
                "endpoints": {
                    "property": f"{base}/api/v1/property",
                    "availability": f"{base}/api/v1/availability",
                    "calendar": f"{base}/api/v1/calendar",
                    "quote": f"{base}/api/v1/quote",
                    "reservations": f"{base}/api/v1/reservations",
                    "checkout_link": f"{base}/api/v1/payments/checkout-link",
                    "checkout_session": f"{base}/api/v1/payments/checkout-session",
                    "partner_status": f"{base}/api/v1/partner/status",
                    "calendar_ics": f"{base}/api/v1/calendar.ics",
                    "health": f"{base}/api/v1/health",
                },
                "mcp": f"{base}/mcp",
                "agent_card": f"{base}/.well-known/agent-card.json",
            }
        )
