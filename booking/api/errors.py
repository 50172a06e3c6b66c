"""One translation of errors to HTTP for the whole JSON interface (docs/contract.md, "Errors").

422 → {"detail": [{"loc", "msg", "type"}, ...]}; everything else → {"detail": "...", "code": "..."}.
"""

import logging

from django.core.exceptions import RequestDataTooBig, SuspiciousOperation, TooManyFieldsSent
from django.db import DatabaseError, InterfaceError, OperationalError
from django.http import Http404, JsonResponse
from rest_framework import exceptions as drf
from rest_framework.response import Response

from booking.errors import BookingError, RateLimited
from config.observability import current_request_id

logger = logging.getLogger("booking.api")

DRF_CODES = {
    drf.MethodNotAllowed: "method_not_allowed",
    drf.UnsupportedMediaType: "unsupported_media_type",
    drf.NotAcceptable: "not_acceptable",
    drf.NotFound: "not_found",
    drf.PermissionDenied: "permission_denied",
    drf.NotAuthenticated: "not_authenticated",
}


def error_body(detail: str, code: str) -> dict:
    return {"detail": detail, "code": code, "request_id": current_request_id()}


def booking_error_response(error: BookingError) -> Response:
    body = error.as_body()
    if isinstance(body.get("detail"), str):  # the 422 body keeps exactly the spec's shape
        body["request_id"] = current_request_id()
    response = Response(body, status=error.status)
    if isinstance(error, RateLimited):
        response["Retry-After"] = str(max(1, int(error.retry_after)))
    return response


def exception_handler(exc, context):
    if isinstance(exc, BookingError):
        return booking_error_response(exc)
    response = request_error_response(exc)
    if response is not None:
        return response
    if isinstance(exc, drf.APIException):
        code = DRF_CODES.get(type(exc), exc.default_code)
        response = Response(error_body(str(exc.detail), code), status=exc.status_code)
        wait = getattr(exc, "wait", None)  # DRF's Throttled
        if wait:
            response["Retry-After"] = str(int(wait))
        return response
    if isinstance(exc, (OperationalError, InterfaceError)):
        logger.error("database unavailable: %s: %s", exc.__class__.__name__, exc)
        return Response(error_body("The database is unavailable; try again shortly.", "service_unavailable"), status=503)
    if isinstance(exc, DatabaseError):
        logger.exception("database error")
        return Response(error_body("The request could not be stored; try again.", "service_unavailable"), status=503)
    logger.exception("unhandled error in %s", context.get("view").__class__.__name__ if context else "?")
    return Response(error_body("An unexpected error occurred; it has been logged.", "internal_error"), status=500)


def request_error_response(exc) -> Response | None:
    """The answer to a request that could not be read (not JSON, too large, malformed), or None."""
    if isinstance(exc, drf.ParseError):
        return Response(
            {"detail": [{"loc": ["body"], "msg": f"The body is not valid JSON: {exc.detail}", "type": "json_invalid"}]},
            status=422,
        )
    if isinstance(exc, RequestDataTooBig):
        return Response(error_body("The request body is larger than 1 MiB.", "payload_too_large"), status=413)
    if isinstance(exc, TooManyFieldsSent):
        return Response({"detail": [{"loc": ["query"], "msg": "Too many query parameters.", "type": "too_many_fields"}]}, status=422)
    if isinstance(exc, SuspiciousOperation):
        return Response(error_body("The request is malformed.", "bad_request"), status=400)
    if isinstance(exc, (Http404,)):
        return Response(error_body("Not found.", "not_found"), status=404)
    return None


def json_error(detail: str, code: str, status: int) -> JsonResponse:
    return JsonResponse(error_body(detail, code), status=status)
