"""Domain errors. Each interface translates them once: REST in booking/api/errors.py, MCP and A2A
as tool errors. The (status, code) pairs are the error contract (docs/contract.md, "Errors").

A service's InvalidInput names the fields it refuses and nothing else; where they were sent (a
body, a query string, a header, a UCP request's JSONPath, a form field) is the interface's to say:
REST in booking.api.base.ApiView, MCP and A2A in discovery.operations.run_operation, UCP in
discovery.ucp.sessions.error_answer, the pages and the back office beside their form fields."""

from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any


class BookingError(Exception):
    status = 400
    code = "bad_request"

    def __init__(self, detail: str | None = None):
        super().__init__(detail or self.default_detail)
        self.detail = detail or self.default_detail

    default_detail = "The request could not be completed."

    def as_body(self) -> dict:
        return {"detail": self.detail, "code": self.code}


Field = tuple[str | int, ...]


def field_path(field: "str | Sequence[str | int]") -> Field:
    """A field as a path into the input: "guest.email" → ("guest", "email"); a tuple as it is."""
    if isinstance(field, str):
        return tuple(field.split(".")) if field else ()
    return tuple(field)


@dataclass(frozen=True)
class Problem:
    """One bad field: its path in the input of whoever raised it (("check_in",), ("guest", "email"),
    ("extras", 0, "code"); () for the input as a whole), what is wrong, and the spec's error type."""

    field: Field
    msg: str
    type: str
    ctx: Mapping[str, Any] | None = None


class InvalidInput(BookingError):
    """Validation failure: 422 with the spec's HTTPValidationError body (a list of loc/msg/type).

    A service names the fields (`InvalidInput.field("check_in", msg, type_)`), never where they were
    sent: the interface that read them adds that (`error.at("body")`, `at("query")`; UCP turns the
    fields into JSONPath, the HTML forms into form fields). An interface's own errors about what it
    read are located already (`InvalidInput.single(["body", "skill"], ...)`, `located([...])`)."""

    status = 422
    code = "validation_error"

    def __init__(self, problems: Iterable[Problem], *, location: Field | None = None):
        self.problems = tuple(problems)
        self.location = None if location is None else tuple(location)
        super().__init__("; ".join(f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in self.errors))

    @classmethod
    def field(cls, field: "str | Sequence[str | int]", msg: str, type_: str, ctx: Mapping[str, Any] | None = None) -> "InvalidInput":
        """One bad field, named by its path (a dotted string or a tuple), with no location."""
        return cls([Problem(field_path(field), msg, type_, ctx)])

    @classmethod
    def single(cls, loc: Sequence[str | int], msg: str, type_: str) -> "InvalidInput":
        """An interface's own error, at its place: loc = [location, *field] (["body", "skill"])."""
        return cls.located([{"loc": list(loc), "msg": msg, "type": type_}])

    @classmethod
    def located(cls, errors: Iterable[Mapping[str, Any]]) -> "InvalidInput":
        """An interface's own errors in the spec's shape ({"loc": [location, *field], "msg", "type"}),
        all at one location (the first part of each loc)."""
        errors = list(errors)
        locations = {tuple(e["loc"][:1]) for e in errors}
        if len(locations) > 1:
            raise ValueError(f"errors at several locations: {sorted(locations)}")
        location = locations.pop() if locations else ()
        return cls([Problem(tuple(e["loc"][1:]), e["msg"], e["type"], e.get("ctx")) for e in errors], location=location)

    def at(self, *location: str | int) -> "InvalidInput":
        """The same problems at the place the interface read the fields from ("body", "query", ...);
        an error that has its location already keeps it."""
        return self if self.location is not None else InvalidInput(self.problems, location=location)

    def renamed(self, loc: Sequence[str | int]) -> "InvalidInput":
        """The problems of one field the interface took from elsewhere, at `loc` ([location, *name]):
        a retry key from a header (["header", "Idempotency-Key"]), an argument, a message id."""
        return self if self.location is not None else InvalidInput([replace(p, field=tuple(loc[1:])) for p in self.problems], location=tuple(loc[:1]))

    def within(self, *prefix: str | int) -> "InvalidInput":
        """The same problems, each field under `prefix` (the input was a part of a larger one)."""
        return InvalidInput([replace(p, field=(*prefix, *p.field)) for p in self.problems], location=self.location)

    @property
    def errors(self) -> list[dict[str, Any]]:
        """The spec's items: loc is the location, if one was added, then the field."""
        return [
            {"loc": [*(self.location or ()), *p.field], "msg": p.msg, "type": p.type, **({"ctx": dict(p.ctx)} if p.ctx is not None else {})}
            for p in self.problems
        ]

    def as_body(self) -> dict:
        return {"detail": self.errors}


@contextmanager
def fields_at(*location: str | int) -> Iterator[None]:
    """For an interface: an InvalidInput raised inside, with its fields at `location` (the place the
    interface read them from: "body", "query", ...). One located already passes as it is."""
    try:
        yield
    except InvalidInput as error:
        if error.location is not None:
            raise
        raise error.at(*location) from None


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
