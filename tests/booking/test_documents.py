"""The REST interface encodes a remembered result once (booking/api/documents.py); the service
hands back domain objects, remembered under every input they read, the taken ranges included."""

import pytest

from booking.api import documents, presenters
from booking.reservations.services.holds import hold_stay
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


def test_encodings_are_kept_per_language_and_never_outlive_their_result():
    encodings = documents.Encodings(size=2)
    first, second, third = object(), object(), object()
    assert encodings.of(first, ("k",), lambda: {"n": 1}) == b'{"n":1}'
    assert encodings.of(first, ("k",), lambda: {"n": 99}) == b'{"n":1}'  # kept
    encodings.of(second, ("k",), lambda: {"n": 2})
    encodings.of(third, ("k",), lambda: {"n": 3})  # the first ages out
    assert encodings.of(first, ("k",), lambda: {"n": 4}) == b'{"n":4}'
