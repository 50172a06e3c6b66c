"""HTTP for the partner sync: fetching a feed (conditional GET, size cap, deadline) and probing the
listing page. Network only, no database, so several fetches can run in threads.

Error messages never quote the URL: requests' own messages do, and a feed URL carries a secret
token while last_error is shown on the public status endpoint.
"""

import time
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from urllib.parse import urlsplit

import requests
from django.conf import settings
from urllib3.exceptions import ReadTimeoutError

FETCH_TIMEOUT_SECONDS = 10.0
MAX_FEED_BYTES = 2 * 1024 * 1024  # real exports are a few kilobytes; 2 MiB is years of bookings
MAX_REDIRECTS = 5
CHUNK_BYTES = 64 * 1024


@dataclass(frozen=True)
class FeedResponse:
    """What one fetch of a feed produced: a new body, "not modified", or an error."""

    status_code: int | None = None
    body: bytes | None = None
    not_modified: bool = False
    etag: str = ""
    last_modified: str = ""
    error: str = ""


@dataclass(frozen=True)
class ProbeResponse:
    status_code: int | None
    latency_ms: int | None
    error: str = ""

    @property
    def ok(self) -> bool:
        return not self.error


def user_agent() -> str:
    return f"DirectBooking-CalendarSync/1.0 (+{settings.BASE_URL})"


def fetch_feed(url: str, *, etag: str = "", last_modified: str = "", timeout: float = FETCH_TIMEOUT_SECONDS, max_bytes: int = MAX_FEED_BYTES) -> FeedResponse:
    """GET a feed. `timeout` bounds the whole fetch, not only each socket read: a server that
    trickles bytes cannot hold a worker. 304 counts only when we sent validators."""
    headers = {"User-Agent": user_agent(), "Accept": "text/calendar, text/plain;q=0.8, */*;q=0.5"}
    if etag:
        headers["If-None-Match"] = etag
    if last_modified:
        headers["If-Modified-Since"] = last_modified
    deadline = time.monotonic() + timeout
    try:
        with requests.Session() as session:
            session.max_redirects = MAX_REDIRECTS
            with session.get(url, headers=headers, timeout=(min(5.0, timeout), timeout), stream=True) as response:
                code = response.status_code
                if code == 304 and (etag or last_modified):
                    return FeedResponse(status_code=304, not_modified=True, etag=etag, last_modified=last_modified)
                if code != 200:
                    return FeedResponse(status_code=code, error=f"HTTP {code}{_reason(response)}")
                declared = response.headers.get("Content-Length", "")
                if declared.isdigit() and int(declared) > max_bytes:
                    return FeedResponse(status_code=code, error=f"The feed is larger than {_size(max_bytes)}.")
                body = bytearray()
                for chunk in response.iter_content(CHUNK_BYTES):
                    body += chunk
                    if len(body) > max_bytes:  # counted after decompression: no gzip bombs either
                        return FeedResponse(status_code=code, error=f"The feed is larger than {_size(max_bytes)}.")
                    if time.monotonic() > deadline:
                        return FeedResponse(status_code=code, error=f"Timed out after {timeout:g} s.")
                return FeedResponse(
                    status_code=code,
                    body=bytes(body),
                    etag=response.headers.get("ETag", "")[:500],
                    last_modified=_valid_http_date(response.headers.get("Last-Modified", "")),
                )
    except requests.RequestException as error:
        return FeedResponse(error=describe_request_error(error, url, timeout))


def probe_url(url: str, *, timeout: float = FETCH_TIMEOUT_SECONDS) -> ProbeResponse:
    """GET the listing page and time it to the response headers; the body is not downloaded.
    Up means a 2xx answer after redirects."""
    started = time.monotonic()
    try:
        with requests.Session() as session:
            session.max_redirects = MAX_REDIRECTS
            with session.get(
                url, headers={"User-Agent": user_agent(), "Accept": "text/html,*/*;q=0.5"}, timeout=(min(5.0, timeout), timeout), stream=True
            ) as response:
                latency_ms = round((time.monotonic() - started) * 1000)
                code = response.status_code
                if not 200 <= code < 300:
                    return ProbeResponse(code, latency_ms, f"HTTP {code}{_reason(response)}")
                return ProbeResponse(code, latency_ms)
    except requests.RequestException as error:
        return ProbeResponse(None, None, describe_request_error(error, url, timeout))


def describe_request_error(error: requests.RequestException, url: str, timeout: float) -> str:
    host = urlsplit(url).hostname or "the server"
    # A read timeout in the middle of the body reaches us wrapped in a ConnectionError.
    if isinstance(error, requests.Timeout) or any(isinstance(arg, ReadTimeoutError) for arg in error.args):
        return f"Timed out after {timeout:g} s."
    if isinstance(error, requests.TooManyRedirects):
        return f"More than {MAX_REDIRECTS} redirects."
    if isinstance(error, requests.exceptions.SSLError):
        return f"TLS error talking to {host}."
    if isinstance(error, requests.ConnectionError):
        return f"Could not connect to {host}."
    if isinstance(error, (requests.exceptions.InvalidURL, requests.exceptions.MissingSchema, requests.exceptions.InvalidSchema)):
        return "The URL is not a valid http(s) address."
    return f"The request failed ({type(error).__name__})."


def _reason(response: requests.Response) -> str:
    reason = (response.reason or "").strip()
    return f" {reason[:60]}" if reason.isprintable() and reason else ""


def _size(n: int) -> str:
    return f"{n / 1024 / 1024:g} MiB" if n >= 1024 * 1024 else f"{n} bytes"


def _valid_http_date(value: str) -> str:
    """Keep Last-Modified only if it is an HTTP date: we send it back verbatim."""
    try:
        parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return ""
    return value[:100]
