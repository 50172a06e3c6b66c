"""Domain errors. Each interface translates them once: REST in booking/api/errors.py, MCP and A2A
as tool errors. The (status, code) pairs are the error contract (docs/contract.md, "Errors")."""


class BookingError(Exception):
    status = 400
    code = "bad_request"

    def __init__(self, detail: str | None = None):
        super().__init__(detail or self.default_detail)
        self.detail = detail or self.default_detail

    default_detail = "The request could not be completed."

    def as_body(self) -> dict:
        return {"detail": self.detail, "code": self.code}


class InvalidInput(BookingError):
    """Validation failure: 422 with the spec's HTTPValidationError body (a list of loc/msg/type)."""

    status = 422
    code = "validation_error"

    def __init__(self, errors: list[dict]):
        self.errors = errors
        super().__init__("; ".join(f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in errors))

    @classmethod
    def single(cls, loc: list, msg: str, type_: str) -> "InvalidInput":
        return cls([{"loc": list(loc), "msg": msg, "type": type_}])

    def as_body(self) -> dict:
        return {"detail": self.errors}


class NotFound(BookingError):
    status = 404
    code = "not_found"
    default_detail = "Not found."


class DatesUnavailable(BookingError):
    status = 409
    code = "dates_unavailable"
    default_detail = "These dates are not available."

    def __init__(self, detail: str | None = None, reason: str | None = None, held_until=None):
        super().__init__((detail or self.default_detail) + (self.ON_HOLD_NEXT_STEPS if reason == "on_hold" else ""))
        self.reason = reason
        self.held_until = held_until

    # An agent that retried without its key meets its own hold here: say how to go on.
    ON_HOLD_NEXT_STEPS = (
        " If the hold is yours: retry with the same idempotency_key (the first answer comes back), pay it"
        " (its payment.pay_url, or create_checkout_session with its reservation_id), or let it go"
        " (release_hold, DELETE /api/v1/reservations/{id})."
    )

    def as_body(self) -> dict:
        body = {**super().as_body(), "unavailable_reason": self.reason}
        if self.held_until is not None:
            body["held_until"] = self.held_until.isoformat()
        return body


class ReservationNotPayable(BookingError):
    status = 409
    code = "reservation_not_payable"
    default_detail = "This reservation cannot be paid: it is no longer on hold."


class NotReleasable(BookingError):
    status = 409
    code = "not_releasable"
    default_detail = "Only an unpaid hold can be released."


class InvalidTransition(BookingError):
    status = 409
    code = "invalid_transition"
    default_detail = "The reservation cannot move to that state."


class IdempotencyKeyReused(BookingError):
    status = 409
    code = "idempotency_key_reused"
    default_detail = "This Idempotency-Key was already used with a different request body."


class RateLimited(BookingError):
    status = 429
    code = "rate_limited"
    default_detail = "Too many holds from this client; try again later."

    def __init__(self, detail: str | None = None, retry_after: int = 60):
        super().__init__(detail)
        self.retry_after = retry_after

    def as_body(self) -> dict:
        # Also in the body: MCP and A2A answers carry no Retry-After header.
        return {**super().as_body(), "retry_after": self.retry_after}


class PaymentProviderError(BookingError):
    status = 502
    code = "payment_provider_error"
    default_detail = "The payment provider could not be reached; nothing was booked. Try again shortly."


class ServiceUnavailable(BookingError):
    status = 503
    code = "service_unavailable"
    default_detail = "The service is temporarily unavailable; try again shortly."
