"""The payment link on the reservation's page (docs/owner-bookings.md, "On the reservation's page"):
while a hold booked in the back office lives, staff see the link the guest was emailed, when it
stops working, and can send the same email again: POST with the CSRF token, the change permission,
at most once a minute, refused once the hold has ended or the stay is paid."""

import threading
from collections import Counter
from datetime import timedelta

import pytest
import time_machine
from django.conf import settings
from django.contrib.admin.utils import quote
from django.contrib.auth.models import Permission
from django.core import mail
from django.db import connections
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from booking.admin_display import local_time
from booking.callers import Caller
from booking.outbox.models import OutboundEmail
from booking.payments.services.owner_bookings import Party, PaymentLinkNotResent, book_for_guest, payment_link, resend_payment_link
from booking.reservations import event_messages
from booking.reservations.models import Reservation
from booking.reservations.services.holds import GuestDetails, hold_stay
from tests.conftest import is_postgresql
from tests.dates import future
from tests.owner_bookings.test_book_for_a_guest import book, pay_through_the_link

pytestmark = pytest.mark.django_db


def user_with(django_user_model, name: str, *codenames: str):
    user = django_user_model.objects.create_user(name, f"{name}@example.com", "a-long-test-password", is_staff=True)
    user.user_permissions.add(*Permission.objects.filter(codename__in=codenames))
    return user


@pytest.fixture
def staff_client(client, django_user_model):
    client.force_login(user_with(django_user_model, "giulia", "view_reservation", "change_reservation"))
    return client


@pytest.fixture
def held(staff_client, demo_property, sandbox, django_capture_on_commit_callbacks) -> Reservation:
    """A stay booked for a guest on the phone, held 3 hours, its link emailed (mail.outbox[0])."""
    book(staff_client, django_capture_on_commit_callbacks, hold_hours="3")
    return Reservation.objects.get()


def page(reservation: Reservation) -> str:
    return reverse("admin:reservations_reservation_change", args=[quote(reservation.pk)])


def resend_url(reservation: Reservation) -> str:
    return reverse("admin:reservations_reservation_resend_payment_link", args=[quote(reservation.pk)])


def resend(client, reservation, django_capture_on_commit_callbacks, *, minutes_later: int = 2):
    """Press "Send the link again" `minutes_later` minutes after the booking; the page it lands on."""
    with time_machine.travel(timezone.now() + timedelta(minutes=minutes_later)), django_capture_on_commit_callbacks(execute=True):
        return client.post(resend_url(reservation), follow=True)


def links_sent(reservation: Reservation) -> int:
    return OutboundEmail.objects.filter(reservation=reservation, kind=OutboundEmail.Kind.PAYMENT_LINK).count()


class TestThePageShowsTheLink:
    def test_the_link_its_expiry_in_local_time_and_the_button(self, staff_client, held):
        html = staff_client.get(page(held)).content.decode()
        url = payment_link(held)  # /pay/<id> with the token that fills in the guest's details
        assert url.startswith(f"{settings.BASE_URL}/pay/{held.pk}?guest=")
        assert f'class="payment-link-url">{url}</a>' in html and url in mail.outbox[0].body
        assert f"It works until {local_time(held.hold_expires_at)}, when the hold ends." in html
        assert timezone.localtime(held.hold_expires_at).tzname() in local_time(held.hold_expires_at)  # "CET"
        form = html.split('class="payment-link-panel')[1].split("</form>")[0]
        assert f'method="post" action="{resend_url(held)}"' in form and "csrfmiddlewaretoken" in form
        assert "Send the link again" in form

    def test_nothing_is_shown_once_the_hold_has_ended(self, staff_client, held):
        with time_machine.travel(held.hold_expires_at + timedelta(seconds=1)):
            html = staff_client.get(page(held)).content.decode()
        assert "payment-link-panel" not in html and "Send the link again" not in html

    def test_nothing_is_shown_once_the_stay_is_paid(self, client, staff_client, held, django_capture_on_commit_callbacks):
        assert pay_through_the_link(client, held, django_capture_on_commit_callbacks).status == "confirmed"
        assert "payment-link-panel" not in staff_client.get(page(held)).content.decode()

    def test_a_hold_made_on_the_website_has_no_emailed_link(self, staff_client, demo_property):
        web = hold_stay(
            check_in=future(120),
            check_out=future(123),
            guests=2,
            guest=GuestDetails(email="web@example.com"),
            caller=Caller(Reservation.Source.WEB),
        )
        assert "payment-link-panel" not in staff_client.get(page(web)).content.decode()

    def test_the_panel_follows_the_back_office_language(self, staff_client, held):
        html = staff_client.get(page(held), headers={"accept-language": "it"}).content.decode()
        assert "Invia di nuovo il link" in html and "Link di pagamento" in html


