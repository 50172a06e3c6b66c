"""The hot reads' shortcut (booking/api/hot_reads.py) answers exactly as Django's full stack would,
or leaves the request to it.

Each request below is answered twice, by the shortcut and by Django's WSGIHandler with its whole
middleware chain (what served every request before the shortcut), and the two answers must agree
status for status, header for header and byte for byte. The request id is sent, so it is the same
in both; gzip bodies are compared once decompressed (Django pads them with random bytes).
"""

import gzip
import io
import json
from datetime import timedelta

import pytest
import time_machine
from django.core.handlers.wsgi import WSGIHandler
from django.db import OperationalError
from django.utils import timezone

from booking.api import hot_reads
from booking.models import Property
from booking.selectors import today
from booking.services.holds import GuestDetails, hold_stay
from config.threaded_wsgi import build_environ

# The shortcut sends Django's request signals, which close a connection left in a transaction.
pytestmark = pytest.mark.django_db(transaction=True)

REQUEST_ID = (b"x-request-id", b"parity-check")
GZIP = (b"accept-encoding", b"gzip, deflate")


def environ(method: str, path: str, *, query: str = "", body: bytes = b"", headers=(), host: bytes = b"testserver") -> dict:
    scope = {
        "type": "http",
        "method": method,
        "path": path,
        "query_string": query.encode(),
        "headers": [(b"host", host), REQUEST_ID, *headers],
        "server": ("testserver", 80),
        "client": ("127.0.0.1", 50000),
    }
    return build_environ(scope, io.BytesIO(body))


def by_django(env: dict) -> tuple[int, dict[str, str], bytes]:
    started = []
    response = WSGIHandler()(env, lambda status, headers, exc_info=None: started.append((status, headers)))
    content = b"".join(response)
    response.close()
    status, headers = started[0]
    return int(status[:3]), {name.lower(): value for name, value in headers}, content


def by_shortcut(env: dict) -> tuple[int, dict[str, str], bytes] | None:
    answer = hot_reads.answer(env)
    if answer is None:
        return None
    status, headers, content = answer
    names = [name.decode("latin-1") for name, _ in headers]
    assert len(names) == len(set(names)), f"a header repeated: {names}"
    return status, {name.decode("latin-1"): value.decode("latin-1") for name, value in headers}, content


def assert_same_answer(shortcut, django) -> None:
    assert shortcut is not None, "the shortcut declined an ordinary call"
    (status, headers, content), (django_status, django_headers, django_content) = shortcut, django
    assert status == django_status == 200
    if headers.get("content-encoding") == "gzip":
        content, django_content = gzip.decompress(content), gzip.decompress(django_content)
        headers = {name: value for name, value in headers.items() if name != "content-length"}
        django_headers = {name: value for name, value in django_headers.items() if name != "content-length"}
    assert headers == django_headers
    assert content == django_content


def stay_query(nights_from_now: int = 40) -> dict:
    check_in = today() + timedelta(days=nights_from_now)
    return {"check_in": str(check_in), "check_out": str(check_in + timedelta(days=3)), "guests": 3}


@pytest.fixture
def frozen():
    """The health answer says the time: both paths answer at the same instant."""
    with time_machine.travel(timezone.now(), tick=False):
        yield


@pytest.fixture
def with_a_hold(demo_property):
    query = stay_query()
    hold_stay(
        check_in=today() + timedelta(days=41),
        check_out=today() + timedelta(days=44),
        guests=2,
        guest=GuestDetails(first_name="Ada", last_name="Guest", email="ada@example.com"),
    )
    return query


ORDINARY_CALLS = {
    "health": lambda: environ("GET", "/api/v1/health"),
    "property": lambda: environ("GET", "/api/v1/property"),
    "property, gzip": lambda: environ("GET", "/api/v1/property", headers=[GZIP]),
    "availability": lambda: environ("GET", "/api/v1/availability", query="check_in={check_in}&check_out={check_out}&guests={guests}".format(**stay_query())),
    "availability, gzip": lambda: environ(
        "GET", "/api/v1/availability", query="check_in={check_in}&check_out={check_out}&guests=2&children_ages=5".format(**stay_query(90)), headers=[GZIP]
    ),
    "calendar, 18 months": lambda: environ("GET", "/api/v1/calendar", query="months=18"),
    "calendar, gzip": lambda: environ("GET", "/api/v1/calendar", query=f"start={today()}&months=2", headers=[GZIP]),
    "quote": lambda: environ("POST", "/api/v1/quote", body=json.dumps(stay_query()).encode(), headers=[(b"content-type", b"application/json")]),
    "quote in USD, gzip": lambda: environ(
        "POST", "/api/v1/quote", body=json.dumps({**stay_query(), "currency": "usd"}).encode(), headers=[(b"content-type", b"application/json"), GZIP]
    ),
    "through an HTTPS proxy": lambda: environ("GET", "/api/v1/property", headers=[(b"x-forwarded-proto", b"https")]),
}


