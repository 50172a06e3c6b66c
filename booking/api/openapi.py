"""Additions to the generated OpenAPI document that drf-spectacular has no annotation for."""

import math
import re
from datetime import date, timedelta

from django.conf import settings

from booking.catalog.selectors import today

# How a client goes from one answer to the next call (OpenAPI links): the booking flow an agent
# follows, and what schemathesis' stateful phase walks.
LINKS = {
    ("/api/v1/reservations", "post", "201"): {
        "GetReservation": {
            "operationId": "get_reservation",
            "parameters": {"reservation_id": "$response.body#/id"},
            "description": "Read the hold's status (it stays `held` until paid, then `confirmed`).",
        },
        "PayReservation": {
            "operationId": "create_checkout_session",
            "requestBody": {"reservation_id": "$response.body#/id"},
            "description": "Open a payment checkout for the hold.",
        },
    },
    ("/api/v1/payments/checkout-link", "post", "200"): {
        "GetReservation": {
            "operationId": "get_reservation",
            "parameters": {"reservation_id": "$response.body#/reservation_id"},
            "description": "Follow the reservation the checkout pays for.",
        },
    },
    ("/api/v1/payments/checkout-session", "post", "200"): {
        "GetReservation": {
            "operationId": "get_reservation",
            "parameters": {"reservation_id": "$response.body#/reservation_id"},
            "description": "Follow the reservation the checkout pays for.",
        },
    },
}


def add_links(result, generator, request, public):
    """drf-spectacular postprocessing hook: attach LINKS to their responses."""
    for (path, method, status), links in LINKS.items():
        response = result.get("paths", {}).get(path, {}).get(method, {}).get("responses", {}).get(status)
        if response is not None:
            response["links"] = links
    return result


# --- Answers every operation can give -------------------------------------------------------------

ERROR_REF = {"$ref": "#/components/schemas/Error"}
COMMON_RESPONSES = {
    "503": "service_unavailable: the database or the calendar lock is busy; retry in a moment.",
}
BODY_RESPONSES = {
    "413": "payload_too_large: the body is over 1 MiB.",
}


def add_common_responses(result, generator, request, public):
    """drf-spectacular postprocessing hook: the answers the middleware gives on any operation (503
    when the database is unreachable or busy) and on any operation with a body (413 over 1 MiB)."""
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            extra = dict(COMMON_RESPONSES)
            if "requestBody" in operation:
                extra |= BODY_RESPONSES
            for status, description in extra.items():
                operation["responses"].setdefault(status, {"description": description, "content": {"application/json": {"schema": ERROR_REF}}})
    return result


def closed_request_bodies(result, generator, request, public):
    """drf-spectacular postprocessing hook: a JSON body with a field the operation does not take is
    refused (422 extra_forbidden, booking.api.validation), so its schema says `additionalProperties:
    false`, and the class docstring drf-spectacular copies from the validation Schema base is not
    the body's description."""
    schemas = result.get("components", {}).get("schemas", {})
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            body = operation.get("requestBody", {}) if isinstance(operation, dict) else {}
            ref = body.get("content", {}).get("application/json", {}).get("schema", {}).get("$ref", "")
            schema = schemas.get(ref.rsplit("/", 1)[-1]) if ref else None
            if schema is not None and schema.get("type") == "object":
                schema["additionalProperties"] = False
                if schema.get("description", "").startswith("A serializer whose fields are copied cheaply"):
                    del schema["description"]
    return result


# --- Examples that work today, on this site -------------------------------------------------------

# The examples in booking/api/schemas/examples.py and the views are written for a fixed week in May 2027 on
# https://example.com. Served, they are moved by whole weeks (so weekdays, and with them weekend
# rates, stay the same) to the first such week at least EXAMPLE_LEAD_DAYS ahead, and onto BASE_URL:
# an agent can send an example as it is and get a real answer.
EXAMPLE_ANCHOR = date(2027, 5, 10)
EXAMPLE_HOST = "https://example.com"
EXAMPLE_LEAD_DAYS = 45
_DATE = re.compile(r"\b(20\d\d)-(\d\d)-(\d\d)\b")


def example_shift(today: date) -> timedelta:
    weeks = math.ceil((today + timedelta(days=EXAMPLE_LEAD_DAYS) - EXAMPLE_ANCHOR).days / 7)
    return timedelta(weeks=weeks)


def shift_dates(text: str, shift: timedelta) -> str:
    def moved(match: re.Match) -> str:
        try:
            return (date(int(match[1]), int(match[2]), int(match[3])) + shift).isoformat()
        except ValueError:
            return match[0]  # not a real date (an invalid-input example): left as written

    return _DATE.sub(moved, text)


def live_example(value, shift: timedelta, base_url: str):
    if isinstance(value, str):
        return shift_dates(value.replace(EXAMPLE_HOST, base_url), shift)
    if isinstance(value, list):
        return [live_example(item, shift, base_url) for item in value]
    if isinstance(value, dict):
        return {key: live_example(item, shift, base_url) for key, item in value.items()}
    return value


def live_examples(result, generator, request, public):
    """drf-spectacular postprocessing hook: every `example`/`examples` value moved to today's dates
    and this site's address (see EXAMPLE_ANCHOR)."""
    shift, base_url = example_shift(today()), settings.BASE_URL.rstrip("/")

    def walk(node):
        if isinstance(node, dict):
            for key, item in node.items():
                if key in ("example", "examples"):
                    node[key] = live_example(item, shift, base_url)
                else:
                    walk(item)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(result.get("paths", {}))
    walk(result.get("components", {}))
    return result


# --- OpenAPI 3.1 ----------------------------------------------------------------------------------


def nullable_as_json_schema(result, generator, request, public):
    """drf-spectacular postprocessing hook: OpenAPI 3.1 schemas are JSON Schema 2020-12, which has
    no `nullable`. drf-spectacular converts the schemas it builds itself; the hand-written ones
    (booking/api/views.py's query parameters) still say `nullable: true`, which 3.1 readers ignore.
    Those become `type: [t, "null"]` (or anyOf with null) here. Under OpenAPI 3.0 nothing changes."""
    from drf_spectacular.settings import spectacular_settings

    if not spectacular_settings.OAS_VERSION.startswith("3.0"):
        _drop_nullable(result)
    return result


def _drop_nullable(node) -> None:
    if isinstance(node, list):
        for item in node:
            _drop_nullable(item)
        return
    if not isinstance(node, dict):
        return
    for item in node.values():
        _drop_nullable(item)
    if "nullable" not in node or not isinstance(node["nullable"], bool):
        return  # (a property named "nullable" is a schema, not this keyword)
    if node.pop("nullable"):
        kind = node.get("type")
        if isinstance(kind, str):
            node["type"] = [kind, "null"]
        elif isinstance(kind, list):
            node["type"] = kind if "null" in kind else [*kind, "null"]
        else:
            inner = {
                key: node.pop(key)
                for key in list(node)
                if key not in ("description", "title", "default", "example", "examples", "readOnly", "writeOnly", "deprecated")
            }
            node["anyOf"] = [inner, {"type": "null"}]
