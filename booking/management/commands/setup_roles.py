"""`manage.py setup_roles` (run by `make run`): the two back-office roles, kept up to date.

- Owner: edits the property, rates, content, blog and partner feeds; reads reservations.
- Staff: reviews, cancels and refunds reservations, blocks and unblocks dates, reads feeds and
  inquiries; cannot change rates or content.
Give a user a role in the admin (Users → Groups). Idempotent: permissions are reset to these sets.
"""

from django.contrib.auth.models import Group, Permission
from django.core.management.base import BaseCommand
from django.db.models import Q

OWNER_APPS = ["booking", "pages", "partner_sync"]
OWNER_EXCLUDED = Q(content_type__app_label="booking", content_type__model__in=["reservation", "reservationevent", "idempotencyrecord"]) & ~Q(codename__startswith="view_")
STAFF = (
    Q(content_type__app_label="booking", content_type__model="reservation", codename__in=["view_reservation", "change_reservation"])
    | Q(content_type__app_label="booking", content_type__model="reservationevent", codename__startswith="view_")
    | Q(content_type__app_label="booking", content_type__model="dateblock")
    | Q(content_type__app_label="booking", content_type__model="property", codename__startswith="view_")
    | Q(content_type__app_label__in=["partner_sync", "pages"], codename__startswith="view_")
)


def role_permissions():
    owner = Permission.objects.filter(content_type__app_label__in=OWNER_APPS).exclude(OWNER_EXCLUDED)
    staff = Permission.objects.filter(STAFF)
    return {"Owner": owner, "Staff": staff}


class Command(BaseCommand):
    help = "Create or update the Owner and Staff groups of the back office."

    def handle(self, *args, **options):
        for name, permissions in role_permissions().items():
            group, _ = Group.objects.get_or_create(name=name)
            group.permissions.set(permissions)
            self.stdout.write(f"{name}: {permissions.count()} permissions")
