"""The police file for any period (issue #42, item 3): `manage.py alloggiati_file --from D --to D`
and the back office's month or date range give one file, exactly the days' files one after the
other in arrival-date order; a reversed, over-a-year or malformed period is refused. Reports name a
stay by its lead guest ("Rossi, Mario") and dates, never by its id, for users who may see guests."""

import io
import re
import subprocess
import sys
from datetime import date
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.models import Group, Permission, User
from django.core.management import call_command
from django.core.management.base import CommandError

from booking.reservations.models import Reservation
from tests.italy.conftest import CHILD, LEAD, PARTNER, checked_in_and_seen, party

pytestmark = pytest.mark.django_db

GOLDEN = Path(__file__).parent / "golden"
MARIO = {**LEAD, "first_name": "Mario", "last_name": "Rossi", "sex": "M"}
BEFORE = date(2026, 5, 1)  # check-ins saved while they were open


@pytest.fixture
def june_july(make_stay):
    """Arrivals on three days of June and July, made out of date order, and stays that are not in
    the file: one in August, one cancelled."""
    group = make_stay(check_in=date(2026, 7, 5), nights=2, guests=2)
    checked_in_and_seen(group, party(LEAD, PARTNER, kind="group"), today=BEFORE)
    mario = make_stay(check_in=date(2026, 6, 20), nights=3, guests=1)
    checked_in_and_seen(mario, party(MARIO), today=BEFORE)
    family = make_stay(check_in=date(2026, 6, 10), nights=2, guests=3)
    checked_in_and_seen(family, party(LEAD, PARTNER, CHILD), today=BEFORE)
    august = make_stay(check_in=date(2026, 8, 2), nights=2, guests=1)
    checked_in_and_seen(august, party(LEAD), today=BEFORE)
    make_stay(check_in=date(2026, 6, 14), nights=2, guests=2, status=Reservation.Status.CANCELLED)
    return family, mario, group


def command_output(capsys, *args: str) -> str:
    call_command("alloggiati_file", *args)
    return capsys.readouterr().out


def test_a_period_is_the_days_files_one_after_the_other_in_arrival_order(june_july, capsys):
    period = command_output(capsys, "--from", "2026-06-01", "--to", "2026-07-31")
    days = [command_output(capsys, "--date", str(stay.check_in)) for stay in june_july]
    assert period.encode("ascii") == "".join(days).encode("ascii")
    records = period.split("\r\n")[:-1]
    assert [len(r) for r in records] == [168] * 6
    assert [(r[:2], r[2:12]) for r in records] == [
        ("17", "10/06/2026"),  # the family: its head first, then the members
        ("19", "10/06/2026"),
        ("19", "10/06/2026"),
        ("16", "20/06/2026"),  # Mario Rossi alone
        ("18", "05/07/2026"),  # the group: its leader first
        ("20", "05/07/2026"),
    ]
    assert command_output(capsys, "--from", "2026-06-20", "--to", "2026-06-20") == command_output(capsys, "--date", "2026-06-20")


def test_the_period_file_matches_its_golden_file(june_july, capsys):
    period = command_output(capsys, "--from", "2026-06-01", "--to", "2026-07-31")
    assert period.encode("ascii") == (GOLDEN / "period_june_july.txt").read_bytes() + b"\r\n"


def test_a_period_lists_its_stays_missing_data_and_exits_1(june_july, make_stay, capsys):
    missing = make_stay(check_in=date(2026, 7, 20), nights=2, guests=2)
    with pytest.raises(SystemExit) as exit_:
        call_command("alloggiati_file", "--from", "2026-06-01", "--to", "2026-07-31")
    captured = capsys.readouterr()
    assert exit_.value.code == 1 and missing.pk in captured.err and len(captured.out.split("\r\n")) == 7  # the six complete records still printed


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--from", "2026-07-31", "--to", "2026-06-01"), "ends before it begins"),
        (("--from", "2026-01-01", "--to", "2027-02-04"), "400 days"),  # 400 days, both ends included
        (("--from", "2026-06-31", "--to", "2026-07-31"), "--from must be YYYY-MM-DD"),
        (("--from", "2026-06-01", "--to", "July"), "--to must be YYYY-MM-DD"),
        (("--from", "20260601", "--to", "2026-07-31"), "--from must be YYYY-MM-DD"),
        (("--date", "2026-6-1"), "--date must be YYYY-MM-DD"),
        (("--from", "2026-06-01"), "--to"),
        (("--date", "2026-06-01", "--from", "2026-06-01", "--to", "2026-06-02"), "either --date"),
    ],
)
def test_a_bad_period_is_an_error_and_prints_nothing(june_july, capsys, args, message):
    with pytest.raises(CommandError, match=re.escape(message)):
        call_command("alloggiati_file", *args)
    assert capsys.readouterr().out == ""


def test_a_year_is_the_longest_period(june_july, capsys):
    assert command_output(capsys, "--from", "2026-01-01", "--to", "2026-12-31").count("\r\n") == 7  # 365 days: every arrival of 2026


