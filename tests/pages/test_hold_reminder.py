"""One reminder of an unfinished booking (issue 34 item 2): on /book the guest may tick "If I don't
finish, email me once a link to come back to these dates" (unticked by default) and give an address;
an unpaid hold gets exactly one email REMIND_AFTER it was made, with a signed link back: to the
own-hold view while the hold lives, to /book with the stay filled in once it lapsed."""

import re
import threading
from datetime import timedelta

import pytest
from django.conf import settings
from django.core import mail
from django.db import connection
from django.test import Client
from django.utils import timezone

from booking.api import own_holds
from booking.outbox.models import OutboundEmail
from booking.outbox.notifications import deliver_due_emails
from booking.reservations.models import Reservation
from booking.reservations.services import hold_reminders
from booking.reservations.services.hold_reminders import queue_hold_reminders
from booking.reservations.services.reservations import Payer, confirm_reservation
from booking.tasks import send_hold_reminders
from config.celery import app
from tests.conftest import future, is_postgresql
from tests.pages.test_catalogue import english_in
from tests.pages.test_own_hold import SAME_ORIGIN, book_page, hold_from_the_page, own_notice

pytestmark = pytest.mark.django_db

REMINDERS = OutboundEmail.objects.filter(kind=OutboundEmail.Kind.HOLD_REMINDER)


def opt_in(client, reservation: Reservation, email: str = "anna@example.com"):
    return client.post("/book/remind", {"reservation_id": reservation.pk, "email": email}, content_type="application/json")


def run_job(minutes: float) -> int:
    """The beat job, as if run `minutes` after now (the hold was made just before)."""
    return queue_hold_reminders(now=timezone.now() + timedelta(minutes=minutes))


def sent_reminders() -> list[mail.EmailMessage]:
    deliver_due_emails(now=timezone.now() + timedelta(hours=2))
    return [m for m in mail.outbox if m.subject.startswith(("Your unfinished booking", "[TEST] Your unfinished booking"))]


def link_in(body: str) -> str:
    found = re.search(r"https?://\S+/book/resume/\S+", body)
    assert found, body
    return found.group(0)


def path_of(url: str) -> str:
    return re.sub(r"^https?://[^/]+", "", url)


def test_the_booking_form_offers_the_reminder_unticked(client, site):
    html = book_page(client)
    checkbox = re.search(r"<input [^>]*data-remind[ >][^>]*>", html)
    assert checkbox and "checked" not in checkbox.group(0)
    assert "If I don&#x27;t finish, email me once a link to come back to these dates." in html or "If I don't finish" in html
    assert 'type="email" id="remind-email"' in html and "no newsletter, no offers" in html
    assert "data-remind" not in book_page(client, "/availability"), "only the booking form asks"


def test_without_the_tick_no_email(client, site):
    hold_from_the_page(client)
    assert run_job(16) == 0
    assert not REMINDERS.exists() and sent_reminders() == []


def test_with_the_tick_exactly_one_email_after_the_moment(client, site):
    reservation = hold_from_the_page(client)
    assert opt_in(client, reservation).status_code == 204
    reservation.refresh_from_db()
    assert reservation.reminder_email == "anna@example.com" and reservation.reminder_sent_at is None
    assert run_job(10) == 0, "too early: the guest may still be paying"
    assert run_job(16) == 1
    assert run_job(17) == 0 and run_job(40) == 0, "once, however often the job runs"
    [email] = sent_reminders()
    assert email.to == ["anna@example.com"]
    held_until = f"{timezone.localtime(reservation.hold_expires_at):%H:%M}"
    assert f"still held for you until {held_until}" in email.body
    assert "you asked for it on our booking page" in email.body
    reservation.refresh_from_db()
    assert reservation.reminder_email == "" and reservation.reminder_sent_at is not None, "the address is kept only for the reminder"


def test_only_the_browser_that_made_the_hold_can_ask_and_only_with_an_address(client, site):
    reservation = hold_from_the_page(client)
    assert opt_in(Client(), reservation).status_code == 404
    assert opt_in(client, reservation, "not an address").status_code == 422
    assert client.post("/book/remind", "{", content_type="application/json").status_code == 422
    reservation.refresh_from_db()
    assert reservation.reminder_email == ""


