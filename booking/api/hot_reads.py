"""The hot reads' shortcut: their ordinary successful calls answered without Django's request cycle.

Agents poll five reads far more than anything else: GET /api/v1/health, /property, /availability,
/calendar and POST /api/v1/quote. Their answer is a few microseconds of work over a remembered
document (booking/services/stays.py), but Django's request cycle around it (fifteen middleware
layers, URL resolving, DRF's dispatch, header validation one header at a time) cost three times
the answer itself (README "Performance", the profile). Here, in the pool thread
(config/threaded_wsgi.py), such a call is answered directly:

- by the view's own `answer` function (the same validation and service call as the view; one code
  path), within Django's request signals (so a thread's database connection is kept or handed back
  exactly as after any request);
- with the headers the site's middleware puts on every API answer, computed by that middleware
  itself once per process (security headers, the frame policy, the CSP header), DRF's Allow header
  from the view, and per answer the request id, the ETag (the same hash Django's conditional-GET
  middleware takes), gzip exactly as Django's GZip middleware decides it, and the length.

Anything else declines (returns None) and Django serves the request from the start, as if the
shortcut did not exist: another method or path, a HEAD, a conditional request (If-None-Match gets
its 304 from Django), a host Django would refuse, a request the settings would redirect to HTTPS,
a body that is not plain JSON, and any exception at all, from an invalid query (the 422 comes from
the view) to a database outage (the 503). The shortcut never writes, so declining after a failure
leaves nothing to undo. tests/booking/test_hot_reads.py holds every answer to be byte for byte and
header for header the one Django's full stack gives (but the request id and the gzip bytes, which
are random by design).
"""

import functools
import hashlib
import io
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core import signals
from django.core.handlers.wsgi import WSGIRequest, get_bytes_from_wsgi, get_script_name
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.http import HttpResponse, QueryDict
from django.middleware.clickjacking import XFrameOptionsMiddleware
from django.middleware.gzip import GZipMiddleware
from django.middleware.security import SecurityMiddleware
from django.urls import get_script_prefix, set_script_prefix
from django.utils import translation
from django.utils.text import compress_string
from rest_framework.views import APIView

from booking import validation
from booking.api import views
from booking.api.parsers import SafeJSONParser
from config.middleware import CSPMiddleware
from config.observability import SANE_REQUEST_ID, new_request_id, request_id_var
from config.transfer import ACCEPTS_GZIP  # GZipMiddleware's own test

Answer = tuple[int, list[tuple[bytes, bytes]], bytes]


@dataclass(frozen=True)
class HotRead:
    view: type[APIView]
    answer: Callable[[WSGIRequest], bytes]


def _query(request: WSGIRequest) -> validation.RawInput:
    """The query string as received (request.GET.dict() parsed from it only when it is new): agents
    repeat the same ones, and each keys its validated input."""
    return validation.RawInput(get_bytes_from_wsgi(request.META, "QUERY_STRING", ""), lambda raw: dict(_parsed_query(raw)))


@functools.lru_cache(maxsize=256)
def _parsed_query(query_string: bytes) -> dict[str, str]:
    return QueryDict(query_string).dict()  # as WSGIRequest.GET parses it (decoding and limits included)


def _json_body(raw: bytes) -> Any:
    return SafeJSONParser().parse(io.BytesIO(raw), "application/json", {"encoding": "utf-8"})


HOT_READS: dict[tuple[str, str], HotRead] = {
    ("GET", "/api/v1/health"): HotRead(views.HealthView, lambda request: views.HealthView.answer()),
    ("GET", "/api/v1/property"): HotRead(views.PropertyView, lambda request: views.PropertyView.answer()),
    ("GET", "/api/v1/availability"): HotRead(views.AvailabilityView, lambda request: views.AvailabilityView.answer(_query(request))),
    ("GET", "/api/v1/calendar"): HotRead(views.CalendarView, lambda request: views.CalendarView.answer(_query(request))),
    # The body's bytes are the key of its validated input: parsed only the first time they are seen.
    ("POST", "/api/v1/quote"): HotRead(views.QuoteView, lambda request: views.QuoteView.answer(validation.RawInput(request.body, _json_body))),
}

