"""`manage.py setup_roles` (run by `make run`): the two back-office roles, kept up to date.

- Owner: everything a host working alone needs from one account: the property, rates, content,
  blog and partner feeds; reservations (cancel, refund), blocks; the back-office accounts.
- Staff: runs reservations (review, cancel, refund), blocks and unblocks dates, reads the property,
  feeds and inquiries; cannot change rates or content.
Add people with a role from the back office (Users → Add a staff member). Idempotent: permissions
are reset to these sets. Until an owner account exists, it says how to create one (`make createsuperuser`
with the DATA_DIR `make run` was given, so the account lands in the same database).
"""

import os
import shlex

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.core.management.base import BaseCommand
from django.db.models import Q

OWNER_APPS = ["catalog", "reservations", "payments", "outbox", "italy", "pages", "partner_sync"]  # italy: with view_guest_documents, the owner's alone
# What nobody does by hand, even the owner: edit the audit trail or the idempotency keys, add a
# reservation past the booking services, or delete one (reservations are cancelled, never deleted).
SYSTEM_RECORDS = Q(content_type__app_label="reservations", content_type__model__in=["reservationevent", "idempotencyrecord"]) & ~Q(
    codename__startswith="view_"
) | Q(content_type__app_label="reservations", codename__in=["add_reservation", "delete_reservation"])
OWNER_ACCOUNTS = Q(content_type__app_label="auth", content_type__model__in=["user", "group"], codename__regex=r"^(view|add|change)_")
STAFF = (
    Q(content_type__app_label="reservations", content_type__model="reservation", codename__in=["view_reservation", "change_reservation", "refund_reservation"])
    | Q(content_type__app_label="reservations", content_type__model="reservationevent", codename__startswith="view_")
    | Q(content_type__app_label="reservations", content_type__model="dateblock")
    | Q(content_type__app_label="catalog", content_type__model__in=["property", "nightrate"], codename__startswith="view_")
    | Q(content_type__app_label="outbox", content_type__model="outboundemail", codename__startswith="view_")
    | Q(content_type__app_label__in=["partner_sync", "pages"], codename__startswith="view_")
    | Q(content_type__app_label="italy", codename__in=["view_checkin", "view_guest", "view_policeregistration", "verify_guest_identity"])
)


def role_permissions():
    owner = Permission.objects.filter(Q(content_type__app_label__in=OWNER_APPS) | OWNER_ACCOUNTS).exclude(SYSTEM_RECORDS)
    staff = Permission.objects.filter(STAFF)
    return {"Owner": owner, "Staff": staff}


class Command(BaseCommand):
    help = "Create or update the Owner and Staff groups of the back office."

    def handle(self, *args, **options):
        for name, permissions in role_permissions().items():
            group, _ = Group.objects.get_or_create(name=name)
            group.permissions.set(permissions)
            self.stdout.write(f"{name}: {permissions.count()} permissions")
        if not get_user_model().objects.filter(is_superuser=True, is_active=True).exists():
            self.stdout.write(self.style.WARNING(first_owner_reminder()))


def first_owner_reminder() -> str:
    """How to create the first owner account in this database: the same DATA_DIR (spelled out, as
    the settings resolved it) and DATABASE_URL (not printed: it may hold a password)."""
    command = "make createsuperuser"
    if os.environ.get("DATA_DIR"):
        command = f"DATA_DIR={shlex.quote(str(settings.DATA_DIR))} {command}"
    same_database = "\n(with the same DATABASE_URL in the environment as now)" if os.environ.get("DATABASE_URL") else ""
    return (
        f"No owner account yet. Create the first one with:\n    {command}{same_database}\n"
        f"then sign in at /{settings.ADMIN_PATH} and add staff from Users → Add a staff member."
    )
