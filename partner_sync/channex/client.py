"""The Channex API calls the engine makes, over `requests` with timeouts (HTTP only, no database).

Every request sends `user-api-key` and `Content-Type: application/json`. An answer other than 2xx,
a timeout or a connection error raises ChannexError, which says whether it is worth retrying
(429 and 5xx are; the rest need a person) and carries the HTTP status when there was one.
"""

import logging
from dataclasses import dataclass
from typing import Any

import requests

logger = logging.getLogger("partner_sync.channex")

TIMEOUT = (5, 20)  # connect, read (seconds)
PAGE_LIMIT = 100  # the feed's largest page


class ChannexError(Exception):
    def __init__(self, message: str, *, status: int | None = None, retry: bool = True):
        super().__init__(message)
        self.status = status
        self.retry = retry


@dataclass(frozen=True)
class ChannexClient:
    api_base: str
    api_key: str
    timeout: tuple[float, float] = TIMEOUT

    def _request(self, method: str, path: str, *, params: dict[str, Any] | None = None, body: Any = None) -> dict:
        url = self.api_base.rstrip("/") + path
        headers = {"user-api-key": self.api_key, "Content-Type": "application/json", "Accept": "application/json"}
        try:
            response = requests.request(method, url, params=params, json=body, headers=headers, timeout=self.timeout)
        except requests.Timeout:
            raise ChannexError(f"Timed out after {self.timeout[1]:g} s ({method} {path}).") from None
        except requests.RequestException as error:
            raise ChannexError(f"Could not reach Channex ({type(error).__name__}, {method} {path}).") from None
        if not 200 <= response.status_code < 300:
            title = _error_title(response)
            retry = response.status_code == 429 or response.status_code >= 500
            raise ChannexError(f"HTTP {response.status_code} {title} ({method} {path})".strip(), status=response.status_code, retry=retry)
        try:
            answer = response.json() if response.content else {}
        except ValueError:
            raise ChannexError(
                f"Channex answered {response.status_code} with a body that is not JSON ({method} {path}).", status=response.status_code
            ) from None
        return answer if isinstance(answer, dict) else {}

    def post_availability(self, values: list[dict]) -> dict:
        return self._request("POST", "/availability", body={"values": values})

    def post_restrictions(self, values: list[dict]) -> dict:
        return self._request("POST", "/restrictions", body={"values": values})

    def feed_page(self, *, property_id: str, page: int) -> dict:
        params = {"filter[property_id]": property_id, "order[inserted_at]": "asc", "pagination[page]": page, "pagination[limit]": PAGE_LIMIT}
        return self._request("GET", "/booking_revisions/feed", params=params)

    def get_revision(self, revision_id: str) -> dict:
        return self._request("GET", f"/booking_revisions/{revision_id}")

    def ack_revision(self, revision_id: str) -> None:
        self._request("POST", f"/booking_revisions/{revision_id}/ack")


def _error_title(response: requests.Response) -> str:
    try:
        errors = response.json().get("errors") or {}
        return str(errors.get("title") or errors.get("code") or response.reason or "")[:100]
    except (ValueError, AttributeError):
        return str(response.reason or "")[:100]