# What makes Django's answer differ from an ordinary 200: conditional requests (a 304) and
# anything that would change the request before the view (the site's middleware).
CONDITIONAL = ("HTTP_IF_NONE_MATCH", "HTTP_IF_MODIFIED_SINCE", "HTTP_IF_MATCH", "HTTP_IF_UNMODIFIED_SINCE")
SMALL_BODY = 64 * 1024  # quote bodies are a few hundred bytes; larger ones take the full path


class Decline(Exception):
    """Django serves this request (see the module's docstring)."""


def answer(environ: dict[str, Any]) -> Answer | None:
    """The answer to a hot read's ordinary call, or None: Django must serve it."""
    route = HOT_READS.get((environ["REQUEST_METHOD"], environ["PATH_INFO"]))
    if route is None or environ.get("SCRIPT_NAME") or any(name in environ for name in CONDITIONAL):
        return None
    if environ["REQUEST_METHOD"] == "POST" and (environ.get("CONTENT_TYPE") != "application/json" or not 0 < int(environ["CONTENT_LENGTH"]) <= SMALL_BODY):
        return None
    _set_script_prefix(get_script_name(environ))
    signals.request_started.send(sender=HotRead, environ=environ)
    incoming = environ.get("HTTP_X_REQUEST_ID", "")
    request_id = incoming if SANE_REQUEST_ID.match(incoming) else new_request_id()
    token = request_id_var.set(request_id)
    try:
        request = WSGIRequest(environ)
        secure = _admissible(request)
        if translation.get_language() != settings.LANGUAGE_CODE:
            translation.activate(settings.LANGUAGE_CODE)
        body = route.answer(request)
        content, gzipped = _content(request, body)
        return 200, _headers(route, request, secure, body, content, gzipped, request_id), content
    except Exception:  # noqa: BLE001 (whatever it is, Django's full path answers it: a 422, a 503, a 500)
        return None
    finally:
        request_id_var.reset(token)
        if "wsgi.input" in environ:
            environ["wsgi.input"].seek(0)  # Django reads the body afresh if the shortcut declined
        signals.request_finished.send(sender=HotRead)


def _set_script_prefix(prefix: str) -> None:
    """set_script_prefix, as Django's handler calls it, but only when it differs: it is a
    context-local write, which costs several reads, and nearly always sets what is already there."""
    if get_script_prefix() != (prefix if prefix.endswith("/") else prefix + "/"):
        set_script_prefix(prefix)


def _admissible(request: WSGIRequest) -> bool:
    """Whether the request is secure; Decline where Django's middleware would not let it through
    unchanged: a host not allowed, a redirect to HTTPS or to www., a refused user agent."""
    meta = request.META
    proxy_header = settings.SECURE_PROXY_SSL_HEADER[0] if settings.SECURE_PROXY_SSL_HEADER else ""
    # Decided once per distinct set of the headers it reads: a client sends the same ones every
    # time, and checking a host against ALLOWED_HOSTS costs more than the rest of a health check.
    return _admitted(
        tuple(meta.get(name) for name in ADMISSION_FIELDS),
        meta.get(proxy_header) if proxy_header else None,
    )


@functools.lru_cache(maxsize=64)
def _admitted(host_fields: tuple[str | None, ...], proxy_value: str | None) -> bool:
    meta = {name: value for name, value in zip(ADMISSION_FIELDS, host_fields, strict=True) if value is not None}
    if settings.SECURE_PROXY_SSL_HEADER and proxy_value is not None:
        meta[settings.SECURE_PROXY_SSL_HEADER[0]] = proxy_value
    request = WSGIRequest({**meta, "REQUEST_METHOD": "GET", "wsgi.input": io.BytesIO()})
    request.get_host()  # DisallowedHost for a host not in ALLOWED_HOSTS (then Django's 400); not kept
    secure = request.is_secure()
    if (settings.SECURE_SSL_REDIRECT and not secure) or settings.PREPEND_WWW or settings.DISALLOWED_USER_AGENTS:
        raise Decline
    return secure


ADMISSION_FIELDS = ("HTTP_HOST", "HTTP_X_FORWARDED_HOST", "HTTP_X_FORWARDED_PORT", "SERVER_NAME", "SERVER_PORT", "wsgi.url_scheme")


