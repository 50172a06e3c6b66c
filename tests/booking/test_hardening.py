"""Hardening: hostile bodies, request ids, the back office's locks and roles, deploy settings."""

import json
import os
import subprocess
import sys

import pytest
from django.contrib.auth.models import Group
from django.core.management import call_command

from tests.conftest import future
from tests.live import ROOT

pytestmark = pytest.mark.django_db


class TestHostileBodies:
    @pytest.mark.parametrize("body", [
        b"[" * 100_000 + b"]" * 100_000,
        b'{"check_in": ' + b'{"a": ' * 50 + b"1" + b"}" * 50 + b"}",
        b'{"check_in": NaN, "check_out": "2030-01-01"}',
        b'{"check_in": Infinity}',
        b"\xff\xfe\x00",
        b"",
        b"null",
    ])
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


class TestBackOffice:
    def test_repeated_failed_logins_lock_the_account_out(self, client, django_user_model, settings):
        django_user_model.objects.create_superuser("giulia", "g@example.com", "the-right-password")
        login = "/" + settings.ADMIN_PATH + "login/"
        for _ in range(settings.AXES_FAILURE_LIMIT):
            client.post(login, {"username": "giulia", "password": "wrong"})
        locked = client.post(login, {"username": "giulia", "password": "the-right-password"})
        assert locked.status_code == 429
        assert "_auth_user_id" not in client.session

    def test_owner_edits_rates_and_staff_handle_reservations(self, db):
        call_command("setup_roles", stdout=open(os.devnull, "w"))
        owner = set(Group.objects.get(name="Owner").permissions.values_list("codename", flat=True))
        staff = set(Group.objects.get(name="Staff").permissions.values_list("codename", flat=True))
        assert {"change_property", "change_season", "add_season", "view_reservation", "change_reservation", "refund_reservation", "add_user"} <= owner
        assert not {"delete_reservation", "change_reservationevent"} & owner
        assert {"view_reservation", "change_reservation", "refund_reservation", "add_dateblock", "delete_dateblock"} <= staff
        assert not {"change_property", "change_season", "delete_reservation"} & staff
        call_command("setup_roles", stdout=open(os.devnull, "w"))  # idempotent
        assert Group.objects.filter(name__in=["Owner", "Staff"]).count() == 2


def test_deploy_checks_pass_with_an_https_base_url(tmp_path):
    env = {**os.environ, "DATA_DIR": str(tmp_path), "BASE_URL": "https://stay.example.com", "DEBUG": "false"}
    env.pop("SECRET_KEY", None)
    result = subprocess.run([sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"], cwd=ROOT, env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout
    key = tmp_path / "secret_key"
    assert key.exists() and oct(key.stat().st_mode & 0o777) == "0o600"
