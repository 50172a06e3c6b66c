"""A small Stripe-compatible HTTP server for tests, driven through the real `stripe` SDK by pointing
STRIPE_API_BASE at it. It implements only what the service calls: Checkout Session create,
retrieve and expire, Refund create, and PaymentIntent create (off-session, with manual capture),
retrieve, capture and cancel, with Stripe's form encoding, errors and idempotency keys (a key
reused with other parameters is refused, as Stripe does). A session
made with `customer_creation=always` gets a Customer when completed (one made with
`payment_intent_data[capture_method]=manual` completes as a hold: its intent `requires_capture`); the card the payer used is
kept on it (`card="pm_card_chargeCustomerFail"`, Stripe's 4000 0000 0000 0341, is kept but every
later charge to it is declined). Tests can make it fail (`fail_with = 500` or `402`), lose its answers
(`lose_answers`: a POST is done, the client gets a 500), fail only reads (`fail_reads_with`) or only
some calls (`fail_paths`, e.g. {"/cancel": 500}: not done), and complete a session as a payer would.
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
    payment_intents: dict[str, dict] = field(default_factory=dict)
    fail_with: int | None = None  # answer every call with this HTTP status (500, 402, …)
    lose_answers: bool = False  # do what each POST asks, then answer 500 as if the answer were lost
    delay_seconds: float = 0
    fail_reads_with: int | None = None  # answer every GET with this HTTP status (the provider unreachable for reads)
    fail_paths: dict[str, int] = field(default_factory=dict)  # a POST whose path ends so → this status, not done
    # When given: an off-session charge (POST /v1/payment_intents) waits for this event before it is
    # made, with `charge_out` set meanwhile, so a test can act while the charge is out.
    hold_charges: threading.Event | None = None
    charge_out: threading.Event = field(default_factory=threading.Event)
    _idempotent: dict[str, tuple[dict, tuple[int, dict]]] = field(default_factory=dict)  # key → (request, answer)
    lock: threading.RLock = field(default_factory=threading.RLock)

    # --- What a payer does on Stripe's page ---------------------------------------------------
    def complete(self, session_id: str, *, email="payer@example.com", name="Pat Payer", phone="+39 055 1234567", paid=True, card="pm_card_visa") -> dict:
        with self.lock:
            session = self.sessions[session_id]
            hold = session.get("_capture_method") == "manual"  # an authorisation: the card is held, nothing is taken
            status = ("requires_capture" if hold else "succeeded") if paid else "processing"
            intent = self._intent(session["amount_total"], session["currency"], status, card, capture_method="manual" if hold else "automatic")
            customer = "cus_" + secrets.token_hex(7) if session.get("_customer_creation") == "always" else None
            intent.update(customer=customer, setup_future_usage=session.get("_setup_future_usage"))
            session.update(
                status="complete",
                payment_status="paid" if paid and not hold else "unpaid",
                payment_intent=intent["id"],
                customer=customer,
                customer_details={"email": email, "name": name, "phone": phone, "address": None, "tax_exempt": "none"},
                url=None,
            )
            return self._public(session)

    def _intent(self, amount: int, currency: str, status: str, card: str, **extra) -> dict:
        intent = {
            "id": "pi_" + secrets.token_hex(8),
            "object": "payment_intent",
            "amount": amount,
            "amount_received": amount if status == "succeeded" else 0,
            "amount_capturable": amount if status == "requires_capture" else 0,
            "currency": currency,
            "status": status,
            "payment_method": card,
            "capture_method": "automatic",
            "metadata": {},
            **extra,
        }
        self.payment_intents[intent["id"]] = intent
        return intent

    @staticmethod
    def _public(session: dict) -> dict:
        return {k: v for k, v in session.items() if not k.startswith("_")}

    def expire_now(self, session_id: str) -> dict:
        with self.lock:
            self.sessions[session_id].update(status="expired", url=None)
            return self._public(self.sessions[session_id])

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
        if method == "GET" and self.fail_reads_with:
            return self.fail_reads_with, _error("api_error", "Something went wrong reading (fake).")
        for suffix, failure in self.fail_paths.items():
            if method == "POST" and path.endswith(suffix):
                return failure, _error("api_error", f"Something went wrong at {suffix} (fake).")
        key = headers.get("idempotency-key")
        with self.lock:  # like Stripe, one request per idempotency key at a time
            if method == "POST" and key and key in self._idempotent:
                first_request, first_answer = self._idempotent[key]
                if first_request != {"path": path, **form}:  # like Stripe: a key is bound to its parameters
                    message = "Keys for idempotent requests can only be used with the same parameters they were first used with."
                    return 400, _error("idempotency_error", message)
                return (500, _error("api_error", "The answer was lost (fake).")) if self.lose_answers else first_answer
            answer = self._route(method, path, form)
            if method == "POST" and key and answer[0] < 500:
                self._idempotent[key] = ({"path": path, **form}, answer)
            return (500, _error("api_error", "The answer was lost (fake).")) if self.lose_answers and method == "POST" else answer

    def _route(self, method, path, form):
        parts = path.strip("/").split("/")
        if method == "POST" and parts == ["v1", "checkout", "sessions"]:
            return self._create_session(form)
        if method == "GET" and parts[:3] == ["v1", "checkout", "sessions"] and len(parts) == 4:
            session = self.sessions.get(parts[3])
            return (200, self._public(session)) if session else (404, _error("invalid_request_error", "No such checkout.session", code="resource_missing"))
        if method == "POST" and parts[:3] == ["v1", "checkout", "sessions"] and len(parts) == 5 and parts[4] == "expire":
            session = self.sessions.get(parts[3])
            if session is None:
                return 404, _error("invalid_request_error", "No such checkout.session", code="resource_missing")
            if session["status"] != "open":
                return 400, _error("invalid_request_error", 'Only Checkout Sessions with a status in ["open"] can be expired.')
            return 200, self.expire_now(parts[3])
        if method == "POST" and parts == ["v1", "refunds"]:
            return self._refund(form)
        if parts[:2] == ["v1", "payment_intents"]:
            return self._payment_intents(method, parts[2:], form)
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
            "customer": None,
            "_customer_creation": form.get("customer_creation"),
            "_setup_future_usage": form.get("payment_intent_data[setup_future_usage]"),
            "_capture_method": form.get("payment_intent_data[capture_method]"),
        }
        with self.lock:
            self.sessions[session_id] = session
        return 200, self._public(session)

    def _payment_intents(self, method, rest, form):
        if method == "POST" and not rest:
            return self._create_intent(form)
        intent = self.payment_intents.get(rest[0]) if rest else None
        if intent is None:
            return 404, _error("invalid_request_error", "No such payment_intent", code="resource_missing")
        if method == "GET" and len(rest) == 1:
            return 200, dict(intent)
        if method == "POST" and rest[1:] == ["capture"]:
            if intent["status"] != "requires_capture":
                return 400, _error("invalid_request_error", "This PaymentIntent could not be captured.", code="payment_intent_unexpected_state")
            amount = int(form.get("amount_to_capture", intent["amount"]))
            if amount > intent["amount"]:
                return 400, _error("invalid_request_error", "amount_to_capture is greater than the amount capturable.", code="amount_too_large")
            intent.update(status="succeeded", amount_received=amount, amount_capturable=0)
            return 200, dict(intent)
        if method == "POST" and rest[1:] == ["cancel"]:
            if intent["status"] not in ("requires_capture", "requires_payment_method", "requires_action"):
                return 400, _error("invalid_request_error", "This PaymentIntent could not be canceled.", code="payment_intent_unexpected_state")
            intent.update(status="canceled", amount_capturable=0)
            return 200, dict(intent)
        return 404, _error("invalid_request_error", f"Unrecognized request URL ({method}).")

    def _create_intent(self, form):
        """Off-session: the customer's saved card, confirmed at once (a hold with capture_method=manual)."""
        customer, card = form.get("customer"), form.get("payment_method")
        known = {(i.get("customer"), i["payment_method"]) for i in self.payment_intents.values() if i.get("setup_future_usage") == "off_session"}
        if (customer, card) not in known:
            return 400, _error("invalid_request_error", "The provided PaymentMethod was not saved to this customer for off-session use.")
        if form.get("off_session") != "true" or form.get("confirm") != "true":
            return 400, _error("invalid_request_error", "This fake only takes off-session, confirmed payment intents.")
        hold = form.get("capture_method") == "manual"
        metadata = {k[len("metadata[") : -1]: v for k, v in form.items() if k.startswith("metadata[")}
        if card == "pm_card_chargeCustomerFail":
            refused = self._intent(int(form["amount"]), form["currency"], "requires_payment_method", card, customer=customer, metadata=metadata)
            error = _error("card_error", "Your card was declined.", code="card_declined", decline_code="generic_decline", payment_intent=dict(refused))
            return 402, error
        intent = self._intent(
            int(form["amount"]),
            form["currency"],
            "requires_capture" if hold else "succeeded",
            card,
            customer=customer,
            metadata=metadata,
            capture_method="manual" if hold else "automatic",
        )
        return 200, dict(intent)

    def _refund(self, form):
        payment_intent, amount = form.get("payment_intent"), int(form.get("amount", "0"))
        intent = self.payment_intents.get(payment_intent)
        if intent is None or intent["status"] != "succeeded":
            return 404, _error("invalid_request_error", f"No such payment_intent: '{payment_intent}'", code="resource_missing")
        already = sum(r["amount"] for r in self.refunds if r["payment_intent"] == payment_intent)
        # A checkout's payment: what the session says was taken (tests may change it after paying).
        taken = next((s["amount_total"] for s in self.sessions.values() if s.get("payment_intent") == payment_intent), intent["amount_received"])
        if amount <= 0 or already + amount > taken:
            return 400, _error("invalid_request_error", "Refund amount is greater than the unrefunded amount.", code="amount_too_large")
        refund = {
            "id": "re_" + secrets.token_hex(8),
            "object": "refund",
            "amount": amount,
            "currency": intent["currency"],
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
        if self.fake.hold_charges is not None and self.command == "POST" and url.path == "/v1/payment_intents":
            self.fake.charge_out.set()
            self.fake.hold_charges.wait(timeout=30)
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
