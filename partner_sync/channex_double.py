"""A local test double of Channex: a small Channex-compatible HTTP server, written from
Channex's API documentation (docs/channex.md: the contract the engine follows), driven through the real client by
pointing CHANNEX_API_BASE at it. Never used by the service itself: the tests run it in their own
process (`FakeChannexServer`), and `manage.py bench` runs it as a process of its own
(`python -m partner_sync.channex_double`), reading its state through `/_double/` (below). Standard
library only, and no import of the project's code, so it starts without Django.

What it implements, as the README describes it:
- authentication by the `user-api-key` header (a missing or wrong key: 401 `unauthorized`);
- `POST /availability` (room type level) and `POST /restrictions` (rate plan level), with
  `{"values": [...]}` bodies: `date` or `date_from` + `date_to` (inclusive), `days` filters, merged
  per date in order ("last win"); a bad entry is left out and echoed in `meta.warnings` (still 200),
  `data` is `[]` when no entry was accepted; rates as decimal strings or integer cents, never floats;
- `GET /booking_revisions/feed` (unacknowledged revisions; `filter[property_id]`,
  `order[inserted_at]=asc|desc`, `pagination[page]`/`pagination[limit]` (10 by default, at most
  100), `meta.total`), `GET /booking_revisions/:id` (or 404), `POST /booking_revisions/:id/ack`;
- `POST /webhooks` (201), `GET /webhooks`, and the request Channex would make to a webhook
  (`webhook_request`), sending back the headers configured on it;
- the error envelope `{"errors": {"code", "title"}}`.

What the bench can do, over HTTP under `/_double/` (no key; the double listens on 127.0.0.1 only):
`GET /_double/availability?date_from=…&date_to=…` (inclusive) the availability received per date
(`null` when none was), `POST /_double/bookings` `{"arrival", "departure", "ota"}` a platform's new
booking: the revision, and the body and headers Channex would POST to the active webhook.

What tests can do: inject statuses (`fail_next(429)`, `fail_next(500, times=3)`, for one path
prefix or all), slow every answer (`delay_seconds`), and add revisions as a platform would
(`book`, `modify`, `cancel`).
"""

import argparse
import json
import secrets
import signal
import threading
import time
import uuid
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from decimal import Decimal, InvalidOperation
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl, urlsplit

WEEKDAYS = ["mo", "tu", "we", "th", "fr", "sa", "su"]
BOOLEAN_RESTRICTIONS = ("closed_to_arrival", "closed_to_departure", "stop_sell")
INTEGER_RESTRICTIONS = {"min_stay_arrival": 1, "min_stay_through": 1, "min_stay": 1, "max_stay": 0}
CHANNEL_NAMES = {"BDC": "BookingCom", "ABB": "Airbnb", "EXP": "A-Expedia", "VRB": "Vrbo"}


@dataclass
class Call:
    method: str
    path: str
    query: dict[str, str]
    body: object
    headers: dict[str, str]
    at: float


