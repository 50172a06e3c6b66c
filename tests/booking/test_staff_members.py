"""Adding a staff member from the back office (docs/back-office.md): an owner gives a person an
account with the Owner or Staff role; the person is emailed, in the reader's language, a link to
Django's password reset confirmation, chooses a password there and signs in. And the first owner
account: `make createsuperuser` lands in the database `make run` uses (its DATA_DIR)."""

import os
import re
import sqlite3
import subprocess
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.contrib.auth.models import Group
from django.core import mail
from django.core.management import call_command
from django.urls import reverse

from booking.management.commands.setup_roles import first_owner_reminder
from booking.outbox.models import OutboundEmail

pytestmark = pytest.mark.django_db

ADD = reverse("admin:auth_user_add_staff_member")
USERS = reverse("admin:auth_user_changelist")
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def roles(db):
    call_command("setup_roles", stdout=open(os.devnull, "w"))


def person_with_role(django_user_model, role: str, username: str):
    user = django_user_model.objects.create_user(username, f"{username}@example.com", "a-long-test-password", is_staff=True, first_name=username.title())
    user.groups.add(Group.objects.get(name=role))
    return user


@pytest.fixture
def owner_client(client, roles, django_user_model):
    client.force_login(person_with_role(django_user_model, "Owner", "giulia"))
    return client


def member(**changes) -> dict:
    return {"name": "Marco Bianchi", "email": "Marco.Bianchi@example.com", "role": "Staff", "language": "en", **changes}


def add(client, django_capture_on_commit_callbacks, **changes):
    with django_capture_on_commit_callbacks(execute=True):  # the outbox delivers after commit
        return client.post(ADD, member(**changes))


def link_in(body: str) -> str:
    return urlsplit(re.search(r"https?://\S+/set-password/\S+/", body)[0]).path


