"""When the guest moves their stay from the manage page, the owner gets one notice (docs/date-changes.md,
"What the owner receives"): old and new dates, old and new total, what is owed or refunded, in the
owner's language. A change made by staff sends the owner nothing."""

import dataclasses
from decimal import Decimal

import pytest
from django.contrib.admin.utils import quote
from django.core import mail
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import translation

from booking.formatting import format_date, with_elision
from booking.outbox.models import OutboundEmail
from booking.outbox.notifications import deliver_due_emails
from booking.payments.services.date_changes import queue_owner_notice, quote_change
from booking.reservations.models import Reservation
from tests.dates import future
from tests.pages.test_manage import book_and_pay, own_cache, sandbox  # noqa: F401

pytestmark = pytest.mark.django_db


@pytest.fixture
def stay(client, site, sandbox):  # noqa: F811
    return book_and_pay(client, 60)  # a deposit paid; the balance is due 30 days before arrival


def guest_changes(client, reservation: Reservation, check_in, check_out, capture) -> Reservation:
    """Preview then confirm on the guest's manage page, as the guest does, delivering the outbox."""
    base = f"/manage/{reservation.manage_token}/change-dates"
    preview = client.get(base, {"check_in": check_in, "check_out": check_out}).content.decode()
    total = preview.split('name="total" value="')[1].split('"')[0]
    deliver_due_emails()  # the booking's own emails first: the outbox then holds only the change's
    mail.outbox.clear()
    with capture(execute=True):
        done = client.post(base, {"check_in": check_in, "check_out": check_out, "total": total, "confirm": "yes"})
    assert done.status_code == 303
    reservation.refresh_from_db()
    return reservation


def owner_notices(reservation: Reservation) -> list:
    return list(OutboundEmail.objects.filter(reservation=reservation, kind=OutboundEmail.Kind.DATES_CHANGED, recipient=OutboundEmail.Recipient.OWNER))


def test_the_owner_gets_one_notice_with_both_dates_both_totals_and_what_is_owed(client, site, stay, django_capture_on_commit_callbacks):
    old_total = stay.total
    moved = guest_changes(client, stay, future(60), future(65), django_capture_on_commit_callbacks)  # two nights more: dearer
    [row] = owner_notices(moved)
    [owner] = [m for m in mail.outbox if m.to == [site.contact_email]]
    guest = [m for m in mail.outbox if m.to == [moved.guest_email]]
    assert len(guest) == 1 and guest[0].attachments, "the guest's email, with its .ics, as before"
    assert (
        owner.subject
        == f"[TEST] Dates changed by the guest: {moved.guest_name}, now {format_date(future(60))} to {format_date(future(65))} · {moved.booking_number}"
    )
    assert owner.reply_to == [moved.guest_email] and not owner.attachments
    assert f"{moved.guest_name} changed the dates of their stay at {site.name} from their booking page." in owner.body
    assert f"New dates: {format_date(future(60), 'D j M Y')} to {format_date(future(65), 'D j M Y')}, total {moved.total:.2f} EUR." in owner.body
    assert f"Before: {format_date(future(60), 'D j M Y')} to {format_date(future(63), 'D j M Y')}, total {old_total:.2f} EUR." in owner.body
    owed = moved.total - moved.amount_paid
    assert owed > 0 and f"The guest now owes {owed:.2f} EUR: it is charged to their saved card on " in owner.body
    assert reverse("admin:reservations_reservation_change", args=[quote(moved.pk)]) in owner.body
    assert row.status == OutboundEmail.Status.SENT


def test_in_the_owners_language(client, site, stay, django_capture_on_commit_callbacks):
    with override_settings(LANGUAGE_CODE="it"):
        moved = guest_changes(client, stay, future(61), future(64), django_capture_on_commit_callbacks)
    [owner] = [m for m in mail.outbox if m.to == [site.contact_email]]
    with translation.override("it"):
        # Articles elided before the 8th and the 11th ("dall’8"), whatever day the test runs on.
        assert owner.subject.startswith(with_elision(f"[TEST] Date cambiate dall’ospite: {moved.guest_name}, ora dal {format_date(future(61))} al "))
        assert with_elision(f"Nuove date: dal {format_date(future(61), 'D j M Y')} al {format_date(future(64), 'D j M Y')}, totale ") in owner.body
        assert "Prima: dal" in owner.body and "viene addebitato" not in owner.body and "sulla sua carta salvata" in owner.body
        assert "soggiorno presso " in owner.body, "“presso” before the property's name, never “a Attico”"
    [guest] = [m for m in mail.outbox if m.to == [moved.guest_email]]
    assert guest.subject.endswith("have changed · " + moved.booking_number), "the guest's email stays in the language they booked in"


def test_a_refund_is_said_too(site, stay):
    change = dataclasses.replace(quote_change(stay.pk, future(60), future(62), by_guest=True), owed=Decimal("0.00"), refund=Decimal("120.00"))
    with override_settings(LANGUAGE_CODE="en"):
        row = queue_owner_notice(stay, change)
    assert "120.00 EUR goes back to the guest's card automatically" in row.body and "owes" not in row.body
    nothing = queue_owner_notice(stay, dataclasses.replace(change, refund=Decimal("0.00")))
    assert "Nothing more to pay and nothing to refund." in nothing.body


def test_a_change_made_by_staff_sends_the_owner_nothing(site, stay, django_user_model, django_capture_on_commit_callbacks):
    staff = django_user_model.objects.create_superuser("giulia", "giulia@example.com", "a-long-test-password")
    admin = Client()
    admin.force_login(staff)
    url = reverse("admin:reservations_reservation_change_dates", args=[quote(stay.pk)])
    preview = admin.post(url, {"check_in": future(60), "check_out": future(65), "preview": "1"}).content.decode()
    total = preview.split('name="total" value="')[1].split('"')[0]
    deliver_due_emails()
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert admin.post(url, {"check_in": future(60), "check_out": future(65), "total": total, "apply": "1"}).status_code == 302
    stay.refresh_from_db()
    assert stay.check_out == future(65)
    assert owner_notices(stay) == [] and [m.to for m in mail.outbox] == [[stay.guest_email]]
