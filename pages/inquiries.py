"""Contact inquiries: limit, store, then email the owner through the outbox.

The message and the email owed to the owner are written in one transaction; a Celery task sends
the email after commit and retries while the mail server is down (booking/outbox/notifications.py). The
guest's request never waits for or fails on SMTP; the admin shows the message as not emailed
until it goes out.
"""

import logging
import time

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.dispatch import receiver
from django.template.loader import render_to_string

from booking.catalog.models import Property
from booking.outbox.models import OutboundEmail
from booking.outbox.notifications import email_sent, queue_notice
from booking.reservations.services.limits import parse_rate
from pages.models import ContactInquiry

logger = logging.getLogger(__name__)

DEFAULT_CONTACT_RATE_LIMIT = "5/h"


class TooManyInquiries(Exception):
    def __init__(self, retry_after: int):
        super().__init__("Too many messages from this address.")
        self.retry_after = retry_after


def header_safe(text: str, limit: int = 150) -> str:
    """Text for an email header: CR, LF and other control characters become spaces, so a name
    like "x\\r\\nBcc: victim@example.com" cannot add a header."""
    cleaned = "".join(" " if ord(c) < 32 or ord(c) == 127 else c for c in text)
    return " ".join(cleaned.split())[:limit]


def count_inquiry(client_ip: str | None) -> None:
    """Count one message from this address; raise TooManyInquiries past CONTACT_RATE_LIMIT.

    Shared cache, so every web process counts together. A cache outage lets messages through
    (logged): losing a guest's question is worse than a little spam.
    """
    limit = parse_rate(getattr(settings, "CONTACT_RATE_LIMIT", DEFAULT_CONTACT_RATE_LIMIT))
    if limit is None or not client_ip:
        return
    now = int(time.time())
    window = now - now % limit.seconds
    key = f"contact-rate:{client_ip}:{window}"
    try:
        cache.add(key, 0, timeout=limit.seconds + 5)
        count = cache.incr(key)
    except Exception:
        logger.warning("contact rate limit skipped: cache unavailable", exc_info=True)
        return
    if count > limit.count:
        raise TooManyInquiries(retry_after=window + limit.seconds - now)


def owner_address(prop: Property | None) -> str:
    return (prop.contact_email if prop else "") or settings.OWNER_EMAIL


@transaction.atomic
def submit_inquiry(*, cleaned: dict, client_ip: str | None, prop: Property | None) -> ContactInquiry:
    """Store the message and owe the owner an email of it, with Reply-To set to the guest."""
    inquiry = ContactInquiry.objects.create(
        name=cleaned["name"].strip(),
        email=cleaned["email"],
        phone=cleaned.get("phone") or "",
        check_in=cleaned.get("check_in"),
        check_out=cleaned.get("check_out"),
        guests=cleaned.get("guests"),
        message=cleaned["message"].strip(),
        client_ip=client_ip,
    )
    site_name = prop.name if prop else "the website"
    inquiry.outbound_email = queue_notice(
        kind=OutboundEmail.Kind.INQUIRY,
        subject=header_safe(f"Website inquiry from {inquiry.name}"),
        body=render_to_string("pages/inquiry_email.txt", {"inquiry": inquiry, "site_name": site_name, "admin_url": admin_url(inquiry)}),
        to=header_safe(owner_address(prop), 254),
        reply_to=header_safe(inquiry.email, 254),
    )
    if inquiry.outbound_email is None:
        logger.warning("contact inquiry %s stored but not emailed: no contact_email or OWNER_EMAIL", inquiry.pk)
        return inquiry
    inquiry.save(update_fields=["outbound_email"])
    return inquiry


@receiver(email_sent, dispatch_uid="pages.inquiry_emailed")
def mark_inquiry_emailed(sender, row: OutboundEmail, **kwargs) -> None:
    if row.kind == OutboundEmail.Kind.INQUIRY:
        ContactInquiry.objects.filter(outbound_email=row).update(emailed=True)


def admin_url(inquiry: ContactInquiry) -> str:
    return f"{settings.BASE_URL}/{settings.ADMIN_PATH}pages/contactinquiry/{inquiry.pk}/change/"
