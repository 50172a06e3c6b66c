"""The hot reads' JSON, encoded once per remembered result.

booking/reservations/services/stays.py remembers each stay check, calendar and property description under every
input it reads (the taken ranges included), and hands back the same object while those inputs hold.
Here the REST interface keeps the bytes it encoded in that object's `kept`, per kind of answer and
language, so a repeated read is one query and no encoding. The bytes live exactly as long as their
result: when the service forgets it (a new input, its memory full, config/caches.py), they go with it.
"""

from collections.abc import Callable, Hashable
from typing import Any, Protocol

from django.utils import translation
from rest_framework.renderers import JSONRenderer

from booking.api import presenters
from booking.reservations.services import stays


class Remembered(Protocol):
    @property
    def kept(self) -> dict[tuple[Hashable, ...], bytes]: ...


def encoded(result: Remembered, kind: tuple[Hashable, ...], build: Callable[[], dict[str, Any]]) -> bytes:
    """The JSON of build() (a presenter of `result`), encoded once per result, kind and language."""
    key = (*kind, translation.get_language())
    document = result.kept.get(key)
    if document is None:
        # Two threads may both encode it once; the bytes are the same.
        document = result.kept[key] = JSONRenderer().render(build())
    return document


def property_document() -> bytes:
    described = stays.describe_property()
    return encoded(described, ("property",), lambda: property_json(described))


def property_json(described: stays.PropertyDescription) -> dict[str, Any]:
    """The agents' document is language-neutral (English), whatever the request's language."""
    with translation.override("en"):
        return presenters.property_json(described.property, described.rules)


def availability_document(**query: Any) -> bytes:
    check = stays.check_stay(**query)
    return encoded(check, ("availability",), lambda: presenters.availability_json(check))


def quote_document(**body: Any) -> bytes:
    priced = stays.quote_stay(**body)
    return encoded(priced.check, ("quote", priced.currency, priced.exchange_rate), lambda: presenters.quote_json(priced))


def calendar_document(**query: Any) -> bytes:
    calendar = stays.calendar_months(**query)
    return encoded(calendar, ("calendar",), lambda: presenters.calendar_json(calendar))