class TestAddingAStaffMember:
    def test_an_owner_adds_staff_who_get_an_account_without_a_password_and_an_email_with_a_link(
        self, owner_client, django_user_model, django_capture_on_commit_callbacks
    ):
        users = owner_client.get(USERS)
        assert ADD in users.content.decode()  # "Add a staff member" on the Users list
        response = add(owner_client, django_capture_on_commit_callbacks)
        assert response.status_code == 302 and response["Location"] == USERS
        user = django_user_model.objects.get(email="Marco.Bianchi@example.com")
        assert user.username == "marco.bianchi@example.com"
        assert (user.first_name, user.last_name) == ("Marco", "Bianchi")
        assert user.is_staff and user.is_active and not user.is_superuser
        assert not user.has_usable_password()
        assert list(user.groups.values_list("name", flat=True)) == ["Staff"]
        row = OutboundEmail.objects.get(kind=OutboundEmail.Kind.STAFF_INVITATION)
        assert row.to_address == "Marco.Bianchi@example.com" and row.status == OutboundEmail.Status.SENT
        (email,) = mail.outbox
        assert email.to == ["Marco.Bianchi@example.com"]
        assert "Giulia has added you to the back office" in email.body and "with the role Staff" in email.body
        assert "marco.bianchi@example.com" in email.body  # the username to sign in with

    def test_following_the_link_sets_the_password_and_the_member_signs_in(self, owner_client, client, django_user_model, django_capture_on_commit_callbacks):
        add(owner_client, django_capture_on_commit_callbacks, role="Owner")
        owner_client.logout()
        (email,) = mail.outbox
        opened = client.get(link_in(email.body), follow=True)
        assert opened.status_code == 200 and opened.context["validlink"]
        set_page = opened.redirect_chain[-1][0]  # Django hides the token from the address bar
        done = client.post(set_page, {"new_password1": "a-new-long-password", "new_password2": "a-new-long-password"}, follow=True)
        assert done.status_code == 200 and reverse("admin:login") in done.content.decode()
        user = django_user_model.objects.get(email="Marco.Bianchi@example.com")
        assert user.check_password("a-new-long-password") and list(user.groups.values_list("name", flat=True)) == ["Owner"]
        signed_in = client.post(reverse("admin:login"), {"username": "marco.bianchi@example.com", "password": "a-new-long-password"})
        assert signed_in.status_code == 302 and client.get(reverse("admin:index")).status_code == 200
        assert client.get(USERS).status_code == 200  # an Owner manages the accounts
        client.logout()
        used = client.get(link_in(email.body), follow=True)  # the link works once
        assert not used.context["validlink"] and "This link no longer works" in used.content.decode()

    def test_the_dashboard_offers_it_to_an_owner_in_their_language(self, owner_client, demo_property):
        assert "Aggiungi un membro dello staff" in owner_client.get(reverse("admin:index"), headers={"accept-language": "it"}).content.decode()

    def test_a_staff_member_may_not_add_people(self, client, roles, django_user_model, demo_property):
        client.force_login(person_with_role(django_user_model, "Staff", "paolo"))
        assert ADD not in client.get(reverse("admin:index")).content.decode()
        assert client.get(ADD).status_code == 403
        assert client.post(ADD, member()).status_code == 403
        assert not django_user_model.objects.filter(email="Marco.Bianchi@example.com").exists()
        assert not OutboundEmail.objects.exists()

    def test_the_form_needs_the_csrf_token(self, roles, django_user_model):
        from django.test import Client

        client = Client(enforce_csrf_checks=True)
        client.force_login(person_with_role(django_user_model, "Owner", "giulia"))
        assert client.post(ADD, member()).status_code == 403
        assert not django_user_model.objects.filter(email="Marco.Bianchi@example.com").exists()

    def test_an_address_that_has_an_account_is_a_form_error(self, owner_client, django_user_model, django_capture_on_commit_callbacks):
        django_user_model.objects.create_user("marco", "marco.bianchi@EXAMPLE.com", "x")
        response = add(owner_client, django_capture_on_commit_callbacks)
        assert response.status_code == 200
        assert "There is already an account with this email address." in response.content.decode()
        assert 'value="Marco Bianchi"' in response.content.decode()  # the form keeps what was typed
        assert django_user_model.objects.filter(email__iexact="marco.bianchi@example.com").count() == 1
        assert not mail.outbox

    def test_the_email_is_in_italian_for_an_italian_back_office_reader(self, owner_client, django_capture_on_commit_callbacks):
        form = owner_client.get(ADD, headers={"accept-language": "it"})
        assert "Aggiungi un membro dello staff" in form.content.decode()
        assert form.context["form"]["language"].value() == "it"  # the email's language: the reader's
        with django_capture_on_commit_callbacks(execute=True):
            owner_client.post(ADD, member(language="it"), headers={"accept-language": "it"})
        (email,) = mail.outbox
        assert email.subject.startswith("Il tuo account per la gestione di")
        assert "Buongiorno Marco Bianchi," in email.body
        assert "Scegli la tua password qui:" in email.body
        assert "con il ruolo Staff" in email.body

    @pytest.mark.parametrize(
        ("language", "words"),
        [("de", "Wählen Sie hier Ihr Passwort:"), ("fr", "Choisissez votre mot de passe ici :"), ("en", "Choose your password here:")],
    )
    def test_the_email_is_in_the_language_chosen_on_the_form(self, owner_client, django_capture_on_commit_callbacks, language, words):
        add(owner_client, django_capture_on_commit_callbacks, language=language)
        (email,) = mail.outbox
        assert words in email.body


class TestTheFirstOwner:
    def test_the_reminder_names_make_createsuperuser_with_the_data_dir(self, settings, monkeypatch, tmp_path):
        monkeypatch.delenv("DATABASE_URL", raising=False)
        monkeypatch.delenv("DATA_DIR", raising=False)
        assert "\n    make createsuperuser\n" in first_owner_reminder()
        monkeypatch.setenv("DATA_DIR", str(tmp_path))
        settings.DATA_DIR = tmp_path
        assert f"\n    DATA_DIR={tmp_path} make createsuperuser\n" in first_owner_reminder()

    def test_make_createsuperuser_creates_the_account_in_the_data_dir_s_database(self, tmp_path):
        data_dir = tmp_path / "instance"
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_URL", "DJANGO_SUPERUSER_"))}
        env |= {
            "DATA_DIR": str(data_dir),
            "DJANGO_SUPERUSER_USERNAME": "owner",
            "DJANGO_SUPERUSER_EMAIL": "owner@example.com",
            "DJANGO_SUPERUSER_PASSWORD": "a-long-test-password",
        }
        # -o: the virtualenv is taken as installed (no pip run from a test).
        done = subprocess.run(["make", "-s", "-o", ".venv/.installed-run", "createsuperuser"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        with sqlite3.connect(data_dir / "db.sqlite3") as database:  # migrated first: the tables are there
            assert database.execute("SELECT username, email, is_superuser, is_staff FROM auth_user").fetchall() == [("owner", "owner@example.com", 1, 1)]
