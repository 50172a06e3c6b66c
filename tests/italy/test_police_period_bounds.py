"""The police file's period at its edges: a leap year's 366 days is a period, one day more is not,
a period ending the day before it begins is refused, and the command and the back office say so
in words (a command error, a form error), never a traceback or a 500."""

import io

import pytest
from django.contrib.auth.models import Group, User
from django.core.management import call_command
from django.core.management.base import CommandError

pytestmark = pytest.mark.django_db
POLICE = "/admin/italy/checkin/police/"


@pytest.fixture
def owner(client, demo_property):
    call_command("setup_roles", stdout=io.StringIO())
    user = User.objects.create_user("owner", password="x", is_staff=True)
    user.groups.add(Group.objects.get(name="Owner"))
    client.force_login(user)
    return client


def test_a_leap_years_366_days_is_a_period_for_the_command(demo_property, capsys):
    call_command("alloggiati_file", "--from", "2027-07-01", "--to", "2028-06-30")  # 29 February 2028 inside: 366 days
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize(
    ("first", "last", "message"),
    [
        ("2027-07-01", "2028-07-01", "at most a year (366 days); this one is 367 days"),
        ("2026-06-02", "2026-06-01", "The period ends before it begins."),
        ("0001-01-01", "9999-12-31", "this one is 3652059 days"),
    ],
)
def test_the_command_refuses_with_a_sentence(demo_property, capsys, first, last, message):
    with pytest.raises(CommandError, match=message.replace("(", r"\(").replace(")", r"\)")):
        call_command("alloggiati_file", "--from", first, "--to", last)
    assert capsys.readouterr().out == ""


def test_the_back_office_gives_the_366_days_file(owner):
    answer = owner.get(POLICE, {"file": "period", "first": "2027-07-01", "last": "2028-06-30"})
    assert answer.status_code == 200 and answer["Content-Disposition"] == 'attachment; filename="alloggiati-2027-07-01_2028-06-30.txt"'


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ({"first": "2027-07-01", "last": "2028-07-01"}, "A period is at most a year (366 days); this one is 367 days."),
        ({"first": "2026-06-02", "last": "2026-06-01"}, "The period ends before it begins."),
        ({"first": "0001-01-01", "last": "9999-12-31"}, "this one is 3652059 days"),
        ({"first": "10000-01-01", "last": "2026-06-01"}, "Enter a valid date."),
        ({"month": "0000-01"}, "Give the month as YYYY-MM"),
    ],
)
def test_the_back_office_form_says_why_and_gives_no_file(owner, query, message):
    page = owner.get(POLICE, {"file": "period", **query})
    assert page.status_code == 200 and "Content-Disposition" not in page
    assert 'class="errorlist' in page.content.decode() and message in page.content.decode()