@dataclass
class FakeChannex:
    api_key: str = "test-channex-key"
    property_id: str = field(default_factory=lambda: str(uuid.uuid4()))
    room_type_id: str = field(default_factory=lambda: str(uuid.uuid4()))
    rate_plan_id: str = field(default_factory=lambda: str(uuid.uuid4()))
    api_base: str = ""
    calls: list[Call] = field(default_factory=list)
    availability: dict[date, int] = field(default_factory=dict)
    restrictions: dict[date, dict] = field(default_factory=dict)
    revisions: list[dict] = field(default_factory=list)  # each {"id", "attributes", "acked"}
    acks: list[str] = field(default_factory=list)  # every ack call, repeats included
    webhooks: list[dict] = field(default_factory=list)
    delay_seconds: float = 0
    today: date = field(default_factory=date.today)
    _failures: list[tuple[str, int]] = field(default_factory=list)  # (path prefix, status), used in order
    lock: threading.RLock = field(default_factory=threading.RLock)
    _clock: datetime = field(default_factory=lambda: datetime(2027, 3, 2, 10, 0, 0))

    # --- What tests arrange -----------------------------------------------------------------------
    def fail_next(self, status: int, *, times: int = 1, path: str = "") -> None:
        """Answer the next `times` requests whose path starts with `path` with `status`."""
        with self.lock:
            self._failures += [(path, status)] * times

    def calls_to(self, method: str, path_prefix: str) -> list[Call]:
        with self.lock:
            return [c for c in self.calls if c.method == method and c.path.startswith(path_prefix)]

    def book(self, *, arrival: date, departure: date, ota: str = "BDC", booking_id: str | None = None, **changes) -> dict:
        """A platform's new booking: a `new` revision in the feed. Returns the revision."""
        booking_id = booking_id or str(uuid.uuid4())
        code = changes.pop("code", str(secrets.randbelow(10**10)).zfill(10))
        return self._revision("new", booking_id, ota, code, arrival, departure, **changes)

    def modify(self, previous: dict, **changes) -> dict:
        attributes = previous["attributes"]
        arrival = changes.pop("arrival", date.fromisoformat(attributes["arrival_date"]))
        departure = changes.pop("departure", date.fromisoformat(attributes["departure_date"]))
        ota = attributes["unique_id"][:3]
        return self._revision("modified", attributes["booking_id"], ota, attributes["ota_reservation_code"], arrival, departure, base=attributes, **changes)

    def cancel(self, previous: dict) -> dict:
        attributes = previous["attributes"]
        ota = attributes["unique_id"][:3]
        return self._revision(
            "cancelled",
            attributes["booking_id"],
            ota,
            attributes["ota_reservation_code"],
            date.fromisoformat(attributes["arrival_date"]),
            date.fromisoformat(attributes["departure_date"]),
            base=attributes,
        )

    def _revision(self, status: str, booking_id: str, ota: str, code: str, arrival: date, departure: date, base: dict | None = None, **changes) -> dict:
        with self.lock:
            self._clock += timedelta(seconds=7, microseconds=335485)
            nights = (departure - arrival).days
            amount = Decimal(changes.pop("amount", Decimal("240.00") * nights))
            per_night = (amount / nights).quantize(Decimal("0.01")) if nights > 0 else Decimal("0")
            occupancy = changes.pop("occupancy", (base or {}).get("occupancy") or {"adults": 2, "children": 1, "infants": 0})
            ages = changes.pop("ages", [7] * occupancy.get("children", 0))
            customer = changes.pop(
                "customer",
                (base or {}).get("customer")
                or {
                    "name": "Anna",
                    "surname": "Bianchi",
                    "mail": "abianc.123@guest.booking.com",
                    "phone": "+49 30 1234567",
                    "country": "DE",
                    "language": "de",
                    "city": "Berlin",
                    "address": None,
                    "zip": None,
                    "company": None,
                },
            )
            attributes = {
                "id": str(uuid.uuid4()),
                "booking_id": booking_id,
                "property_id": changes.pop("property_id", self.property_id),
                "status": status,
                "unique_id": f"{ota}-{code}",
                "ota_reservation_code": code,
                "ota_name": CHANNEL_NAMES.get(ota, "Other"),
                "system_id": str(secrets.randbelow(10**6)),
                "inserted_at": self._clock.isoformat(timespec="microseconds"),
                "arrival_date": arrival.isoformat(),
                "departure_date": departure.isoformat(),
                "arrival_hour": "15:00",
                "amount": str(amount.quantize(Decimal("0.01"))),
                "currency": "EUR",
                "ota_commission": str((amount * Decimal("0.15")).quantize(Decimal("0.01"))) if ota in ("BDC", "ABB") else None,
                "payment_collect": changes.pop("payment_collect", "ota"),
                "payment_type": None,
                "notes": changes.pop("notes", "Late arrival"),
                "guarantee": None,
                "occupancy": occupancy,
                "customer": customer,
                "services": [],
                "rooms": [
                    {
                        "room_type_id": changes.pop("room_type_id", self.room_type_id),
                        "rate_plan_id": changes.pop("rate_plan_id", self.rate_plan_id),
                        "checkin_date": arrival.isoformat(),
                        "checkout_date": departure.isoformat(),
                        "amount": str(amount.quantize(Decimal("0.01"))),
                        "days": {(arrival + timedelta(days=i)).isoformat(): str(per_night) for i in range(max(nights, 0))},
                        "occupancy": {**occupancy, "ages": ages},
                        "guests": [{"name": customer.get("name") if customer else None, "surname": customer.get("surname") if customer else None}],
                        "taxes": [],
                        "services": [],
                        "meta": None,
                        "booking_room_id": str(uuid.uuid4()),
                        "ota_unique_id": "1",
                    }
                ],
            }
            attributes.update(changes)
            revision = {"id": attributes["id"], "type": "booking_revision", "attributes": attributes, "acked": False}
            self.revisions.append(revision)
            return revision

    def unacked(self) -> list[dict]:
        with self.lock:
            return [r for r in self.revisions if not r["acked"]]

    def webhook_request(self, revision: dict, *, event: str = "booking") -> tuple[dict, dict]:
        """The body and headers Channex would POST to the configured webhook for this revision."""
        with self.lock:
            hook = next((h for h in self.webhooks if h.get("is_active")), None)
            headers = dict(hook["headers"]) if hook else {}
        attributes = revision["attributes"]
        body = {
            "event": event,
            "payload": {"booking_id": attributes["booking_id"], "property_id": attributes["property_id"], "revision_id": revision["id"]},
            "property_id": attributes["property_id"],
            "user_id": None,
            "timestamp": datetime.utcnow().isoformat(timespec="milliseconds") + "Z",
        }
        return body, headers

    def availability_on(self, night: date) -> int | None:
        with self.lock:
            return self.availability.get(night)

    # --- The bench's side (`/_double/`, when the double runs as a process of its own) -----------------
    def control(self, method: str, path: str, query: dict[str, str], raw: bytes) -> tuple[int, dict]:
        """What `manage.py bench` reads and arranges over HTTP: never recorded as a call."""
        try:
            if method == "GET" and path == "/_double/availability":
                first, last = date.fromisoformat(query["date_from"]), date.fromisoformat(query["date_to"])
                nights = [first + timedelta(days=i) for i in range((last - first).days + 1)]
                with self.lock:
                    return 200, {night.isoformat(): self.availability.get(night) for night in nights}
            if method == "POST" and path == "/_double/bookings":
                body = json.loads(raw or b"{}")
                arrival, departure = date.fromisoformat(body["arrival"]), date.fromisoformat(body["departure"])
                revision = self.book(arrival=arrival, departure=departure, ota=str(body.get("ota") or "BDC"))
                webhook, headers = self.webhook_request(revision)
                return 201, {"revision": _public(revision), "webhook": {"body": webhook, "headers": headers}}
        except (KeyError, TypeError, ValueError):
            return 400, _error("bad_request", "Bad Request")
        return 404, _error("not_found", "Not Found")

    # --- The HTTP side -----------------------------------------------------------------------------
    def handle(self, method: str, path: str, query: dict[str, str], raw: bytes, headers: dict[str, str]) -> tuple[int, dict]:
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = raw.decode(errors="replace")
        with self.lock:
            self.calls.append(Call(method, path, query, body, headers, time.monotonic()))
            failure = next((i for i, (prefix, _) in enumerate(self._failures) if path.startswith(prefix)), None)
            if failure is not None:
                _, status = self._failures.pop(failure)
                if status == 429:
                    return 429, _error("http_too_many_requests", "Too Many Requests")
                return status, _error("internal_server_error", "Internal Server Error") if status >= 500 else _error("bad_request", "Bad Request")
            if headers.get("user-api-key") != self.api_key:
                return 401, _error("unauthorized", "Unauthorized")
            if method == "POST" and path == "/availability":
                return self._ari(body, self._availability_entry)
            if method == "POST" and path == "/restrictions":
                return self._ari(body, self._restrictions_entry)
            if method == "GET" and path == "/booking_revisions/feed":
                return self._feed(query)
            if path.startswith("/booking_revisions/"):
                rest = path.removeprefix("/booking_revisions/").split("/")
                revision = next((r for r in self.revisions if r["id"] == rest[0]), None)
                if revision is None:
                    return 404, _error("resource_not_found", "Resource Not Found")
                if method == "GET" and len(rest) == 1:
                    return 200, {"data": _public(revision)}
                if method == "POST" and rest[1:] == ["ack"]:
                    revision["acked"] = True
                    self.acks.append(revision["id"])
                    return 200, {"meta": {"message": "Success"}}
            if path == "/webhooks" and method == "POST":
                hook = (body or {}).get("webhook") if isinstance(body, dict) else None
                if not isinstance(hook, dict) or not hook.get("callback_url"):
                    return 422, _error("validation_error", "Validation Error", details={"callback_url": ["can't be blank"]})
                hook = {"id": str(uuid.uuid4()), "is_active": False, "send_data": False, "headers": {}, "request_params": {}, **hook}
                self.webhooks.append(hook)
                return 201, {"data": {"type": "webhook", "id": hook["id"], "attributes": hook}}
            if path == "/webhooks" and method == "GET":
                return 200, {"data": [{"type": "webhook", "id": h["id"], "attributes": h} for h in self.webhooks]}
            return 404, _error("not_found", "Not Found")

    def _ari(self, body, check_entry) -> tuple[int, dict]:
        if not isinstance(body, dict) or not isinstance(body.get("values"), list):
            return 400, _error("bad_request", "Bad Request", details=["values must be a list"])
        warnings, accepted = [], 0
        for entry in body["values"]:
            problem = check_entry(entry) if isinstance(entry, dict) else {"values": ["must be an object"]}
            if problem:
                warnings.append({**(entry if isinstance(entry, dict) else {}), "warning": problem})
            else:
                accepted += 1
        data = [{"id": str(uuid.uuid4()), "type": "task"}] if accepted else []
        return 200, {"data": data, "meta": {"message": "Success", "warnings": warnings}}

    def _dates(self, entry: dict) -> tuple[list[date] | None, dict | None]:
        try:
            if "date" in entry:
                first = last = date.fromisoformat(entry["date"])
            else:
                first, last = date.fromisoformat(entry["date_from"]), date.fromisoformat(entry["date_to"])
        except (KeyError, TypeError, ValueError):
            return None, {"date": ["is invalid"]}
        if first < self.today:
            return None, {"date": ["can't be in the past"]}
        if last < first:
            return None, {"date_to": ["must be after date_from"]}
        days = entry.get("days")
        nights = [first + timedelta(days=i) for i in range((last - first).days + 1)]
        if days is not None:
            nights = [n for n in nights if WEEKDAYS[n.weekday()] in days]
        return nights, None

    def _availability_entry(self, entry: dict) -> dict | None:
        if entry.get("property_id") != self.property_id:
            return {"property_id": ["is invalid"]}
        if entry.get("room_type_id") != self.room_type_id:
            return {"room_type_id": ["is invalid"]}
        value = entry.get("availability")
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            return {"availability": ["must be an integer greater than or equal to 0"]}
        nights, problem = self._dates(entry)
        if problem:
            return problem
        for night in nights or []:
            self.availability[night] = value
        return None

    def _restrictions_entry(self, entry: dict) -> dict | None:
        if entry.get("property_id") != self.property_id:
            return {"property_id": ["is invalid"]}
        if entry.get("rate_plan_id") != self.rate_plan_id:
            return {"rate_plan_id": ["is invalid"]}
        changes: dict[str, Decimal | int | bool] = {}
        if "rate" in entry:
            rate = entry["rate"]
            if isinstance(rate, float) or isinstance(rate, bool):
                return {"rate": ["must be a decimal string or an integer in cents"]}
            try:
                amount = Decimal(rate) if isinstance(rate, str) else Decimal(rate) / 100
            except (InvalidOperation, TypeError):
                return {"rate": ["is invalid"]}
            if amount <= 0:
                return {"rate": ["must be greater than 0"]}
            changes["rate"] = amount
        for name, minimum in INTEGER_RESTRICTIONS.items():
            if name in entry:
                value = entry[name]
                if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
                    return {name: [f"must be an integer greater than or equal to {minimum}"]}
                changes[name] = value
        for name in BOOLEAN_RESTRICTIONS:
            if name in entry:
                value = entry[name]
                if value not in (True, False, 0, 1):
                    return {name: ["must be a boolean"]}
                changes[name] = bool(value)
        if not changes:
            return {"values": ["at least one restriction must be present"]}
        nights, problem = self._dates(entry)
        if problem:
            return problem
        for night in nights or []:
            self.restrictions.setdefault(night, {}).update(changes)
        return None

    def _feed(self, query: dict[str, str]) -> tuple[int, dict]:
        try:
            page = max(1, int(query.get("pagination[page]", "1")))
            limit = min(100, max(1, int(query.get("pagination[limit]", "10"))))
        except ValueError:
            return 400, _error("bad_request", "Bad Request")
        pending = [r for r in self.revisions if not r["acked"]]
        if "filter[property_id]" in query:
            pending = [r for r in pending if r["attributes"]["property_id"] == query["filter[property_id]"]]
        order = query.get("order[inserted_at]")
        if order in ("asc", "desc"):
            pending.sort(key=lambda r: r["attributes"]["inserted_at"], reverse=order == "desc")
        chunk = pending[(page - 1) * limit : page * limit]
        return 200, {"data": [_public(r) for r in chunk], "meta": {"page": page, "limit": limit, "total": len(pending)}}