def _content(request: WSGIRequest, body: bytes) -> tuple[bytes, bool]:
    """The body as sent, and whether it is gzipped: GZipMiddleware's rules (long enough, asked
    for, and only when the compressed bytes are shorter), with its BREACH padding."""
    if len(body) < GZIP_MIN_LENGTH or not ACCEPTS_GZIP.search(request.META.get("HTTP_ACCEPT_ENCODING", "")):
        return body, False
    compressed = _gzipped.get(body)
    if compressed is None:
        compressed = compress_string(body, max_random_bytes=GZipMiddleware.max_random_bytes)
        if len(body) >= 1024:  # a remembered document (see _etag), compressed once
            if len(_gzipped) >= 64:
                _gzipped.clear()
            _gzipped[body] = compressed
    return (compressed, True) if len(compressed) < len(body) else (body, False)


# Compressing a remembered quote or calendar was a fifth of its CPU. Its padding (Django's BREACH
# mitigation, random per answer) is then drawn once per document rather than once per answer:
# BREACH reads secrets out of compressed lengths, and these documents hold none (public prices
# and nights, nothing of the caller's, no token), so there is nothing for the padding to hide.
_gzipped: dict[bytes, bytes] = {}


GZIP_MIN_LENGTH = 200  # GZipMiddleware leaves shorter bodies alone (and does not vary them)


def _headers(route: HotRead, request: WSGIRequest, secure: bool, body: bytes, content: bytes, gzipped: bool, request_id: str) -> list[tuple[bytes, bytes]]:
    headers = [*_fixed_headers(route.view, secure), (b"content-length", str(len(content)).encode("ascii"))]
    if len(body) >= GZIP_MIN_LENGTH:
        headers.append((b"vary", b"Accept-Encoding"))
    if request.method == "GET":  # ConditionalGetMiddleware tags GET answers only
        etag = _etag(body)
        headers.append((b"etag", ("W/" + etag if gzipped else etag).encode("ascii")))
    if gzipped:
        headers.append((b"content-encoding", b"gzip"))
    headers.append((b"x-request-id", request_id.encode("ascii")))
    return headers


@functools.cache
def _fixed_headers(view: type[APIView], secure: bool) -> tuple[tuple[bytes, bytes], ...]:
    """The headers every answer of this view carries whatever its body: its content type, DRF's
    Allow (from the view), and those the site's middleware adds on the API path, found by running
    that middleware once on an empty answer, so they follow the settings as the middleware does."""
    instance = view()
    instance.setup(None)  # as Django does per request: a view with GET answers HEAD too
    response = HttpResponse(content_type="application/json")
    for name, value in instance.default_response_headers.items():
        response[name] = value
    request = WSGIRequest(
        {
            "REQUEST_METHOD": "GET",
            "PATH_INFO": "/api/v1/health",
            "SERVER_NAME": "localhost",
            "SERVER_PORT": "443" if secure else "80",
            "wsgi.url_scheme": "https" if secure else "http",
            "wsgi.input": io.BytesIO(),
        }
    )
    for middleware in (CSPMiddleware, XFrameOptionsMiddleware, SecurityMiddleware):  # innermost first, as they run
        response = middleware(_never_called).process_response(request, response)
    response["Content-Language"] = settings.LANGUAGE_CODE
    return tuple((name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in response.items())


def _never_called(request):
    raise AssertionError("only the middleware's process_response is used here")


def _etag(body: bytes) -> str:
    """Django's ETag for this body (ConditionalGetMiddleware: the MD5 of the content), kept for the
    remembered documents: they are the same bytes object every time, whose hash Python keeps."""
    etag = _etags.get(body)
    if etag is None:
        etag = f'"{hashlib.md5(body, usedforsecurity=False).hexdigest()}"'  # quote_etag() of a hex digest
        if len(body) >= 1024:  # not the health answer: new bytes every time, and cheap to hash
            if len(_etags) >= 64:  # the documents are remembered a few dozen at a time (stays.py)
                _etags.clear()
            _etags[body] = etag
    return etag


_etags: dict[bytes, str] = {}


@receiver(setting_changed)
def _forget_fixed_headers(**kwargs):
    _fixed_headers.cache_clear()
    _admitted.cache_clear()
