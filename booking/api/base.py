"""What every JSON endpoint shares: validated input, the client's address, the error responses."""

from drf_spectacular.utils import OpenApiResponse
from rest_framework.views import APIView

from booking.api.schemas.errors import ErrorBody, HTTPValidationError
from booking.api.validation import validate
from booking.errors import InvalidInput
from booking.reservations.services.idempotency import InvalidRetryKey

VALIDATION_ERROR = OpenApiResponse(HTTPValidationError, description="Invalid input: the list of what is wrong, each with its location.")


def error(description: str) -> OpenApiResponse:
    return OpenApiResponse(ErrorBody, description=description)


HEADER_KEY = ("header", "Idempotency-Key")


class ApiView(APIView):
    authentication_classes: list = []
    permission_classes: list = []

    def handle_exception(self, exc):
        # The services name the fields they refuse; REST reads a GET's from its query string and
        # every other method's from its JSON body (query() and body() below), and says so in `loc`.
        # The retry key is REST's Idempotency-Key header.
        if isinstance(exc, InvalidRetryKey):
            exc = exc.renamed(HEADER_KEY)
        if isinstance(exc, InvalidInput):
            exc = exc.at("query" if self.request.method in ("GET", "HEAD") else "body")
        return super().handle_exception(exc)

    def query(self, schema) -> dict:
        return validate(schema, self.request.query_params.dict(), "query")

    def body(self, schema) -> dict:
        return validate(schema, self.request.data, "body")


def api_actor(agent_name: str | None) -> str:
    """Who the audit trail says made a change through the REST API."""
    return f"api ({agent_name})" if agent_name else "api"