def _public(revision: dict) -> dict:
    return {"type": "booking_revision", "id": revision["id"], "attributes": revision["attributes"]}


def _error(code: str, title: str, **extra) -> dict:
    return {"errors": {"code": code, "title": title, **extra}}


class _Handler(BaseHTTPRequestHandler):
    fake: FakeChannex

    def _answer(self):
        url = urlsplit(self.path)
        prefix = "/api/v1"
        path = url.path.removeprefix(prefix) or "/"
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        if self.fake.delay_seconds:
            time.sleep(self.fake.delay_seconds)
        if path.startswith("/_double/"):
            status, body = self.fake.control(self.command, path, dict(parse_qsl(url.query)), raw)
        else:
            status, body = self.fake.handle(self.command, path, dict(parse_qsl(url.query)), raw, {k.lower(): v for k, v in self.headers.items()})
        payload = json.dumps(body).encode()
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)
        except (BrokenPipeError, ConnectionResetError):  # the client gave up (a timeout test)
            pass

    do_GET = do_POST = do_PUT = do_DELETE = _answer

    def log_message(self, *args):  # quiet
        pass


class FakeChannexServer:
    """`with FakeChannexServer() as channex:` serves a FakeChannex on a free local port;
    `channex.api_base` is the value for CHANNEX_API_BASE."""

    def __init__(self, fake: FakeChannex | None = None, *, port: int = 0):
        self.fake = fake or FakeChannex()
        self.port = port

    def __enter__(self) -> FakeChannex:
        handler = type("Handler", (_Handler,), {"fake": self.fake})
        self.server = ThreadingHTTPServer(("127.0.0.1", self.port), handler)
        self.server.daemon_threads = True
        self.fake.api_base = f"http://127.0.0.1:{self.server.server_address[1]}/api/v1"
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)
        self.thread.start()
        return self.fake

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=5)


def main(argv: list[str] | None = None) -> None:
    """`python -m partner_sync.channex_double --api-key … --property-id … --room-type-id … --rate-plan-id …`:
    serve the double on 127.0.0.1 (a free port unless --port), print its CHANNEX_API_BASE on the
    first line, and serve until SIGTERM or Ctrl-C."""
    parser = argparse.ArgumentParser(description="Serve the local Channex test double on 127.0.0.1.")
    parser.add_argument("--port", type=int, default=0)
    for name in ("api-key", "property-id", "room-type-id", "rate-plan-id"):
        parser.add_argument(f"--{name}", required=True)
    args = parser.parse_args(argv)
    fake = FakeChannex(api_key=args.api_key, property_id=args.property_id, room_type_id=args.room_type_id, rate_plan_id=args.rate_plan_id)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    with FakeChannexServer(fake, port=args.port) as running:
        print(running.api_base, flush=True)
        try:
            while not stop.wait(1):
                pass
        except KeyboardInterrupt:
            pass


if __name__ == "__main__":
    main()
