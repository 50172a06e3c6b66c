"""Every response carries a request id (a sane incoming one is kept), errors repeat it, and log
lines are JSON carrying it."""

import json

import pytest

pytestmark = pytest.mark.django_db


class TestRequestIds:
    def test_every_response_carries_a_request_id_and_errors_repeat_it(self, api, db):
        ok = api.get("/api/v1/health")
        assert len(ok["X-Request-ID"]) == 32
        missing = api.get("/api/v1/reservations/res_missing")
        assert missing.json()["request_id"] == missing["X-Request-ID"]

    def test_a_sane_incoming_request_id_is_kept_and_a_hostile_one_replaced(self, client, db):
        assert client.get("/api/v1/health", HTTP_X_REQUEST_ID="trace-123")["X-Request-ID"] == "trace-123"
        assert client.get("/api/v1/health", HTTP_X_REQUEST_ID="bad\r\nSet-Cookie: x=1")["X-Request-ID"] != "bad"

    def test_log_lines_are_json_with_the_request_id(self, capsys):
        import logging

        from config.observability import JsonFormatter, RequestIdFilter, request_id_var

        record = logging.LogRecord("booking", logging.WARNING, __file__, 1, "calendar busy", None, None)
        token = request_id_var.set("abc")
        RequestIdFilter().filter(record)
        request_id_var.reset(token)
        line = json.loads(JsonFormatter().format(record))
        assert line["request_id"] == "abc" and line["message"] == "calendar busy" and line["level"] == "WARNING"
