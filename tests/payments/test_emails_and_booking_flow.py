"""The confirmation emails (guest: HTML and text; owner: a note), and what checkout-link does around
the hold: partner calendars refreshed first (best effort), the website told apart from agents."""

import pytest
from django.core import mail

from booking.outbox.models import OutboundEmail
from booking.outbox.notifications import deliver_due_emails
from booking.reservations.models import Reservation
from booking.reservations.services.reservations import Payer, confirm_reservation
from tests.payments.conftest import stay

pytestmark = pytest.mark.django_db

LINK = "/api/v1/payments/checkout-link"


@pytest.fixture
def held(api, demo_property, sandbox):
    return api.post(LINK, stay(offset=50, nights=4, guests=3, special_requests="Late arrival, around 22:00")).json()["reservation_id"]


def confirm(reservation_id, django_capture_on_commit_callbacks, **payer):
    payer = {"email": "anna@example.com", "name": "Anna Rossi", "phone": "+39 333 1234567", **payer}
    with django_capture_on_commit_callbacks(execute=True):
        confirm_reservation(reservation_id, actor="test", payer=Payer(**payer), amount_paid=Reservation.objects.get(pk=reservation_id).total)


class TestConfirmationEmails:
    def test_the_guest_gets_the_stay_the_price_the_address_and_the_check_in_time(self, held, django_capture_on_commit_callbacks, demo_property):
        confirm(held, django_capture_on_commit_callbacks)
        guest = next(m for m in mail.outbox if m.to == ["anna@example.com"])
        reservation = Reservation.objects.get(pk=held)
        breakdown = reservation.price_breakdown
        assert "is confirmed" in guest.subject and demo_property.name in guest.subject
        [(html, mimetype)] = guest.alternatives
        assert mimetype == "text/html"
        for body in (guest.body, html):
            assert reservation.booking_number in body  # the number people read, not the API's id
            assert f"{reservation.total:.2f}" in body and f"{breakdown['city_tax']:.2f}" in body and f"{breakdown['cleaning_fee']:.2f}" in body
            assert demo_property.street_address in body and demo_property.city in body
            assert demo_property.check_in_from.strftime("%H:%M") in body and demo_property.check_out_until.strftime("%H:%M") in body
            assert "Late arrival" in body
            assert "TEST PAYMENT — no money moves" in body  # paid in the sandbox
        assert guest.reply_to == [demo_property.contact_email]

    def test_the_owner_gets_a_note_at_the_property_contact_address(self, held, django_capture_on_commit_callbacks, demo_property):
        confirm(held, django_capture_on_commit_callbacks)
        owner = next(m for m in mail.outbox if m.to == [demo_property.contact_email])
        assert owner.subject.startswith("[TEST] New booking: Anna Rossi")
        number = Reservation.objects.get(pk=held).booking_number
        assert "anna@example.com" in owner.body and "+39 333 1234567" in owner.body and number in owner.body
        assert owner.reply_to == ["anna@example.com"]

    def test_owner_email_setting_wins_over_the_contact_address(self, held, django_capture_on_commit_callbacks, settings):
        settings.OWNER_EMAIL = "owner@example.org"
        confirm(held, django_capture_on_commit_callbacks)
        assert sorted(m.to[0] for m in mail.outbox) == ["anna@example.com", "owner@example.org"]

    def test_line_breaks_never_reach_a_header(self, held, django_capture_on_commit_callbacks, demo_property):
        demo_property.name = "Attico\r\nBcc: victim@example.com"
        demo_property.save()
        confirm(held, django_capture_on_commit_callbacks, name="Eve\nBcc: x@example.com")
        assert len(mail.outbox) == 2
        for message in mail.outbox:
            assert "\n" not in message.subject and "\r" not in message.subject
            assert "victim@example.com" not in message.recipients() and "x@example.com" not in message.recipients()
            message.message()  # would raise BadHeaderError on a newline

    def test_without_a_guest_address_only_the_owner_is_told(self, held, django_capture_on_commit_callbacks, demo_property):
        confirm(held, django_capture_on_commit_callbacks, email="")
        assert [m.to for m in mail.outbox] == [[demo_property.contact_email]]

    def test_nothing_is_sent_for_a_reservation_that_is_not_confirmed(self, held):
        assert deliver_due_emails() == 0 and not mail.outbox and not OutboundEmail.objects.exists()

    def test_a_stripe_payment_is_not_marked_as_a_test(self, held, django_capture_on_commit_callbacks):
        Reservation.objects.filter(pk=held).update(payment_provider="stripe")
        confirm(held, django_capture_on_commit_callbacks)
        assert all("TEST" not in m.subject and "TEST PAYMENT" not in m.body for m in mail.outbox)

    def test_the_emails_are_sent_once_and_recorded_in_the_history(self, held, django_capture_on_commit_callbacks):
        confirm(held, django_capture_on_commit_callbacks)
        confirm(held, django_capture_on_commit_callbacks)  # a replayed payment: already confirmed
        assert len(mail.outbox) == 2
        assert Reservation.objects.get(pk=held).events.filter(action="email").count() == 2  # one per recipient


