"""Adding a person to the back office: an account with one role (the Owner or Staff group of
`manage.py setup_roles`) and no password, and an email with a link to choose one.

The link is Django's own password reset: a token from `default_token_generator` for the new
account, opened by `django.contrib.auth.views.PasswordResetConfirmView` (config/urls.py). The token
depends on the account's password, so it stops working once the password is set, and after
PASSWORD_RESET_TIMEOUT (three days) in any case. The email goes through the outbox (retries, never
lost), written now in the reader's language.
"""

from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractUser, Group
from django.contrib.auth.tokens import default_token_generator
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import gettext as _

from booking.catalog.models import Property
from booking.outbox.models import OutboundEmail
from booking.outbox.notifications import queue_notice

ROLES = ("Owner", "Staff")  # the groups of manage.py setup_roles


class StaffMemberNotAdded(Exception):
    """The account was not created (nothing was written, nothing sent)."""

    EMAIL_TAKEN = "email_taken"
    NO_ROLE = "no_role"

    def __init__(self, detail: str, reason: str) -> None:
        super().__init__(detail)
        self.detail = detail
        self.reason = reason


@dataclass(frozen=True)
class StaffMember:
    name: str
    email: str
    role: str  # "Owner" or "Staff"
    language: str  # of the invitation email


def username_for(email: str) -> str:
    """The sign-in name is the email address, lower-cased (one account per address)."""
    return email.strip().lower()


def email_taken(email: str) -> bool:
    users = get_user_model().objects
    return users.filter(email__iexact=email.strip()).exists() or users.filter(username__iexact=username_for(email)).exists()


def add_staff_member(*, member: StaffMember, invited_by: str) -> Any:
    """Create the account (staff, in the role's group, an unusable password) and owe them the
    email with the link to set their password, in one transaction: a refused account sends
    nothing, and a committed one is never left without its email."""
    if member.role not in ROLES:
        raise StaffMemberNotAdded(f"Unknown role {member.role!r}.", StaffMemberNotAdded.NO_ROLE)
    group = Group.objects.filter(name=member.role).first()
    if group is None:
        raise StaffMemberNotAdded(f"The {member.role} group does not exist yet: run manage.py setup_roles.", StaffMemberNotAdded.NO_ROLE)
    first_name, _space, last_name = " ".join(member.name.split()).partition(" ")
    with transaction.atomic():
        if email_taken(member.email):
            raise StaffMemberNotAdded("An account with this email exists already.", StaffMemberNotAdded.EMAIL_TAKEN)
        try:
            with transaction.atomic():
                user: AbstractUser = get_user_model().objects.create_user(
                    username=username_for(member.email),
                    email=member.email.strip(),
                    password=None,  # unusable until they choose one through the emailed link
                    first_name=first_name[:150],
                    last_name=last_name[:150],
                    is_staff=True,
                )
        except IntegrityError as error:  # the same address added at the same moment
            raise StaffMemberNotAdded("An account with this email exists already.", StaffMemberNotAdded.EMAIL_TAKEN) from error
        user.groups.add(group)
        queue_invitation(user=user, role=member.role, language=member.language, invited_by=invited_by)
    return user


def set_password_url(user: Any) -> str:
    """The absolute link that lets this account choose a password (Django's reset token)."""
    path = reverse(
        "staff_set_password",
        kwargs={"uidb64": urlsafe_base64_encode(force_bytes(user.pk)), "token": default_token_generator.make_token(user)},
    )
    return f"{settings.BASE_URL}{path}"


def queue_invitation(*, user: Any, role: str, language: str, invited_by: str) -> OutboundEmail | None:
    """Owe the new account its invitation, written now in `language`."""
    site_name = Property.objects.values_list("name", flat=True).first() or settings.BASE_URL
    with translation.override(language):
        context = {
            "name": user.get_full_name() or user.email,
            "invited_by": invited_by,
            "role": _(role),
            "site_name": site_name,
            "username": user.get_username(),
            "set_password_url": set_password_url(user),
            "login_url": settings.BASE_URL + reverse("admin:login"),
            "days": max(1, settings.PASSWORD_RESET_TIMEOUT // 86400),
        }
        subject = _("Your account on the back office of %(site)s") % {"site": site_name}
        body = render_to_string("emails/staff_invitation.txt", context)
    return queue_notice(kind=OutboundEmail.Kind.STAFF_INVITATION, subject=subject, body=body, to=user.email)
