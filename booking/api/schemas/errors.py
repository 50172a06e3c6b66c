"""The error bodies of the OpenAPI document: invalid input as a list of located errors (422), and
one shape for every other error (booking/api/errors.py)."""

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers as s


@extend_schema_field({"anyOf": [{"type": "string"}, {"type": "integer"}]})
class LocPart(s.JSONField):
    """A step of an error's location: a field name, or the index of a list item."""


class ValidationErrorItem(s.Serializer):
    loc = s.ListField(child=LocPart(), help_text="Where the error is: 'query', 'body' or 'path', then field names or list indexes.")
    msg = s.CharField(help_text="What is wrong, for a human.")
    type = s.CharField(help_text="What is wrong, for a machine, e.g. missing, less_than_equal, date_in_past.")

    class Meta:
        ref_name = "ValidationError"


class HTTPValidationError(s.Serializer):
    detail = ValidationErrorItem(many=True)
    request_id = s.CharField(required=False, help_text="This request's id (also the X-Request-ID header), to quote when reporting a problem.")

    class Meta:
        ref_name = "HTTPValidationError"


class ErrorBody(s.Serializer):
    detail = s.CharField()
    code = s.CharField(
        help_text="not_found, dates_unavailable, reservation_not_payable, idempotency_key_reused, rate_limited, payload_too_large, payment_provider_error, service_unavailable, …"
    )
    unavailable_reason = s.CharField(
        required=False,
        allow_null=True,
        help_text="With dates_unavailable: booked, on_hold, min_stay, max_stay, closed_to_arrival, closed_to_departure, beyond_booking_window.",
    )
    held_until = s.DateTimeField(required=False, help_text="With on_hold: when the unpaid hold in the way lapses unless paid.")
    retry_after = s.IntegerField(required=False, help_text="With rate_limited: seconds to wait before trying again (also the Retry-After header).")
    request_id = s.CharField(required=False, help_text="This request's id (also the X-Request-ID header), to quote when reporting a problem.")

    class Meta:
        ref_name = "Error"