def test_an_agents_hold_cannot_ask(client, site):
    answer = client.post(
        "/api/v1/payments/checkout-link", {"check_in": str(future(40)), "check_out": str(future(43)), "guests": 2}, content_type="application/json"
    )
    reservation = Reservation.objects.get(pk=answer.json()["reservation_id"])
    assert not hold_reminders.ask_for_reminder(reservation.pk, "agent@example.com"), "only holds made on the website"


def test_a_paid_or_released_hold_gets_none(client, site):
    paid, released = hold_from_the_page(client, offset=40), hold_from_the_page(client, offset=60)
    for hold in (paid, released):
        assert opt_in(client, hold).status_code == 204
    confirm_reservation(paid.pk, actor="test", payer=Payer(email="anna@example.com"), amount_paid=paid.total)
    assert client.delete(f"/api/v1/reservations/{released.pk}").status_code == 200
    assert run_job(16) == 0 and not REMINDERS.exists()
    assert set(Reservation.objects.values_list("reminder_email", flat=True)) == {""}, "addresses never to be used are forgotten"


def test_paid_after_the_reminder_was_queued_it_is_not_sent(client, site):
    reservation = hold_from_the_page(client)
    opt_in(client, reservation)
    assert run_job(16) == 1
    confirm_reservation(reservation.pk, actor="test", payer=Payer(email="anna@example.com"), amount_paid=reservation.total)
    assert sent_reminders() == []
    assert REMINDERS.get().status == OutboundEmail.Status.GAVE_UP


def test_a_guest_who_booked_again_under_the_same_address_is_not_reminded(client, site):
    first = hold_from_the_page(client, offset=40)
    opt_in(client, first)
    second = hold_from_the_page(client, offset=60)
    confirm_reservation(second.pk, actor="test", payer=Payer(email="Anna@example.com"), amount_paid=second.total)
    assert run_job(16) == 0 and not REMINDERS.exists()


def test_the_link_of_a_live_hold_gives_any_device_the_own_hold_view(client, site):
    reservation = hold_from_the_page(client)
    opt_in(client, reservation)
    run_job(16)
    [email] = sent_reminders()
    phone = Client()
    response = phone.get(path_of(link_in(email.body)))
    assert response.status_code == 302 and response["Location"] == "/book"
    assert "no-store" in response["Cache-Control"] and response["Referrer-Policy"] == "no-referrer"
    notice = own_notice(book_page(phone))
    assert "are held for you until" in notice and f'href="/pay/{reservation.pk}"' in notice


def test_the_link_of_a_lapsed_hold_opens_book_with_the_stay_and_says_whether_it_is_free(client, site):
    reservation = hold_from_the_page(client)
    Reservation.objects.filter(pk=reservation.pk).update(children_ages=[5])
    opt_in(client, reservation)
    Reservation.objects.filter(pk=reservation.pk).update(hold_expires_at=timezone.now() + timedelta(minutes=1))
    assert run_job(20) == 1, "lapsed unpaid within the hour: still reminded"
    [email] = sent_reminders()
    assert "Your hold on these dates has ended" in email.body
    Reservation.objects.filter(pk=reservation.pk).update(status=Reservation.Status.EXPIRED, hold_expires_at=timezone.now() - timedelta(seconds=1))
    response = Client().get(path_of(link_in(email.body)))
    location = response["Location"]
    assert response.status_code == 302 and location.startswith("/book?")
    assert f"check_in={reservation.check_in}" in location and f"check_out={reservation.check_out}" in location
    assert "guests=2" in location and "children_ages=5" in location and "resumed=1" in location
    html = book_page(Client(), location)
    assert "data-resumed" in html and "they are still free" in html
    # Taken meanwhile by someone else: the page says so instead.
    other = hold_from_the_page(Client())
    confirm_reservation(other.pk, actor="test", payer=Payer(email="bob@example.com"), amount_paid=other.total)
    html = book_page(Client(), location)
    assert "data-resumed" not in html and "are already booked" in html


