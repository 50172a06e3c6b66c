"""The guest's booking page, {BASE_URL}/manage/<token> (issue 13): the stay, the price line by line,
what was paid and refunded, the policy and what cancelling today gives back; the stay as an .ics
file; cancelling through a confirmation step, refunded by the policy through the payment provider.

Stays here are booked and paid the way a guest does it: a checkout link, then the sandbox payment
page. Demo policy: at least 30 days 100 %, at least 7 days 50 %, otherwise nothing; the city tax
always back in full."""

import re
from datetime import datetime, time, timedelta
from decimal import Decimal
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.conf import settings
from django.test import Client
from icalendar import Calendar

from booking.catalog.models import Property
from booking.errors import PaymentProviderError
from booking.outbox.models import OutboundEmail
from booking.payments.models import SandboxCheckout
from booking.payments.services.cancellation import retry_pending_refunds
from booking.reservations.models import Reservation
from tests.conftest import future

pytestmark = pytest.mark.django_db

PAYER = {"email": "lucia@example.com", "name": "Lucia Verdi", "phone": "+39 347 1112233"}


@pytest.fixture(autouse=True)
def own_cache(settings, tmp_path):
    """The same file cache as production, but this test's own: under the default DATA_DIR every
    test run on the machine shares one cache and clears it, which would reset the guess counter."""
    settings.CACHES = {**settings.CACHES, "default": {"BACKEND": "django.core.cache.backends.filebased.FileBasedCache", "LOCATION": str(tmp_path / "cache")}}


@pytest.fixture
def sandbox(settings):
    settings.STRIPE_SECRET_KEY = ""
    settings.STRIPE_WEBHOOK_SECRET = ""


def book_and_pay(client, days_ahead: int) -> Reservation:
    link = client.post(
        "/api/v1/payments/checkout-link",
        {"check_in": str(future(days_ahead)), "check_out": str(future(days_ahead + 3)), "guests": 2},
        content_type="application/json",
    ).json()
    paid = client.post(urlsplit(link["checkout_url"]).path, {**PAYER, "action": "pay"})
    assert paid.status_code == 303
    return Reservation.objects.get(pk=link["reservation_id"])


@pytest.fixture
def stay_in_60_days(client, site, sandbox):
    return book_and_pay(client, 60)


def page(client, reservation, suffix=""):
    return client.get(f"/manage/{reservation.manage_token}{suffix}")


def expected_refund(reservation, percent: int) -> Decimal:
    """DESIGN's money back: the tier gives refund_due of the total; the guest gets what was paid
    beyond the share the host keeps (a deposit-only stay: tests/money/test_refunds_follow_payments.py)."""
    tax = Decimal(str(reservation.price_breakdown["city_tax"]))
    refund_due = (tax + (reservation.total - tax) * percent / 100).quantize(Decimal("0.01"))
    return max(Decimal("0.00"), reservation.amount_paid - (reservation.total - refund_due))


def euros(amount: Decimal) -> str:
    return f"€{amount:,.2f}"


def in_florence(day, hour: int, minute: int = 0) -> datetime:
    """A moment on the property's clock (Europe/Rome), where the policy counts its days."""
    return datetime.combine(day, time(hour, minute), tzinfo=ZoneInfo(settings.TIME_ZONE))


