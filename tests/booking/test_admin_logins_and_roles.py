"""The back office: repeated failed logins lock the account out; the Owner and Staff roles hold
the permissions their jobs need and no more."""

import os

import pytest
from django.contrib.auth.models import Group
from django.core.management import call_command

pytestmark = pytest.mark.django_db


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
