"""The REST interface encodes a remembered result once (booking/api/documents.py); the service
hands back domain objects, remembered under every input they read, the taken ranges included."""

import gc
import weakref
from types import SimpleNamespace

import pytest
from django.utils import translation

from booking.api import documents, presenters
from booking.reservations.services import stays
from booking.reservations.services.holds import hold_stay
from config.caches import forget_process_caches
from tests.dates import future

pytestmark = pytest.mark.django_db


def test_a_repeated_read_is_encoded_once_and_a_new_hold_changes_it(demo_property, monkeypatch):
    encoded = []
    availability_json = presenters.availability_json
    monkeypatch.setattr(presenters, "availability_json", lambda check: encoded.append(check) or availability_json(check))
    stay = {"check_in": future(40), "check_out": future(47), "guests": 2}

    first = documents.availability_document(**stay)
    again = documents.availability_document(**stay)
    assert again is first and len(encoded) == 1
    assert b'"available":true' in first

    hold_stay(check_in=future(43), check_out=future(50), guests=2)
    after = documents.availability_document(**stay)
    assert len(encoded) == 2 and b'"available":false' in after


def test_encodings_are_kept_per_kind_and_language_with_their_result():
    result = SimpleNamespace(kept={})
    assert documents.encoded(result, ("k",), lambda: {"n": 1}) == b'{"n":1}'
    assert documents.encoded(result, ("k",), lambda: {"n": 99}) == b'{"n":1}'  # kept
    assert documents.encoded(result, ("other",), lambda: {"n": 2}) == b'{"n":2}'
    with translation.override("it"):
        assert documents.encoded(result, ("k",), lambda: {"n": 3}) == b'{"n":3}'
    assert documents.encoded(SimpleNamespace(kept={}), ("k",), lambda: {"n": 4}) == b'{"n":4}'  # another result, its own


def test_a_result_the_service_has_forgotten_is_not_kept_alive_by_its_json(demo_property):
    """The JSON lives on its result, not in a table of its own keyed by the result's id(): once the
    service forgets a stay check, nothing holds it, and no later object can be taken for it."""
    stay = {"check_in": future(40), "check_out": future(47), "guests": 2}
    documents.availability_document(**stay)
    check = weakref.ref(stays.check_stay(**stay))
    assert check() is not None and check().kept

    forget_process_caches()
    gc.collect()

    assert check() is None