class TestThePage:
    def test_shows_the_stay_the_price_what_was_paid_the_policy_and_the_refund_today(self, client, stay_in_60_days):
        reservation = stay_in_60_days
        answer = page(client, reservation)
        html = answer.content.decode()
        assert answer.status_code == 200
        assert f"{reservation.check_in:%-d %B %Y}" in html and f"{reservation.check_out:%-d %B %Y}" in html
        for key in ("accommodation", "cleaning_fee", "city_tax"):
            assert euros(Decimal(str(reservation.price_breakdown[key]))) in html
        assert re.search(rf"data-paid>{re.escape(euros(reservation.amount_paid))}<", html)
        assert "Cancel at least 30 days before arrival: a full refund." in html
        assert f"you get <strong>{euros(reservation.amount_paid)}</strong> back" in html
        assert f'href="/manage/{reservation.manage_token}/stay.ics"' in html

    def test_lists_each_night_and_the_lines_add_up_to_the_total(self, client, stay_in_60_days):
        reservation = stay_in_60_days
        html = page(client, reservation).content.decode()
        nights = reservation.price_breakdown["nightly_rates"]
        assert len(nights) == reservation.nights == 3
        for night in nights:
            assert re.search(rf'data-night="{night["date"]}"><span>[^<]*</span><span>{re.escape(euros(Decimal(str(night["amount"]))))}</span>', html)
        breakdown = reservation.price_breakdown
        lines = sum(Decimal(str(breakdown[key])) for key in ("accommodation", "discount_amount", "cleaning_fee", "city_tax"))
        assert lines == reservation.total and re.search(rf"Total</th><td>{re.escape(euros(reservation.total))}<", html)

    def test_is_private(self, client, stay_in_60_days):
        answer = page(client, stay_in_60_days)
        assert answer["X-Robots-Tag"] == "noindex, nofollow"
        assert answer["Referrer-Policy"] == "no-referrer"
        assert "no-store" in answer["Cache-Control"]
        assert '<meta name="robots" content="noindex">' in answer.content.decode()
        assert "/manage/" not in client.get("/sitemap.xml").content.decode()

    def test_an_unknown_token_is_the_404_page(self, client, site):
        for token in ["x" * 43, "short", "res_abc"]:
            for suffix in ["", "/cancel", "/stay.ics"]:
                answer = client.get(f"/manage/{token}{suffix}")
                assert answer.status_code == 404 and "couldn" in answer.content.decode()
                assert answer["X-Robots-Tag"] == "noindex, nofollow" and "no-store" in answer["Cache-Control"]

    def test_a_malformed_token_and_a_well_formed_unknown_one_answer_alike(self, client, site):
        """Nothing tells a guesser which tokens are even plausible."""
        malformed, unknown = client.get("/manage/short"), client.get(f"/manage/{'x' * 43}")
        assert malformed.status_code == unknown.status_code == 404
        assert malformed.content.replace(b"/manage/short", b"") == unknown.content.replace(f"/manage/{'x' * 43}".encode(), b"")

    def test_guessing_tokens_is_slowed_down_but_the_guest_still_gets_in_from_elsewhere(self, client, stay_in_60_days):
        for attempt in range(20):
            assert client.get(f"/manage/{'g' * 40}{attempt}").status_code == 404
        refused = client.get(f"/manage/{'g' * 41}")
        assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
        guest = Client(REMOTE_ADDR="198.51.100.7")
        assert page(guest, stay_in_60_days).status_code == 200

    def test_a_scanner_on_the_guests_address_never_locks_the_guest_out(self, client, stay_in_60_days):
        """Behind a proxy every guest has the proxy's address: 25 wrong links from it, then the real one."""
        for attempt in range(25):
            client.get(f"/manage/{'s' * 40}{attempt}")
        assert client.get(f"/manage/{'s' * 41}").status_code == 429
        assert page(client, stay_in_60_days).status_code == 200
        assert page(client, stay_in_60_days, "/cancel").status_code == 200
        cancelled = client.post(f"/manage/{stay_in_60_days.manage_token}/cancel", {"confirm": "yes"})
        assert cancelled.status_code == 303 and Reservation.objects.get(pk=stay_in_60_days.pk).status == "cancelled"

    def test_the_stay_downloads_as_an_all_day_calendar_event(self, client, stay_in_60_days):
        answer = page(client, stay_in_60_days, "/stay.ics")
        assert answer["Content-Type"] == "text/calendar; charset=utf-8"
        assert answer["Content-Disposition"] == 'attachment; filename="stay.ics"'
        [event] = Calendar.from_ical(answer.content).walk("VEVENT")
        assert event.decoded("dtstart") == stay_in_60_days.check_in and event.decoded("dtend") == stay_in_60_days.check_out
        assert "Check-in from" in str(event.get("description")) and stay_in_60_days.property.city in str(event.get("location"))


