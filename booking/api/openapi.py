"""Additions to the generated OpenAPI document that drf-spectacular has no annotation for."""

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