def test_the_link_of_a_lapsed_hold_brings_back_its_promo_code_and_extras(client, site):
    body = {
        "check_in": str(future(40)),
        "check_out": str(future(43)),
        "guests": 2,
        "promo_code": "WELCOME10",
        "extras": [{"code": "airport_transfer", "quantity": 2}, {"code": "baby_cot", "quantity": 1}],
    }
    answer = client.post("/api/v1/payments/checkout-link", body, content_type="application/json", headers=SAME_ORIGIN)
    assert answer.status_code == 200, answer.content
    reservation = Reservation.objects.get(pk=answer.json()["reservation_id"])
    Reservation.objects.filter(pk=reservation.pk).update(status=Reservation.Status.EXPIRED, hold_expires_at=timezone.now() - timedelta(seconds=1))
    location = Client().get(f"/book/resume/{hold_reminders.resume_token(reservation)}")["Location"]
    assert "promo_code=WELCOME10" in location and "extras=airport_transfer%3A2%2Cbaby_cot%3A1" in location
    html = book_page(Client(), location)
    assert '"promo_code": "WELCOME10"' in html and '"extras": "airport_transfer:2,baby_cot:1"' in html  # the page's script chooses them


def test_a_forged_link_opens_book(client, site):
    reservation = hold_from_the_page(client)
    for token in ("nonsense", reservation.pk, hold_reminders.resume_token(reservation)[:-2] + "xx"):
        response = Client().get(f"/book/resume/{token}")
        assert response.status_code == 302 and response["Location"] == "/book"
        assert own_holds.COOKIE not in response.cookies


@pytest.mark.parametrize("language", ["it", "de", "fr"])
def test_the_email_is_in_the_guests_language(client, site, language):
    body = {"check_in": str(future(40)), "check_out": str(future(43)), "guests": 2, "success_url": f"{settings.BASE_URL}/{language}/thank-you"}
    answer = client.post("/api/v1/payments/checkout-link", body, content_type="application/json", headers=SAME_ORIGIN)
    reservation = Reservation.objects.get(pk=answer.json()["reservation_id"])
    assert reservation.language == language
    opt_in(client, reservation)
    for minutes, state in ((16, "held"), (None, "lapsed")):
        if minutes is None:
            Reservation.objects.filter(pk=reservation.pk).update(reminder_sent_at=None, reminder_email="anna@example.com", status=Reservation.Status.EXPIRED)
            REMINDERS.delete()
            minutes = 35
        assert run_job(minutes) == 1
        row = REMINDERS.get()
        assert f"/{language}/book/resume/" in row.body
        text = f"{row.subject}\n{row.body}"
        assert not english_in(text, language), (state, sorted(english_in(text, language)))


@pytest.mark.timeout(60)
def test_two_workers_racing_queue_one_email(transactional_db, client, site):
    if not is_postgresql():
        pytest.skip("two workers at once need PostgreSQL's row locks (SQLite serialises every writer anyway)")
    reservation = hold_from_the_page(client)
    opt_in(client, reservation)
    barrier, outcomes = threading.Barrier(2), []
    at = timezone.now() + timedelta(minutes=16)

    def worker():
        try:
            barrier.wait(timeout=10)
            outcomes.append(queue_hold_reminders(now=at))
        finally:
            connection.close()

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(outcomes) == [0, 1]
    assert REMINDERS.count() == 1


def test_the_beat_job_sends_them_every_minute(client, site):
    [entry] = [entry for entry in app.conf.beat_schedule.values() if entry["task"] == "booking.tasks.send_hold_reminders"]
    assert entry["schedule"] == timedelta(seconds=60)
    reservation = hold_from_the_page(client)
    opt_in(client, reservation)
    Reservation.objects.filter(pk=reservation.pk).update(created_at=timezone.now() - timedelta(minutes=16))
    assert send_hold_reminders() == 1 and send_hold_reminders() == 0
