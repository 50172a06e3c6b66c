"""What every JSON endpoint shares: validated input, the client's address, the error responses."""

from drf_spectacular.utils import OpenApiResponse
from rest_framework.views import APIView

from booking.api.schemas.errors import ErrorBody, HTTPValidationError
from booking.api.validation import validate

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


def api_actor(agent_name: str | None) -> str:
    """Who the audit trail says made a change through the REST API."""
    return f"api ({agent_name})" if agent_name else "api"
