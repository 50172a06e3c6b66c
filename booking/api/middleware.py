"""Guards in front of the JSON interface: body size, and errors outside the views.

The body is read here once (Django enforces DATA_UPLOAD_MAX_MEMORY_SIZE on that read), so an
over-long body is a 413 however it was sent, chunked or not.
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
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not request.path.startswith("/api/"):
            return None
        if isinstance(exception, (OperationalError, InterfaceError)):
            return json_error("The database is unavailable; try again shortly.", "service_unavailable", 503)
        logger.exception("unhandled error on %s", request.path)
        return json_error("An unexpected error occurred; it has been logged.", "internal_error", 500)