def test_manage_py_exits_non_zero_with_a_message_and_no_output():
    run = subprocess.run(
        [sys.executable, "manage.py", "alloggiati_file", "--from", "2026-07-31", "--to", "2026-06-01"],
        cwd=settings.BASE_DIR,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode != 0 and run.stdout == "" and "ends before it begins" in run.stderr


def user_with(client, role: str) -> User:
    call_command("setup_roles", stdout=io.StringIO())
    user = User.objects.create_user(role.lower(), password="x", is_staff=True)
    user.groups.add(Group.objects.get(name=role))
    client.force_login(user)
    return user


POLICE = "/admin/italy/checkin/police/"


def test_the_back_office_month_download_is_the_commands_file(client, june_july, capsys):
    user_with(client, "Owner")
    page = client.get(POLICE, {"date": "2026-06-10"}).content.decode()
    assert 'id="police-period"' in page
    june = client.get(POLICE, {"file": "period", "month": "2026-06"})
    assert june.status_code == 200 and june["Content-Disposition"] == 'attachment; filename="alloggiati-2026-06-01_2026-06-30.txt"'
    # The command ends its output with a line end; the file is the records with CRLF between them.
    assert june.content + b"\r\n" == command_output(capsys, "--from", "2026-06-01", "--to", "2026-06-30").encode("ascii")
    assert june.content.count(b"\r\n") == 3  # the family's three records and Mario's one
    both = client.get(POLICE, {"file": "period", "first": "2026-06-01", "last": "2026-07-31"})
    assert both.content == (GOLDEN / "period_june_july.txt").read_bytes()


@pytest.mark.parametrize(
    ("query", "italian"),
    [
        ({"month": "2026-13"}, "Indica il mese come AAAA-MM"),
        ({"month": "giugno"}, "Indica il mese come AAAA-MM"),
        ({"first": "2026-07-31", "last": "2026-06-01"}, "Il periodo finisce prima di cominciare."),
        ({"first": "2026-01-01", "last": "2027-02-04"}, "questo è di 400 giorni"),
        ({"first": "2026-02-30", "last": "2026-03-31"}, "Inserisci una data valida."),  # Django's own message
        ({"first": "2026-06-01"}, "Indica un mese, oppure il primo e l’ultimo giorno di arrivo."),
        ({"month": "2026-06", "first": "2026-06-01", "last": "2026-06-02"}, "Indica un mese o un intervallo di date, non entrambi."),
    ],
)
def test_the_back_office_form_shows_its_errors_in_the_readers_language(client, june_july, query, italian):
    user_with(client, "Owner")
    page = client.get(POLICE, {"file": "period", **query}, HTTP_ACCEPT_LANGUAGE="it")
    assert page.status_code == 200 and "Content-Disposition" not in page
    html = page.content.decode()
    assert 'class="errorlist' in html and italian in html


def test_the_period_file_needs_the_document_permission(client, june_july):
    user_with(client, "Staff")
    assert client.get(POLICE, {"file": "period", "month": "2026-06"}).status_code == 403
    assert 'id="police-period"' not in client.get(POLICE, {"date": "2026-06-20"}).content.decode()


def visible_text(html: str) -> str:
    return re.sub(r"<[^>]+>", " ", html)


def test_screens_name_the_stay_by_its_lead_guest_never_its_id(client, june_july, make_stay):
    without_check_in = make_stay(check_in=date(2026, 6, 25), nights=2, guests=2)  # the booker's name until check-in
    user_with(client, "Staff")
    police_day = visible_text(client.get(POLICE, {"date": "2026-06-20"}).content.decode())
    assert "Rossi, Mario" in police_day and "20 Jun 2026 – 23 Jun 2026" in police_day and "res_" not in police_day
    report = visible_text(client.get("/admin/italy/checkin/reports/", {"period": "2026-06"}).content.decode())
    assert "Rossi, Mario" in report and "Neri, Giulia" in report and "res_" not in report
    assert without_check_in.pk not in report and "Neri, Giulia" in visible_text(client.get(POLICE, {"date": "2026-06-25"}).content.decode())


def test_the_csv_keeps_its_columns_and_ids(client, june_july):
    user_with(client, "Staff")
    download = client.get("/admin/italy/checkin/reports/", {"period": "2026-06", "csv": "city_tax"}).content.decode()
    assert download.startswith("reservation_id,check_in,check_out,nights_taxed,guests,guests_exempt,exemption_reasons,rate,amount\n")
    assert june_july[1].pk in download and "Rossi" not in download


def test_only_users_who_may_see_guests_see_names(client, june_july):
    user = User.objects.create_user("clerk", password="x", is_staff=True)
    user.user_permissions.add(Permission.objects.get(codename="view_checkin"))  # the screens, not the guests
    client.force_login(user)
    for html in (
        client.get(POLICE, {"date": "2026-06-20"}).content.decode(),
        client.get("/admin/italy/checkin/reports/", {"period": "2026-06"}).content.decode(),
    ):
        text = visible_text(html)
        assert "Rossi" not in text and "Neri" not in text and "res_" not in text and "20 Jun 2026" in text
