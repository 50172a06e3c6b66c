"""Check-in for every guest, whatever the channel (DESIGN.md, "Italy, second round"): a platform's
booking gets the guest's check-in link in the channel's language, staff can send it, print it, or
enter the party themselves under the guest's rules and 422 names; a calendar-only stay is asked for."""

from datetime import timedelta

import pytest
from django.utils import timezone

from booking.italy.channel_checkin import invite_channel_guests
from booking.italy.checkin import save_check_in
from booking.italy.models import CheckIn, Guest
from booking.outbox.models import OutboundEmail
from booking.reservations.models import DateBlock, Reservation
from booking.reservations.services.channel_bookings import ChannelStay, apply_channel_booking
from tests.dates import future
from tests.italy.conftest import LEAD, PARTNER, party

pytestmark = pytest.mark.django_db


def channel_stay(booking_id="bk-1", *, email="anna@example.de", language="de", guests=2, arrival=None) -> Reservation:
    arrival = arrival or future(10)
    stay = ChannelStay(
        booking_id=booking_id,
        source=Reservation.Source.BOOKING_COM,
        code="4412",
        cancelled=False,
        check_in=arrival,
        check_out=arrival + timedelta(days=3),
        revision_at=timezone.now(),
        adults=guests,
        first_name="Anna",
        last_name="Schmidt",
        email=email,
        language=language,
    )
    return apply_channel_booking(stay).reservation


def invitations() -> list[OutboundEmail]:
    return list(OutboundEmail.objects.filter(kind=OutboundEmail.Kind.CHECK_IN_INVITATION))


def test_a_channel_guest_with_an_email_is_sent_the_check_in_link_once_in_the_channels_language(demo_property):
    stay = channel_stay(language="de-DE")
    assert invite_channel_guests() == 1 and invite_channel_guests() == 0  # once, however often the job runs
    [email] = invitations()
    stay.refresh_from_db()
    assert email.to_address == "anna@example.de" and email.subject.startswith("Bitte checken Sie online ein")
    assert email.body.startswith("Hallo Anna,")
    assert f"/de/manage/{stay.manage_token}/check-in" in email.body and stay.manage_token
    assert "Booking.com" in email.body and "Polizei" in email.body


def test_a_language_the_site_does_not_speak_gets_english_and_no_email_means_no_invitation(demo_property):
    channel_stay("bk-es", language="es", email="pablo@example.es")
    channel_stay("bk-none", email="", arrival=future(20))  # other nights: this test is not about overbooking
    assert invite_channel_guests() == 1
    [email] = invitations()
    assert email.body.startswith("Hello Anna,") and "/manage/" in email.body and "/es/" not in email.body
    assert "register every guest with the police" in email.body


def test_a_guest_who_already_checked_in_is_not_invited(demo_property):
    stay = channel_stay(guests=1)
    save_check_in(stay, party(LEAD))
    assert invite_channel_guests() == 0


def test_the_guests_link_works_for_a_channel_stay(client, demo_property):
    stay = channel_stay(guests=2)
    invite_channel_guests()
    stay.refresh_from_db()
    answer = client.put(f"/manage/{stay.manage_token}/check-in", party(LEAD, PARTNER), content_type="application/json")
    assert answer.status_code == 200 and answer.json()["complete"] is True
    assert answer.json()["guests"][0]["identity_verified"] is None  # not seen yet


def test_staff_send_and_print_the_link_from_the_reservations_page(admin_client, demo_property):
    stay = channel_stay()
    page = admin_client.get(f"/admin/reservations/reservation/{stay.pk}/change/").content.decode()
    assert f"/admin/italy/arrival/{stay.pk}/party/" in page  # the reservation page links to the party form
    form = admin_client.get(f"/admin/italy/arrival/{stay.pk}/party/").content.decode()
    stay.refresh_from_db()
    assert f"/de/manage/{stay.manage_token}/check-in" in form and "window.print()" in form
    answer = admin_client.post(f"/admin/italy/arrival/{stay.pk}/send-link/", follow=True)
    assert "The check-in link was emailed to anna@example.de" in answer.content.decode()
    assert len(invitations()) == 1 and invite_channel_guests() == 0  # the job does not send it again


def staff_form(**changes) -> dict:
    form = {f"g0-{k}": v for k, v in LEAD.items() if k != "document"}
    form |= {f"g1-{k}": v for k, v in PARTNER.items()}
    form |= {"party": "family", "g0-document_type": "identity_card", "g0-document_number": "CA12345AB", "g0-document_issued_in": "Firenze"}
    return form | changes


def test_staff_fill_the_party_on_the_reservations_page_with_the_guests_rules(admin_client, client, demo_property):
    stay = channel_stay(email="")
    url = f"/admin/italy/arrival/{stay.pk}/party/"
    bad = admin_client.post(url, staff_form(**{"g1-citizenship": "Svizzera"}))
    html = bad.content.decode()
    assert bad.status_code == 422
    assert '<li data-field="guests.1.citizenship" data-type="unknown_country">' in html  # the guest's 422 names it the same
    assert not CheckIn.objects.filter(reservation=stay, completed_at__isnull=False).exists()
    stay.refresh_from_db()
    guest_answer = client.put(
        f"/manage/{stay.manage_token}/check-in", party(LEAD, dict(PARTNER, citizenship="Svizzera")), content_type="application/json"
    ).json()
    assert [(e["loc"][1:], e["type"]) for e in guest_answer["detail"]] == [(["guests", 1, "citizenship"], "unknown_country")]
    assert "CA12345AB" not in html  # the number is never echoed
    good = admin_client.post(url, staff_form())
    assert good.status_code == 302
    assert [g.last_name for g in Guest.objects.filter(check_in__reservation=stay)] == ["Neri", "Müller"]


def test_the_arrivals_screen_asks_staff_for_a_calendar_only_stays_party(admin_client, demo_property):
    today = timezone.localdate()
    block = DateBlock.objects.create(
        property=demo_property, start=today, end=today + timedelta(days=2), source=DateBlock.Source.PARTNER, reason="Airbnb (Not available)"
    )
    screen = admin_client.get("/admin/italy/arrival/").content.decode()
    assert f'data-calendar-block="{block.pk}"' in screen and "The calendar feed gives no guest: ask the guests for the party." in screen
    answer = admin_client.post(f"/admin/italy/arrival/calendar/{block.pk}/", {"guests": "2", "last_name": "Rossi"})
    stay = Reservation.objects.get(channel_booking_id=f"ical-{block.pk}")
    assert answer.status_code == 302 and answer["Location"] == f"/admin/italy/arrival/{stay.pk}/party/"
    assert (stay.guests, stay.check_in, stay.status, stay.overbooked) == (2, today, "confirmed", False)
    again = admin_client.get("/admin/italy/arrival/").content.decode()
    assert f'data-calendar-block="{block.pk}"' not in again and f'data-stay="{stay.pk}"' in again
    refused = admin_client.post(f"/admin/italy/arrival/calendar/{block.pk}/", {"guests": "0"}, follow=True)
    assert "Give the number of guests, from 1 to 50." in refused.content.decode()