class TestSendingTheLinkAgain:
    def test_the_same_email_goes_again_and_the_history_says_who_sent_it(self, staff_client, held, django_capture_on_commit_callbacks):
        landed = resend(staff_client, held, django_capture_on_commit_callbacks)
        assert landed.redirect_chain[-1][0] == page(held)
        assert f"The payment link was emailed again to anna.rossi@example.com. It works until {local_time(held.hold_expires_at)}." in landed.content.decode()
        first, again = mail.outbox
        assert again.to == first.to == ["anna.rossi@example.com"] and again.subject == first.subject
        assert f"/pay/{held.pk}" in again.body and again.body == first.body
        assert links_sent(held) == 2
        event = held.events.get(action="resend_payment_link")
        assert event.actor == "staff giulia" and event.message == "payment_link_resent"
        with translation.override("it"):  # the history line, in the reader's language
            assert event_messages.action_label(event.action) == "link di pagamento inviato di nuovo"
            assert event_messages.describe(event.message, event.params, event.note).startswith(
                "link di pagamento inviato di nuovo per email; funziona fino al "
            )

    def test_a_double_click_sends_one_email(self, staff_client, held, django_capture_on_commit_callbacks):
        resend(staff_client, held, django_capture_on_commit_callbacks, minutes_later=2)
        second = resend(staff_client, held, django_capture_on_commit_callbacks, minutes_later=2)
        assert "The link was not sent again: it was emailed less than a minute ago." in second.content.decode()
        assert links_sent(held) == 2 and len(mail.outbox) == 2
        third = resend(staff_client, held, django_capture_on_commit_callbacks, minutes_later=4)
        assert "emailed again" in third.content.decode() and links_sent(held) == 3

    def test_right_after_the_booking_it_waits_a_minute(self, staff_client, held, django_capture_on_commit_callbacks):
        refused = resend(staff_client, held, django_capture_on_commit_callbacks, minutes_later=0)
        assert "less than a minute ago" in refused.content.decode() and links_sent(held) == 1

    def test_a_lapsed_hold_is_refused_plainly(self, staff_client, held, django_capture_on_commit_callbacks):
        refused = resend(staff_client, held, django_capture_on_commit_callbacks, minutes_later=3 * 60 + 1)
        assert "The link was not sent: the hold has ended, so the link no longer works." in refused.content.decode()
        assert links_sent(held) == 1 and len(mail.outbox) == 1

    def test_a_paid_stay_is_refused_plainly(self, client, staff_client, held, django_capture_on_commit_callbacks):
        pay_through_the_link(client, held, django_capture_on_commit_callbacks)
        sent = len(mail.outbox)
        refused = resend(staff_client, held, django_capture_on_commit_callbacks)
        assert "The link was not sent: the stay is paid." in refused.content.decode()
        assert links_sent(held) == 1 and len(mail.outbox) == sent

    def test_only_post(self, staff_client, held):
        assert staff_client.get(resend_url(held)).status_code == 405
        assert links_sent(held) == 1

    def test_without_the_csrf_token_nothing_is_sent(self, held, django_user_model):
        strict = Client(enforce_csrf_checks=True)
        strict.force_login(user_with(django_user_model, "paola", "view_reservation", "change_reservation"))
        with time_machine.travel(timezone.now() + timedelta(minutes=2)):
            assert strict.post(resend_url(held)).status_code == 403
        assert links_sent(held) == 1

    def test_a_user_who_may_only_view_sees_the_link_but_cannot_send_it(self, held, django_user_model):
        viewer = Client()
        viewer.force_login(user_with(django_user_model, "marco", "view_reservation"))
        html = viewer.get(page(held)).content.decode()
        assert f"/pay/{held.pk}" in html and "Send the link again" not in html
        with time_machine.travel(timezone.now() + timedelta(minutes=2)):
            assert viewer.post(resend_url(held)).status_code == 403
        assert links_sent(held) == 1


@pytest.mark.timeout(120)
@pytest.mark.django_db(transaction=True)
def test_staff_pressing_at_the_same_instant_send_one_email(demo_property, sandbox):
    if not is_postgresql():
        pytest.skip("threads racing on row locks need PostgreSQL (SQLite serialises every writer anyway)")
    held = book_for_guest(
        check_in=future(90),
        check_out=future(93),
        party=Party(adults=2),
        guest=GuestDetails(first_name="Anna", last_name="Rossi", email="anna.rossi@example.com"),
        language="en",
        staff="giulia",
        hold_hours=3,
    )
    racers, outcomes, tally = 5, Counter(), threading.Lock()
    barrier = threading.Barrier(racers)

    def press():
        try:
            barrier.wait(timeout=10)
            resend_payment_link(held.pk, staff="giulia")
            outcome = "sent"
        except PaymentLinkNotResent as error:
            outcome = error.reason
        finally:
            connections.close_all()
        with tally:
            outcomes[outcome] += 1

    with time_machine.travel(timezone.now() + timedelta(minutes=2)):
        threads = [threading.Thread(target=press) for _ in range(racers)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert outcomes == Counter({"sent": 1, PaymentLinkNotResent.TOO_SOON: racers - 1}), outcomes
    assert links_sent(held) == 2
