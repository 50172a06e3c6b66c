"""Guards in front of the JSON interface: body size, and errors outside the views.

The body is read here once (Django enforces DATA_UPLOAD_MAX_MEMORY_SIZE on that read), so an
over-long body is a 413 however it was sent, chunked or not. Any error answer on an /api/ path
that is not JSON already (a 405 from a plain Django view, a 400 for a bad Host header, …) is
replaced by the JSON error shape (docs/contract.md, "Errors"), so an agent never has to parse HTML.
"""

import logging

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.db import InterfaceError, OperationalError

from booking.api.errors import json_error

logger = logging.getLogger("booking.api")


class ApiErrorMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if not request.path.startswith("/api/"):
            return self.get_response(request)
        if request.method in {"POST", "PUT", "PATCH"}:
            declared = request.META.get("CONTENT_LENGTH") or "0"
            if declared.isdigit() and int(declared) > settings.DATA_UPLOAD_MAX_MEMORY_SIZE:
                return json_error("The request body is larger than 1 MiB.", "payload_too_large", 413)
            try:
                request.body  # noqa: B018 (read once, under Django's size limit)
            except RequestDataTooBig:
                return json_error("The request body is larger than 1 MiB.", "payload_too_large", 413)
        response = self.get_response(request)
        if request.path.startswith(PAGES_FOR_PEOPLE):
            return response
        return as_json_error(response)

    def process_exception(self, request, exception):
        if not request.path.startswith("/api/"):
            return None
        if isinstance(exception, (OperationalError, InterfaceError)):
            return json_error("The database is unavailable; try again shortly.", "service_unavailable", 503)
        logger.exception("unhandled error on %s", request.path)
        return json_error("An unexpected error occurred; it has been logged.", "internal_error", 500)


# Pages a person sees under /api/ (the sandbox checkout) keep their HTML answers.
PAGES_FOR_PEOPLE = ("/api/v1/payments/sandbox/",)

ERROR_CODES = {
    400: ("The request is malformed.", "bad_request"),
    403: ("Forbidden.", "forbidden"),
    404: ("Not found.", "not_found"),
    405: ("This method is not allowed here.", "method_not_allowed"),
    406: ("Not acceptable.", "not_acceptable"),
    413: ("The request body is larger than 1 MiB.", "payload_too_large"),
    415: ("Send the body as application/json.", "unsupported_media_type"),
    500: ("An unexpected error occurred; it has been logged.", "internal_error"),
    503: ("The service is temporarily unavailable; try again shortly.", "service_unavailable"),
}


def as_json_error(response):
    if response.status_code < 400 or response.get("Content-Type", "").startswith("application/json"):
        return response
    detail, code = ERROR_CODES.get(response.status_code, ("The request could not be completed.", "error"))
    replacement = json_error(detail, code, response.status_code)
    for header in ("Allow", "Retry-After"):
        if header in response:
            replacement[header] = response[header]
    return replacement
