"""What every JSON endpoint shares: validated input, the client's address, the error responses."""

import ipaddress

from django.conf import settings
from drf_spectacular.utils import OpenApiResponse
from rest_framework.views import APIView

from booking.api.schemas import ErrorBody, HTTPValidationError
from booking.validation import validate

VALIDATION_ERROR = OpenApiResponse(HTTPValidationError, description="Invalid input: the list of what is wrong, each with its location.")


def error(description: str) -> OpenApiResponse:
    return OpenApiResponse(ErrorBody, description=description)


class ApiView(APIView):
    authentication_classes: list = []
    permission_classes: list = []

    def query(self, schema) -> dict:
        return validate(schema, self.request.query_params.dict(), "query")

    def body(self, schema) -> dict:
        return validate(schema, self.request.data, "body")


def client_ip(request) -> str | None:
    """The client's address; X-Forwarded-For is believed only from TRUSTED_PROXIES."""
    peer = request.META.get("REMOTE_ADDR") or None
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    if peer and forwarded and peer in settings.TRUSTED_PROXIES:
        for candidate in reversed([part.strip() for part in forwarded.split(",")]):
            try:
                ipaddress.ip_address(candidate)
            except ValueError:
                break
            if candidate not in settings.TRUSTED_PROXIES:
                return candidate
    return peer


def api_actor(agent_name: str | None) -> str:
    """Who the audit trail says made a change through the REST API."""
    return f"api ({agent_name})" if agent_name else "api"
