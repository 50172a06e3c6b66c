"""The hot reads' JSON, encoded once per remembered result.

booking/reservations/services/stays.py remembers each stay check, calendar and property description under every
input it reads (the taken ranges included), and hands back the same object while those inputs hold.
Here the REST interface keeps the bytes it encoded for such an object, per kind of answer and
language, so a repeated read is one query and no encoding. An entry holds its object, so the
object's id cannot be reused by another while the entry lives; a result the service has replaced
is simply never asked for again and ages out.
"""

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any

from django.utils import translation
from rest_framework.renderers import JSONRenderer

from booking.api import presenters
from booking.reservations.services import stays


class Encodings:
    def __init__(self, size: int):
        self.size = size
        self.entries: OrderedDict[tuple[Hashable, ...], tuple[object, bytes]] = OrderedDict()
        self.lock = threading.Lock()

    def of(self, result: object, kind: tuple[Hashable, ...], build: Callable[[], dict[str, Any]]) -> bytes:
        """The JSON of build() (a presenter of `result`), encoded once per result, kind and language."""
        key = (id(result), *kind, translation.get_language())
        with self.lock:
            entry = self.entries.get(key)
            if entry is not None and entry[0] is result:
                self.entries.move_to_end(key)
                return entry[1]
        document = JSONRenderer().render(build())  # two threads may both encode it once; the bytes are the same
        with self.lock:
            self.entries[key] = (result, document)
            while len(self.entries) > self.size:
                self.entries.popitem(last=False)
        return document


_encodings = Encodings(512)


def property_document() -> bytes:
    described = stays.describe_property()
    return _encodings.of(described, ("property",), lambda: property_json(described))


def property_json(described: stays.PropertyDescription) -> dict[str, Any]:
    """The agents' document is language-neutral (English), whatever the request's language."""
    with translation.override("en"):
        return presenters.property_json(described.property, described.rules)


def availability_document(**query: Any) -> bytes:
    check = stays.check_stay(**query)
    return _encodings.of(check, ("availability",), lambda: presenters.availability_json(check))


def quote_document(**body: Any) -> bytes:
    priced = stays.quote_stay(**body)
    return _encodings.of(priced.check, ("quote", priced.currency, priced.exchange_rate), lambda: presenters.quote_json(priced))


def calendar_document(**query: Any) -> bytes:
    calendar = stays.calendar_months(**query)
    return _encodings.of(calendar, ("calendar",), lambda: presenters.calendar_json(calendar))