@pytest.mark.parametrize("call", ORDINARY_CALLS)
def test_an_ordinary_call_gets_the_answer_of_the_full_stack(call, with_a_hold, frozen, settings):
    settings.SECURE_HSTS_SECONDS = 3600  # sent on secure answers only: the proxied one must carry it
    env = ORDINARY_CALLS[call]()
    shortcut = by_shortcut(env)
    assert_same_answer(shortcut, by_django(env))
    if call == "through an HTTPS proxy":
        assert shortcut[1]["strict-transport-security"].startswith("max-age=3600")


def test_the_hold_shows_in_the_shortcut_answer(with_a_hold):
    env = environ("GET", "/api/v1/availability", query="check_in={check_in}&check_out={check_out}&guests={guests}".format(**with_a_hold))
    status, _, content = by_shortcut(env)
    assert status == 200 and json.loads(content)["available"] is False


DECLINED = {
    "an invalid query (the view's 422)": (lambda: environ("GET", "/api/v1/availability", query="check_in=tomorrow"), 422),
    "a conditional request (Django's 304)": (lambda: environ("GET", "/api/v1/property", headers=[(b"if-none-match", b'"whatever"')]), 200),
    "a HEAD": (lambda: environ("HEAD", "/api/v1/property"), 200),
    "a host not allowed (Django's 400)": (lambda: environ("GET", "/api/v1/health", host=b"evil.example"), 400),
    "a body that is not JSON (415)": (lambda: environ("POST", "/api/v1/quote", body=b"check_in=2030-01-01", headers=[(b"content-type", b"text/plain")]), 415),
    "malformed JSON (the view's 422)": (lambda: environ("POST", "/api/v1/quote", body=b'{"check_in": ', headers=[(b"content-type", b"application/json")]), 422),
    "an invalid quote (the view's 422)": (
        lambda: environ(
            "POST", "/api/v1/quote", body=b'{"check_in": "2030-01-10", "check_out": "2030-01-01"}', headers=[(b"content-type", b"application/json")]
        ),
        422,
    ),
    "another read": (lambda: environ("GET", "/api/v1/stays", query="nights=3"), 200),
    "a path with a trailing slash": (lambda: environ("GET", "/api/v1/health/"), 404),
}


@pytest.mark.parametrize("case", DECLINED)
def test_anything_else_is_left_to_django_untouched(case, demo_property):
    make_environ, django_status = DECLINED[case]
    env = make_environ()
    assert by_shortcut(env) is None
    status, headers, content = by_django(env)  # the body is still there to read, from its start
    assert status == django_status, content
    assert headers["x-request-id"] == "parity-check"
    if status >= 400:
        assert headers["content-type"] == "application/json" and "detail" in json.loads(content)


def test_https_redirects_are_left_to_django(demo_property, settings):
    settings.SECURE_SSL_REDIRECT = True
    assert by_shortcut(environ("GET", "/api/v1/property")) is None
    assert by_django(environ("GET", "/api/v1/property"))[0] == 301


def test_no_property_yet_is_left_to_django(db):
    assert not Property.objects.exists()
    env = environ("GET", "/api/v1/property")
    assert by_shortcut(env) is None
    assert by_django(env)[0] == 404


def test_a_database_outage_is_left_to_django(demo_property, monkeypatch):
    from booking.api import views

    def unreachable():
        raise OperationalError("the database is down")

    monkeypatch.setattr(views.HealthView, "answer", staticmethod(unreachable))
    env = environ("GET", "/api/v1/health")
    assert by_shortcut(env) is None
    status, _, content = by_django(env)
    assert status == 503 and json.loads(content)["database"] == "unreachable"


def test_a_repeated_input_is_parsed_and_validated_once_and_an_invalid_one_every_time(demo_property, monkeypatch):
    """Agents send the same quote over and over: its bytes key its validated input (as the query
    strings of the reads do), so the second call parses nothing. An invalid input is never kept:
    each call is declined, and Django answers its 422."""
    parsed = []
    parse = hot_reads._json_body
    monkeypatch.setattr(hot_reads, "_json_body", lambda raw: parsed.append(raw) or parse(raw))
    json_type = [(b"content-type", b"application/json")]
    body = json.dumps(stay_query(50)).encode()
    first, second = (by_shortcut(environ("POST", "/api/v1/quote", body=body, headers=json_type)) for _ in range(2))
    assert first == second and parsed == [body]
    invalid = json.dumps({**stay_query(50), "guests": 0}).encode()
    for _ in range(2):
        assert by_shortcut(environ("POST", "/api/v1/quote", body=invalid, headers=json_type)) is None
    assert parsed == [body, invalid, invalid]
    assert by_django(environ("POST", "/api/v1/quote", body=invalid, headers=json_type))[0] == 422


def test_a_remembered_document_is_compressed_once(demo_property):
    """Compressing the calendar was a fifth of its CPU. The document's bytes are remembered, so are
    their gzip bytes (they hold nothing secret for BREACH's random padding to hide)."""
    first, second = (by_shortcut(environ("GET", "/api/v1/calendar", query="months=6", headers=[GZIP])) for _ in range(2))
    assert first[1]["content-encoding"] == "gzip" and first[2] is second[2]
    assert json.loads(gzip.decompress(second[2]))["months"] == 6
