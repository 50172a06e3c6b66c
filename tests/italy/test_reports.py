"""`manage.py city_tax_report` and `istat_report`: the month's CSV from confirmed stays, with the
check-in's dates of birth and citizenships where given; and the same in the back office."""

import csv
import io
import re
from datetime import date
from decimal import Decimal

import pytest
from django.contrib.auth.models import Group, Permission, User
from django.core.management import call_command

from booking.italy.checkin import save_check_in
from booking.reservations.models import Reservation
from tests.dates import future
from tests.italy.conftest import CHILD, LEAD, PARTNER, party

pytestmark = pytest.mark.django_db


def rows(command: str, month: str, capsys) -> list[list[str]]:
    call_command(command, "--month", month)
    return list(csv.reader(io.StringIO(capsys.readouterr().out)))


@pytest.fixture
def june(make_stay, demo_property):
    demo_property.city_tax_per_person_night = Decimal("5.50")  # Florence's rate today
    demo_property.save()
    family = make_stay(check_in=date(2026, 6, 27), nights=10, guests=3)  # into July, past the 7-night cap
    with_ages = make_stay(check_in=date(2026, 6, 10), nights=2, guests=3, children_ages=[4, 15])
    make_stay(check_in=date(2026, 6, 12), nights=2, guests=2, status=Reservation.Status.CANCELLED)
    return family, with_ages


def test_city_tax_report(june, capsys, make_stay):
    family, with_ages = june
    save_check_in(family, party(LEAD, PARTNER, CHILD), today=date(2026, 6, 1))
    report = rows("city_tax_report", "2026-06", capsys)
    assert report[0] == ["reservation_id", "check_in", "check_out", "nights_taxed", "guests", "guests_exempt", "exemption_reasons", "rate", "amount"]
    by_id = {row[0]: row for row in report[1:]}
    assert by_id[with_ages.pk][3:] == ["2", "3", "1", "1 under 12 (children_ages)", "5.50", "22.00"]
    assert by_id[family.pk][3:] == ["4", "3", "1", "1 under 12 (date of birth)", "5.50", "44.00"]
    assert report[-1] == ["TOTAL", "", "", "6", "6", "2", "", "", "66.00"]
    july = rows("city_tax_report", "2026-07", capsys)
    assert july[1][3] == "3" and july[1][8] == "33.00"  # the cap's three remaining nights


def test_istat_report(june, capsys):
    family, _with_ages = june
    save_check_in(family, party(LEAD, PARTNER, CHILD), today=date(2026, 6, 1))
    report = rows("istat_report", "2026-06", capsys)
    assert report == [["citizenship", "arrivals", "nights"], ["DE", "2", "8"], ["IT", "1", "4"], ["", "3", "6"]]


def test_a_bad_month_is_refused():
    from django.core.management.base import CommandError

    with pytest.raises(CommandError):
        call_command("city_tax_report", "--month", "June")


def test_back_office_reports_and_police_day(client, june):
    user = User.objects.create_user("anna", password="x", is_staff=True)
    user.user_permissions.add(Permission.objects.get(codename="view_checkin"))
    client.force_login(user)
    page = client.get("/admin/italy/checkin/reports/", {"period": "2026-Q2"})
    assert page.status_code == 200 and "22.00 EUR" in page.content.decode()
    download = client.get("/admin/italy/checkin/reports/", {"period": "2026-06", "csv": "city_tax"})
    assert download["Content-Type"].startswith("text/csv") and b"TOTAL" in download.content
    for odd in ("2026-13", "0000-01", "2026-Q5", "x"):
        assert client.get("/admin/italy/checkin/reports/", {"period": odd}).status_code == 200
    day = client.get("/admin/italy/checkin/police/", {"date": "2026-06-27"})
    assert day.status_code == 200 and 'data-state="missing"' in day.content.decode()
    assert client.get("/admin/italy/checkin/police/", {"date": "2026-06-27", "download": "1"}).status_code == 403  # no document permission


def test_only_the_owner_sees_documents(client, make_stay):
    call_command("setup_roles")
    stay = make_stay(check_in=future(3), guests=1)
    save_check_in(stay, party(LEAD))
    check_in_url = f"/admin/italy/checkin/{stay.online_check_in.pk}/change/"
    for role, sees in (("Owner", True), ("Staff", False)):
        user = User.objects.create_user(role.lower(), password="x", is_staff=True)
        user.groups.add(Group.objects.get(name=role))
        client.force_login(user)
        html = client.get(check_in_url).content.decode()
        assert ("CA12345AB" in html) is sees and "Neri" in html
        assert (client.get("/admin/italy/checkin/police/", {"date": str(stay.check_in), "download": "1"}).status_code == 200) is sees
    german = client.get(check_in_url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    cells = dict(re.findall(r'field-(citizenship_name|country_of_birth_name)">\s*<p>([^<]*)</p>', german))
    assert cells == {"citizenship_name": "Italien", "country_of_birth_name": "Italien"}  # by name in the reader's language, not "IT"


def test_the_check_in_list_leads_to_the_police_day_and_the_reports_in_italian(client, demo_property):
    call_command("setup_roles")
    owner = User.objects.create_user("owner", password="x", is_staff=True)
    owner.groups.add(Group.objects.get(name="Owner"))
    client.force_login(owner)
    html = client.get("/admin/italy/checkin/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "/admin/italy/checkin/police/" in html and "Comunicazione alla polizia" in html and "Imposta di soggiorno e statistiche" in html
