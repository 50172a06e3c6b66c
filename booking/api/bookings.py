"""/api/v1/bookings/{manage_token}: a paid stay managed by its guest's agent with the manage token,
through the same services as the guest's manage page (booking/payments/services/guest_bookings.py).

The token is the guest's capability (from the confirmation email), so an unknown one is a 404
counted by the manage page's limit on unknown tokens per client (then 429), and the answers are
never cached.
"""

from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework.response import Response

from booking.api import presenters, validation
from booking.api.base import VALIDATION_ERROR, ApiView, error
from booking.api.schemas.responses import CancelBookingResult, ChangeBookingDatesResult, GuestBookingResult
from booking.callers import client_ip
from booking.payments.services import guest_bookings

MANAGE_TOKEN = OpenApiParameter(
    "manage_token",
    {"type": "string", "maxLength": 200},
    OpenApiParameter.PATH,
    required=True,
    description=validation.MANAGE_TOKEN_HELP,
    examples=[OpenApiExample("manage_token", value="k3Jd8sQ2vX9bL0pR7tW4yZ1aC6eF5gH8iJ2kL3mN4oP")],
)
NOT_FOUND = error("not_found: no booking with this token")
LIMITED = error("rate_limited: too many unknown tokens from this client (see Retry-After)")


def valid_token(manage_token: str) -> str:
    return validation.validate(validation.BookingPath, {"manage_token": manage_token}, "path")["manage_token"]


def private(body: dict) -> Response:
    response = Response(body)
    response["Cache-Control"] = "private, no-store"
    return response


class BookingView(ApiView):
    @extend_schema(
        operation_id="get_booking",
        summary="A paid stay by its guest's manage token: the reservation and what can be done with it",
        parameters=[MANAGE_TOKEN],
        responses={200: GuestBookingResult, 404: NOT_FOUND, 422: VALIDATION_ERROR, 429: LIMITED},
    )
    def get(self, request, manage_token: str):
        token = valid_token(manage_token)
        booking = guest_bookings.booking_for_token(token, client_ip=client_ip(request))
        return private(presenters.guest_booking_json(guest_bookings.guest_booking(booking)))


class CancelBookingView(ApiView):
    @extend_schema(
        operation_id="cancel_booking",
        summary="Cancel a paid stay by the policy the guest accepted, or preview the refund",
        description='`{"confirm": false}` answers the refund cancelling now would make and changes nothing; `{"confirm": true}` cancels '
        "(the same cancellation as the guest's manage page: refund by the accepted policy, dates freed, email sent). A second cancel refunds nothing.",
        request=validation.BookingCancel,
        parameters=[MANAGE_TOKEN],
        responses={
            200: CancelBookingResult,
            404: NOT_FOUND,
            409: error("invalid_transition: the stay has begun or is not confirmed"),
            422: VALIDATION_ERROR,
            429: LIMITED,
        },
        examples=[OpenApiExample("Preview", value={"confirm": False}, request_only=True)],
    )
    def post(self, request, manage_token: str):
        token = valid_token(manage_token)
        data = self.body(validation.BookingCancel)
        cancellation = guest_bookings.cancel_booking(token, client_ip=client_ip(request), confirm=data["confirm"])
        return private(presenters.cancellation_answer_json(cancellation))


class ChangeBookingDatesView(ApiView):
    @extend_schema(
        operation_id="change_booking_dates",
        summary="Move a paid stay to other dates, or preview the new price",
        description="With `confirm` false: the new price and what it means for the money (refund of the difference, or a balance owed and "
        "when the saved card is charged), nothing changed. With `confirm` true: the change, by the manage page's rules (only while "
        "cancelling would refund everything; the nights must be free). A balance owed can be paid at `booking.manage.pay_balance_url`.",
        request=validation.BookingChangeDates,
        parameters=[MANAGE_TOKEN],
        responses={
            200: ChangeBookingDatesResult,
            404: NOT_FOUND,
            409: error("dates_unavailable, or date_change_not_allowed (not_confirmed, too_late, same_dates, in_the_past, price_changed)"),
            422: VALIDATION_ERROR,
            429: LIMITED,
        },
        examples=[OpenApiExample("Preview", value={"check_in": "2027-05-17", "check_out": "2027-05-20", "confirm": False}, request_only=True)],
    )
    def post(self, request, manage_token: str):
        token = valid_token(manage_token)
        data = self.body(validation.BookingChangeDates)
        answer = guest_bookings.change_booking_dates(
            token, data["check_in"], data["check_out"], client_ip=client_ip(request), confirm=data["confirm"], expected_total=data.get("expected_total")
        )
        return private(presenters.date_change_answer_json(answer))
