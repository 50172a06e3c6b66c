"""What staff write about a booking they take on the phone stays among staff (`staff_note`); only
the guest's own requests (`special_requests`) reach the guest."""

import pytest
from django.contrib.admin.utils import quote
from django.core import mail
from django.urls import reverse

from booking.reservations.models import Reservation
from tests.owner_bookings.test_book_for_a_guest import BOOK, book, staff_client  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db

NOTE = "Called on the phone; arriving late, owes us for the last stay"
REQUEST = "A cot for the baby, please"


def test_the_internal_note_is_kept_and_never_emailed_to_the_guest(staff_client, demo_property, django_capture_on_commit_callbacks, api):  # noqa: F811
    book(staff_client, django_capture_on_commit_callbacks, special_requests=REQUEST, staff_note=NOTE)
    reservation = Reservation.objects.get()
    assert (reservation.staff_note, reservation.special_requests) == (NOTE, REQUEST)
    guest_mail = [m for m in mail.outbox if "anna.rossi@example.com" in m.to]
    assert guest_mail, "the payment link went to the guest"
    for message in guest_mail:
        text = message.body + "".join(str(alternative[0]) for alternative in getattr(message, "alternatives", []))
        assert NOTE not in text and "owes us" not in text
    assert any(REQUEST in message.body for message in guest_mail)
    # Staff read it on the reservation's page; the guest's API answer does not carry it.
    page = staff_client.get(reverse("admin:reservations_reservation_change", args=[quote(reservation.pk)]))
    assert NOTE in page.content.decode()
    assert "staff_note" not in api.get(f"/api/v1/reservations/{reservation.pk}").json()


def test_the_form_says_which_field_the_guest_sees(staff_client, demo_property):  # noqa: F811
    page = staff_client.get(BOOK).content.decode()
    assert "the guest sees it in their emails" in page
    assert "never shown or sent to the guest" in page


def test_staff_can_edit_the_internal_note_on_the_reservation_page(staff_client, demo_property, django_capture_on_commit_callbacks):  # noqa: F811
    book(staff_client, django_capture_on_commit_callbacks)
    reservation = Reservation.objects.get()
    url = reverse("admin:reservations_reservation_change", args=[quote(reservation.pk)])
    form = staff_client.get(url).context["adminform"].form
    data = {name: ("" if value is None else value) for name, value in form.initial.items() if name in form.fields}
    data.update({"staff_note": "Paid the city tax in cash"})
    for prefix_formset in staff_client.get(url).context["inline_admin_formsets"]:
        management = prefix_formset.formset.management_form
        data.update({f"{management.prefix}-{key}": value for key, value in management.initial.items()})
    staff_client.post(url, data)
    reservation.refresh_from_db()
    assert reservation.staff_note == "Paid the city tax in cash"
