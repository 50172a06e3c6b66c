"""A small Stripe-compatible HTTP server for tests, driven through the real `stripe` SDK by pointing
STRIPE_API_BASE at it. It implements only what the service calls: Checkout Session create,
retrieve and expire, and Refund create, with Stripe's form encoding, errors and idempotency keys.
Tests can make it fail (`fail_with = 500` or `402`) and complete a session as a payer would.
"""

import json
import secrets
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl, urlsplit


@dataclass
class Call:
    method: str
    path: str
    form: dict[str, str]
    headers: dict[str, str]


@dataclass
class FakeStripe:
    api_base: str = ""
    calls: list[Call] = field(default_factory=list)
    sessions: dict[str, dict] = field(default_factory=dict)
    refunds: list[dict] = field(default_factory=list)
    fail_with: int | None = None  # answer every call with this HTTP status (500, 402, …)
    delay_seconds: float = 0
    _idempotent: dict[str, tuple[int, dict]] = field(default_factory=dict)
    lock: threading.RLock = field(default_factory=threading.RLock)

    # --- What a payer does on Stripe's page ---------------------------------------------------
    def complete(self, session_id: str, *, email="payer@example.com", name="Pat Payer", phone="+39 055 1234567", paid=True) -> dict:
        with self.lock:
            session = self.sessions[session_id]
            session.update(
                status="complete",
                payment_status="paid" if paid else "unpaid",
                payment_intent="pi_" + secrets.token_hex(8),
                customer_details={"email": email, "name": name, "phone": phone, "address": None, "tax_exempt": "none"},
                url=None,
            )
            return dict(session)

    def expire_now(self, session_id: str) -> dict:
        with self.lock:
            self.sessions[session_id].update(status="expired", url=None)
            return dict(self.sessions[session_id])

    def calls_to(self, method: str, path_prefix: str) -> list[Call]:
        return [c for c in self.calls if c.method == method and c.path.startswith(path_prefix)]

    # --- The API ------------------------------------------------------------------------------
    def handle(self, method: str, path: str, form: dict[str, str], headers: dict[str, str]) -> tuple[int, dict]:
        self.calls.append(Call(method, path, form, headers))
        if not headers.get("authorization", "").startswith("Bearer sk_"):
            return 401, _error("invalid_request_error", "Invalid API Key provided.")
        if self.fail_with:
            kind = "card_error" if self.fail_with == 402 else "api_error"
            return self.fail_with, _error(kind, "Something went wrong (fake).")
        key = headers.get("idempotency-key")
        with self.lock:  # like Stripe, one request per idempotency key at a time
            if method == "POST" and key and key in self._idempotent:
                return self._idempotent[key]
            answer = self._route(method, path, form)
            if method == "POST" and key and answer[0] < 500:
                self._idempotent[key] = answer
            return answer

    def _route(self, method, path, form):
        parts = path.strip("/").split("/")
        if method == "POST" and parts == ["v1", "checkout", "sessions"]:
            return self._create_session(form)
        if method == "GET" and parts[:3] == ["v1", "checkout", "sessions"] and len(parts) == 4:
            session = self.sessions.get(parts[3])
            return (200, session) if session else (404, _error("invalid_request_error", "No such checkout.session", code="resource_missing"))
        if method == "POST" and parts[:3] == ["v1", "checkout", "sessions"] and len(parts) == 5 and parts[4] == "expire":
            session = self.sessions.get(parts[3])
            if session is None:
                return 404, _error("invalid_request_error", "No such checkout.session", code="resource_missing")
            if session["status"] != "open":
                return 400, _error("invalid_request_error", 'Only Checkout Sessions with a status in ["open"] can be expired.')
            return 200, self.expire_now(parts[3])
        if method == "POST" and parts == ["v1", "refunds"]:
            return self._refund(form)
        return 404, _error("invalid_request_error", f"Unrecognized request URL ({method}: {path}).")

    def _create_session(self, form):
        now = int(time.time())
        expires_at = int(form.get("expires_at", now + 86400))
        if not now + 30 * 60 <= expires_at <= now + 24 * 3600:
            return 400, _error(
                "invalid_request_error",
                "The `expires_at` timestamp must be between 30 minutes and 24 hours from Checkout Session creation.",
                param="expires_at",
            )
        for required in ("mode", "success_url", "line_items[0][price_data][unit_amount]"):
            if required not in form:
                return 400, _error("invalid_request_error", f"Missing required param: {required}.", param=required)
        session_id = "cs_test_" + secrets.token_hex(12)
        amount = int(form["line_items[0][price_data][unit_amount]"]) * int(form.get("line_items[0][quantity]", "1"))
        session = {
            "id": session_id,
            "object": "checkout.session",
            "livemode": False,
            "mode": form["mode"],
            "url": f"https://checkout.stripe.test/c/pay/{session_id}",
            "status": "open",
            "payment_status": "unpaid",
            "amount_total": amount,
            "currency": form["line_items[0][price_data][currency]"],
            "client_reference_id": form.get("client_reference_id"),
            "customer_email": form.get("customer_email"),
            "metadata": {k[len("metadata[") : -1]: v for k, v in form.items() if k.startswith("metadata[")},
            "expires_at": expires_at,
            "created": now,
            "success_url": form["success_url"],
            "cancel_url": form.get("cancel_url"),
            "payment_intent": None,
            "customer_details": None,
            "phone_number_collection": {"enabled": form.get("phone_number_collection[enabled]") == "true"},
        }
        with self.lock:
            self.sessions[session_id] = session
        return 200, dict(session)

    def _refund(self, form):
        payment_intent, amount = form.get("payment_intent"), int(form.get("amount", "0"))
        session = next((s for s in self.sessions.values() if s.get("payment_intent") == payment_intent), None)
        if session is None:
            return 404, _error("invalid_request_error", f"No such payment_intent: '{payment_intent}'", code="resource_missing")
        already = sum(r["amount"] for r in self.refunds if r["payment_intent"] == payment_intent)
        if amount <= 0 or already + amount > session["amount_total"]:
            return 400, _error("invalid_request_error", "Refund amount is greater than the unrefunded amount.", code="amount_too_large")
        refund = {
            "id": "re_" + secrets.token_hex(8),
            "object": "refund",
            "amount": amount,
            "currency": session["currency"],
            "payment_intent": payment_intent,
            "status": "succeeded",
        }
        self.refunds.append(refund)
        return 200, refund


def _error(kind: str, message: str, **extra) -> dict:
    return {"error": {"type": kind, "message": message, **extra}}


class _Handler(BaseHTTPRequestHandler):
    fake: FakeStripe

    def _answer(self):
        url = urlsplit(self.path)
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length).decode() if length else url.query
        form = dict(parse_qsl(body, keep_blank_values=True))
        headers = {k.lower(): v for k, v in self.headers.items()}
        if self.fake.delay_seconds:
            time.sleep(self.fake.delay_seconds)
        status, payload = self.fake.handle(self.command, url.path, form, headers)
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Request-Id", "req_" + secrets.token_hex(6))
        if status >= 500:
            self.send_header("Stripe-Should-Retry", "false")  # keep failing tests fast
        self.end_headers()
        self.wfile.write(data)

    do_GET = do_POST = do_DELETE = _answer

    def log_message(self, *args):  # quiet
        pass


class FakeStripeServer:
    """Context manager: a FakeStripe listening on a free local port."""

    def __enter__(self) -> FakeStripe:
        self.fake = FakeStripe()
        handler = type("Handler", (_Handler,), {"fake": self.fake})
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.server.daemon_threads = True
        self.fake.api_base = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)
        self.thread.start()
        return self.fake

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=5)