class TestAroundTheHold:
    @pytest.fixture
    def before_hold(self, monkeypatch):
        """Record the before-hold hooks' calls (partner_sync's feed refresh is one), with how many
        holds existed at that moment."""
        from booking.reservations.services import holds

        calls = []
        monkeypatch.setattr(holds, "_before_hold", [lambda: calls.append(Reservation.objects.count())])
        return calls

    def test_partner_sync_refreshes_stale_feeds_before_every_hold(self):
        from booking.reservations.services import holds
        from partner_sync.services import refresh_stale_feeds

        assert refresh_stale_feeds in holds._before_hold

    def test_every_interface_runs_the_hooks_before_it_holds(self, api, demo_property, sandbox, before_hold):
        from booking.callers import Caller
        from discovery.operations import run_operation

        assert api.post(LINK, stay(offset=40)).status_code == 200
        assert api.post("/api/v1/reservations", stay(offset=50)).status_code == 201
        run_operation("create_reservation", stay(offset=60), Caller("mcp"))
        run_operation("create_checkout_link", stay(offset=70), Caller("a2a"))
        assert before_hold == [0, 1, 2, 3]

    def test_a_failing_hook_never_blocks_a_booking(self, api, demo_property, sandbox, monkeypatch):
        from booking.reservations.services import holds

        def broken():
            raise ConnectionError("listing platform down")

        monkeypatch.setattr(holds, "_before_hold", [broken])
        response = api.post(LINK, stay())
        assert response.status_code == 200 and response.json()["status"] == "held"

    def test_the_sites_own_pages_are_recorded_as_web_and_agents_as_api(self, client, api, demo_property, sandbox):
        web = client.post(LINK, stay(offset=40), content_type="application/json", headers={"Sec-Fetch-Site": "same-origin"}).json()
        agent = api.post(LINK, stay(offset=60)).json()
        assert Reservation.objects.get(pk=web["reservation_id"]).source == "web"
        assert Reservation.objects.get(pk=agent["reservation_id"]).source == "api"

    def test_taken_dates_are_409_and_no_checkout_is_opened(self, api, demo_property, sandbox):
        api.post(LINK, stay())
        response = api.post(LINK, stay())
        assert response.status_code == 409 and response.json()["code"] == "dates_unavailable"
        assert Reservation.objects.count() == 1

    @pytest.mark.parametrize(
        "body, loc",
        [
            ({"check_out": "2030-01-05"}, ["body", "check_in"]),
            ({**stay(), "guests": 8}, ["body", "guests"]),
            ({**stay(), "guests": "two"}, ["body", "guests"]),
            ({**stay(), "agent_name": "x" * 101}, ["body", "agent_name"]),
        ],
    )
    def test_invalid_input_is_422(self, api, demo_property, sandbox, body, loc):
        response = api.post(LINK, body)
        assert response.status_code == 422 and response.json()["detail"][0]["loc"] == loc
        assert not Reservation.objects.exists()