class TestCancelling:
    @pytest.mark.parametrize(
        ("days_before", "clock", "percent"),
        [
            (45, (12, 0), 100),
            (30, (0, 30), 100),
            # Just after midnight in Florence it is still the evening before in UTC: the policy
            # counts the property's days, so this is already 29 days, not 30.
            (29, (0, 30), 50),
            (7, (23, 30), 50),
            (6, (0, 30), 0),
            (0, (9, 0), 0),
        ],
    )
    def test_each_tier_of_the_policy_end_to_end(self, client, site, sandbox, days_before, clock, percent):
        prop = Property.objects.get()
        prop.deposit_percent = 0  # paid in full, so each tier's refund shows
        prop.save()
        reservation = book_and_pay(client, 60)
        assert reservation.amount_paid == reservation.total
        refund = expected_refund(reservation, percent)
        with time_machine.travel(in_florence(reservation.check_in - timedelta(days=days_before), *clock)):
            shown_before = page(client, reservation).content.decode()
            assert f"If you cancel today ({days_before} day" in shown_before and f"<strong>{euros(refund)}</strong>" in shown_before
            confirm_page = page(client, reservation, "/cancel").content.decode()
            assert f"you get <strong>{euros(refund)}</strong> back" in confirm_page
            answer = client.post(f"/manage/{reservation.manage_token}/cancel", {"confirm": "yes"})
            assert answer.status_code == 303 and answer["Location"].startswith(f"/manage/{reservation.manage_token}")
            shown = client.get(answer["Location"]).content.decode()
        cancelled = Reservation.objects.get(pk=reservation.pk)
        assert (cancelled.status, cancelled.amount_refunded, cancelled.refund_pending) == ("cancelled", refund, 0)
        assert SandboxCheckout.objects.get(payment_intent_id=reservation.payment_intent_id).amount_refunded_cents == int(refund * 100)
        assert 'data-reservation-status="cancelled"' in shown and f"data-refunded>{euros(refund)}<" in shown
        assert f'href="/manage/{reservation.manage_token}/cancel"' not in shown
        assert OutboundEmail.objects.filter(reservation=reservation, kind="cancellation", recipient="guest").exists()

    def test_a_stay_booked_close_to_arrival_refunds_only_the_city_tax(self, client, site, sandbox):
        reservation = book_and_pay(client, 5)
        client.post(f"/manage/{reservation.manage_token}/cancel", {"confirm": "yes"})
        tax = Decimal(str(reservation.price_breakdown["city_tax"]))
        assert Reservation.objects.get(pk=reservation.pk).amount_refunded == tax > 0

    def test_without_confirming_nothing_happens(self, client, stay_in_60_days):
        answer = client.post(f"/manage/{stay_in_60_days.manage_token}/cancel", {})
        assert answer.status_code == 400 and "confirm" in answer.content.decode()
        assert Reservation.objects.get(pk=stay_in_60_days.pk).status == "confirmed"

    def test_a_second_post_changes_nothing_and_refunds_nothing(self, client, stay_in_60_days):
        url = f"/manage/{stay_in_60_days.manage_token}/cancel"
        client.post(url, {"confirm": "yes"})
        again = client.post(url, {"confirm": "yes"})
        assert again.status_code == 303
        checkout = SandboxCheckout.objects.get(payment_intent_id=stay_in_60_days.payment_intent_id)
        assert checkout.amount_refunded_cents == checkout.amount_cents and len(checkout.refund_keys) == 1

    def test_the_form_needs_the_csrf_token(self, stay_in_60_days):
        strict = Client(enforce_csrf_checks=True)
        assert strict.post(f"/manage/{stay_in_60_days.manage_token}/cancel", {"confirm": "yes"}).status_code == 403
        assert Reservation.objects.get(pk=stay_in_60_days.pk).status == "confirmed"

    def test_a_provider_failure_leaves_the_stay_cancelled_and_the_refund_pending_until_the_job(self, client, stay_in_60_days, monkeypatch):
        from booking.payments.sandbox_provider import SandboxProvider

        real_refund = SandboxProvider.refund

        def provider_down(self, **kwargs):
            raise PaymentProviderError("The payment provider did not answer.")

        monkeypatch.setattr(SandboxProvider, "refund", provider_down)
        answer = client.post(f"/manage/{stay_in_60_days.manage_token}/cancel", {"confirm": "yes"})
        assert answer.status_code == 303
        shown = client.get(answer["Location"]).content.decode()
        assert "on its way" in shown and euros(stay_in_60_days.amount_paid) in shown
        assert Reservation.objects.get(pk=stay_in_60_days.pk).refund_pending == stay_in_60_days.amount_paid
        monkeypatch.setattr(SandboxProvider, "refund", real_refund)
        assert retry_pending_refunds() == 1
        done = Reservation.objects.get(pk=stay_in_60_days.pk)
        assert (done.amount_refunded, done.refund_pending) == (stay_in_60_days.amount_paid, 0)
        assert "has been refunded" in page(client, done).content.decode()

    def test_after_arrival_there_is_no_cancel_button(self, client, site, sandbox):
        reservation = book_and_pay(client, 3)
        Reservation.objects.filter(pk=reservation.pk).update(check_in=future(-1), check_out=future(2))
        html = page(client, reservation).content.decode()
        assert "/cancel" not in html
        refused = client.post(f"/manage/{reservation.manage_token}/cancel", {"confirm": "yes"})
        assert refused.status_code == 409 and "contact the host" in refused.content.decode()
        assert Reservation.objects.get(pk=reservation.pk).status == "confirmed"

    def test_the_day_after_check_in_the_button_is_gone(self, client, stay_in_60_days):
        with time_machine.travel(in_florence(stay_in_60_days.check_in + timedelta(days=1), 0, 30)):
            html = page(client, stay_in_60_days).content.decode()
            assert f'href="/manage/{stay_in_60_days.manage_token}/cancel"' not in html
            assert client.post(f"/manage/{stay_in_60_days.manage_token}/cancel", {"confirm": "yes"}).status_code == 409


def test_the_manage_link_is_not_the_reservation_id_and_is_long(stay_in_60_days):
    token = stay_in_60_days.manage_token
    assert stay_in_60_days.pk not in token and len(token) >= 43


def test_the_cancel_form_page_keeps_its_origin_for_csrf_but_never_leaks_the_address(client, stay_in_60_days):
    """Under no-referrer a browser posts the form with `Origin: null`, which CSRF refuses."""
    assert page(client, stay_in_60_days, "/cancel")["Referrer-Policy"] == "same-origin"
    assert page(client, stay_in_60_days)["Referrer-Policy"] == "no-referrer"
