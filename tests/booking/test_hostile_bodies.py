"""Hostile request bodies: deep nesting, NaN, broken encodings and NUL characters are a 422, never a
500; odd but valid Unicode in free text is kept as given."""

import pytest

from tests.dates import future

pytestmark = pytest.mark.django_db


class TestHostileBodies:
    @pytest.mark.parametrize(
        "body",
        [
            b"[" * 100_000 + b"]" * 100_000,
            b'{"check_in": ' + b'{"a": ' * 50 + b"1" + b"}" * 50 + b"}",
            b'{"check_in": NaN, "check_out": "2030-01-01"}',
            b'{"check_in": Infinity}',
            b"\xff\xfe\x00",
            b"",
            b"null",
        ],
    )
    def test_hostile_json_is_a_422_never_a_500(self, client, demo_property, body):
        response = client.post("/api/v1/reservations", body, content_type="application/json")
        assert response.status_code == 422, response.content
        assert response.json()["detail"][0]["loc"][0] == "body"

    def test_brackets_inside_strings_do_not_count_as_nesting(self, api, demo_property):
        response = api.post("/api/v1/reservations", {"check_in": str(future(30)), "check_out": str(future(33)), "special_requests": "[" * 500})
        assert response.status_code == 201

    @pytest.mark.parametrize("text", ["\u202eevil", "Zoë 🏠 ﷽", "a\u0301" * 50])
    def test_unicode_oddities_in_free_text_are_kept_as_given(self, api, demo_property, text):
        response = api.post("/api/v1/reservations", {"check_in": str(future(30)), "check_out": str(future(33)), "guest": {"first_name": text}})
        assert response.status_code == 201 and response.json()["guest"]["first_name"] == text

    def test_nul_characters_are_refused(self, api, demo_property):
        response = api.post("/api/v1/reservations", {"check_in": str(future(30)), "check_out": str(future(33)), "special_requests": "a\x00b"})
        assert response.status_code == 422
