"""Changing a confirmed stay's dates (issue 34, item 5; docs/date-changes.md): the service.

Stays are booked and paid the way a guest does it, in the sandbox. Demo terms: a 30 % deposit when
check-in is more than 30 days away (the balance 30 days before), else the total at once; the policy
refunds everything at least 30 days before arrival."""

import threading
from collections import Counter
from datetime import timedelta
from email import message_from_bytes
from urllib.parse import urlsplit

import pytest
from django.core import mail
from django.db import connections
from icalendar import Calendar

from booking.errors import DatesUnavailable
from booking.outbox.models import OutboundEmail
from booking.outbox.notifications import build_message
from booking.payments.models import ProviderRefund
from booking.payments.services.balance_charges import charge_due_balances
from booking.payments.services.balances import balance_owed
from booking.payments.services.date_changes import DateChangeNotAllowed, change_dates, quote_change
from booking.reservations.models import DateBlock, Reservation
from booking.reservations.services.holds import hold_stay
from tests.conftest import is_postgresql
from tests.dates import future
from tests.money.test_balance_job import on

PAYER = {"email": "ada@example.com", "name": "Ada Lovelace", "phone": "+39 055 1234567", "action": "pay"}
STAFF = "staff admin"


def book_and_pay(client, offset: int, nights: int = 3, language: str = "") -> Reservation:
    link = client.post(
        "/api/v1/payments/checkout-link",
        {"check_in": str(future(offset)), "check_out": str(future(offset + nights)), "guests": 2},
        content_type="application/json",
    ).json()
    assert client.post(urlsplit(link["checkout_url"]).path, PAYER).status_code == 303
    reservation = Reservation.objects.get(pk=link["reservation_id"])
    if language:
        Reservation.objects.filter(pk=reservation.pk).update(language=language)
        reservation.refresh_from_db()
    assert reservation.status == "confirmed"
    return reservation


def unchanged(reservation: Reservation) -> bool:
    before = (reservation.check_in, reservation.check_out, reservation.total, reservation.price_breakdown, reservation.payment_schedule)
    reservation.refresh_from_db()
    after = (reservation.check_in, reservation.check_out, reservation.total, reservation.price_breakdown, reservation.payment_schedule)
    return before == after and not reservation.events.filter(action="change_dates").exists()


@pytest.mark.django_db
class TestMoving:
    def test_free_dates_move_the_stay_and_free_the_old_nights(self, client, demo_property, sandbox, django_capture_on_commit_callbacks):
        reservation = book_and_pay(client, 60)
        old_in, old_out = reservation.check_in, reservation.check_out
        mail.outbox.clear()
        with django_capture_on_commit_callbacks(execute=True):
            done = change_dates(reservation.pk, future(80), future(83), actor=STAFF, by_guest=False)
        moved = done.reservation
        assert (moved.check_in, moved.check_out) == (future(80), future(83))
        assert moved.price_breakdown["nightly_rates"][0]["date"] == str(future(80))
        assert moved.payment_schedule[-1]["due_date"] == str(future(80) - timedelta(days=30))  # the balance follows the new check-in
        assert moved.accepted_terms == reservation.accepted_terms
        [event] = moved.events.filter(action="change_dates")
        assert event.actor == STAFF and str(old_in) in event.note and str(future(80)) in event.note
        held = hold_stay(check_in=old_in, check_out=old_out, guests=2)  # the old nights are free
        assert held.status == "held"
        [email] = [m for m in mail.outbox if m.to == ["ada@example.com"] and "changed" in m.subject]
        assert str(future(80).year) in email.body and [a for a in email.attachments if a[0] == "stay.ics"]

    def test_the_stays_own_nights_do_not_count_against_it(self, client, demo_property, sandbox):
        reservation = book_and_pay(client, 60)
        moved = change_dates(reservation.pk, future(61), future(64), actor=STAFF, by_guest=False).reservation
        assert moved.check_in == future(61)

    @pytest.mark.parametrize("taken_by", ["stay", "hold", "staff block", "partner block"])
    def test_taken_nights_are_refused_and_the_stay_is_untouched(self, client, demo_property, sandbox, taken_by):
        reservation = book_and_pay(client, 60)
        if taken_by == "stay":
            book_and_pay(client, 70)
        elif taken_by == "hold":
            hold_stay(check_in=future(70), check_out=future(73), guests=2)
        else:
            source = DateBlock.Source.STAFF if taken_by == "staff block" else DateBlock.Source.PARTNER
            DateBlock.objects.create(property=demo_property, start=future(70), end=future(73), source=source)
        with pytest.raises(DatesUnavailable):
            change_dates(reservation.pk, future(71), future(74), actor=STAFF, by_guest=False)
        assert unchanged(reservation)
        assert not OutboundEmail.objects.filter(kind="dates_changed").exists()

    @pytest.mark.parametrize(
        ("offset", "nights", "reason"),
        [(80, 1, "min_stay"), (800, 3, "beyond_booking_window")],
    )
    def test_the_rules_still_apply(self, client, demo_property, sandbox, offset, nights, reason):
        reservation = book_and_pay(client, 60)
        with pytest.raises(DatesUnavailable) as refused:
            change_dates(reservation.pk, future(offset), future(offset + nights), actor=STAFF, by_guest=False)
        assert refused.value.reason == reason
        assert unchanged(reservation)

    def test_cancelled_and_held_stays_are_refused(self, client, demo_property, sandbox):
        held = hold_stay(check_in=future(60), check_out=future(63), guests=2)
        with pytest.raises(DateChangeNotAllowed):
            change_dates(held.pk, future(70), future(73), actor=STAFF, by_guest=False)
        reservation = book_and_pay(client, 90)
        Reservation.objects.filter(pk=reservation.pk).update(status="cancelled")
        with pytest.raises(DateChangeNotAllowed):
            change_dates(reservation.pk, future(100), future(103), actor=STAFF, by_guest=False)

    def test_the_guest_may_change_only_in_the_full_refund_tier(self, client, demo_property, sandbox):
        early = book_and_pay(client, 60)
        assert change_dates(early.pk, future(65), future(68), actor="guest", by_guest=True).reservation.check_in == future(65)
        late = book_and_pay(client, 20)
        with pytest.raises(DateChangeNotAllowed) as refused:
            change_dates(late.pk, future(40), future(43), actor="guest", by_guest=True)
        assert refused.value.reason == "too_late"
        assert unchanged(late)
        assert change_dates(late.pk, future(40), future(43), actor=STAFF, by_guest=False).reservation.check_in == future(40)  # staff may

    def test_a_price_that_moved_since_the_preview_is_refused(self, client, demo_property, sandbox):
        reservation = book_and_pay(client, 60)
        preview = quote_change(reservation.pk, future(70), future(74), by_guest=True)
        with pytest.raises(DateChangeNotAllowed) as refused:
            change_dates(reservation.pk, future(70), future(74), actor="guest", by_guest=True, expected_total=preview.total + 1)
        assert refused.value.reason == "price_changed" and unchanged(reservation)


@pytest.mark.django_db
class TestMoney:
    def test_a_dearer_stay_owes_the_difference_payable_by_link_in_the_sandbox(self, client, demo_property, sandbox):
        reservation = book_and_pay(client, 10)  # paid in full (check-in within 30 days)
        assert reservation.amount_paid == reservation.total
        done = change_dates(reservation.pk, future(10), future(14), actor=STAFF, by_guest=False)
        moved = done.reservation
        assert moved.total > reservation.total
        assert done.quote.owed == balance_owed(moved) == moved.total - reservation.total
        assert not ProviderRefund.objects.exists()
        email = OutboundEmail.objects.get(kind="dates_changed")
        assert f"/manage/{moved.manage_token}/pay-balance" in email.body
        page = client.post(f"/manage/{moved.manage_token}/pay-balance")
        assert page.status_code == 303
        assert client.post(urlsplit(page["Location"]).path, PAYER).status_code == 303
        moved.refresh_from_db()
        assert moved.amount_paid == moved.total and balance_owed(moved) == 0
        assert moved.payments.filter(kind="balance", amount=done.quote.owed).exists()

    def test_a_cheaper_stay_refunds_the_excess_through_the_refund_service(self, client, demo_property, sandbox):
        reservation = book_and_pay(client, 10, nights=4)
        done = change_dates(reservation.pk, future(10), future(13), actor=STAFF, by_guest=False)
        moved = done.reservation
        excess = reservation.total - moved.total
        assert excess > 0 and done.quote.refund == excess and not done.refund_failed
        [refund] = ProviderRefund.objects.filter(reservation=moved)
        assert refund.status == "succeeded" and refund.amount == excess and refund.idempotency_key.startswith("date-change-")
        assert moved.amount_refunded == excess and balance_owed(moved) == 0
        email = OutboundEmail.objects.get(kind="dates_changed")
        assert "refund" in email.body.lower()
        # Moved back to the dearer dates: what the change gave back is owed again.
        back = change_dates(moved.pk, future(10), future(14), actor=STAFF, by_guest=False)
        assert back.quote.owed == balance_owed(back.reservation) == excess
        assert client.get(f"/api/v1/reservations/{moved.pk}").json()["payment"]["balance_due"] == float(excess)  # the API says the same

    def test_the_balance_job_charges_a_refund_owed_again_on_the_balance_date(self, client, demo_property, sandbox):
        reservation = book_and_pay(client, 90, nights=4)  # the deposit now…
        checkout = client.post(f"/manage/{reservation.manage_token}/pay-balance")
        assert client.post(urlsplit(checkout["Location"]).path, PAYER).status_code == 303  # …and the balance early
        reservation.refresh_from_db()
        assert reservation.amount_paid == reservation.total
        cheaper = change_dates(reservation.pk, future(90), future(93), actor=STAFF, by_guest=False)
        assert cheaper.quote.refund > 0 and not cheaper.refund_failed
        back = change_dates(reservation.pk, future(90), future(94), actor=STAFF, by_guest=False).reservation
        assert balance_owed(back) == cheaper.quote.refund and back.amount_paid >= back.total
        with on(future(90) - timedelta(days=30)):
            assert charge_due_balances() == {"charged": 1}
            assert charge_due_balances() == {"not_due": 1}  # still looked at (it was refunded once), nothing owed
        back.refresh_from_db()
        assert back.amount_paid - back.amount_refunded == back.total and balance_owed(back) == 0

    def test_a_deposit_stay_keeps_owing_its_balance_on_the_new_schedule(self, client, demo_property, sandbox):
        reservation = book_and_pay(client, 60)
        assert reservation.amount_paid < reservation.total
        done = change_dates(reservation.pk, future(60), future(62), actor=STAFF, by_guest=False)
        assert done.quote.refund == 0 and not ProviderRefund.objects.exists()
        assert balance_owed(done.reservation) == done.reservation.total - reservation.amount_paid


@pytest.mark.django_db
class TestCalendars:
    def test_the_email_carries_the_new_dates_same_uid_higher_sequence_in_the_guests_language(self, client, demo_property, sandbox):
        reservation = book_and_pay(client, 60, language="it")
        before = Calendar.from_ical(client.get(f"/manage/{reservation.manage_token}/stay.ics").content).walk("VEVENT")[0]
        change_dates(reservation.pk, future(70), future(73), actor=STAFF, by_guest=False)
        row = OutboundEmail.objects.get(kind="dates_changed")
        assert "Le date" in row.subject or "date" in row.subject.lower()
        message = message_from_bytes(build_message(row).message().as_bytes())
        [ics] = [part for part in message.walk() if part.get_content_type() == "text/calendar"]
        event = Calendar.from_ical(ics.get_payload(decode=True)).walk("VEVENT")[0]
        assert event["UID"] == before["UID"]
        assert int(event.get("SEQUENCE", 0)) > int(before.get("SEQUENCE", 0))
        assert event.decoded("DTSTART") == future(70) and event.decoded("DTEND") == future(73)
        page = Calendar.from_ical(client.get(f"/manage/{reservation.manage_token}/stay.ics").content).walk("VEVENT")[0]
        assert page.decoded("DTSTART") == future(70) and int(page["SEQUENCE"]) == 1

    def test_the_partner_export_follows(self, client, demo_property, sandbox):
        from partner_sync.services import export_calendar

        reservation = book_and_pay(client, 60)
        assert future(60).strftime("%Y%m%d").encode() in export_calendar().body
        change_dates(reservation.pk, future(70), future(73), actor=STAFF, by_guest=False)
        body = export_calendar().body
        assert future(70).strftime("%Y%m%d").encode() in body and future(60).strftime("%Y%m%d").encode() not in body


RACERS = 6


def _race(attempts) -> Counter:
    barrier, outcomes, lock = threading.Barrier(len(attempts)), Counter(), threading.Lock()

    def run(attempt):
        try:
            barrier.wait(timeout=10)
            outcome = attempt()
        except (DatesUnavailable, DateChangeNotAllowed):
            outcome = "refused"
        except Exception as error:  # noqa: BLE001 — reported as the outcome
            outcome = f"error: {error!r}"
        finally:
            connections.close_all()
        with lock:
            outcomes[outcome] += 1

    threads = [threading.Thread(target=run, args=(attempt,)) for attempt in attempts]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return outcomes


def _overlaps() -> int:
    active = list(Reservation.objects.filter(status__in=["held", "confirmed"]).values_list("check_in", "check_out"))
    return sum(1 for i, a in enumerate(active) for b in active[i + 1 :] if a[0] < b[1] and b[0] < a[1])


@pytest.fixture
def without_the_backstop(transactional_db):
    """Only the lock protects (the PostgreSQL exclusion constraint is dropped for the test)."""
    from importlib import import_module

    backstop = import_module("booking.migrations.0002_no_overlapping_stays_on_postgresql")
    with connections["default"].cursor() as cursor:
        cursor.execute(backstop.DROP)
    yield
    Reservation.objects.filter(status__in=["held", "confirmed"]).update(status="cancelled")
    with connections["default"].cursor() as cursor:
        cursor.execute(backstop.CREATE)


@pytest.mark.timeout(120)
@pytest.mark.django_db(transaction=True)
class TestRaces:
    @pytest.fixture(autouse=True)
    def _postgresql(self, settings):
        if not is_postgresql():
            pytest.skip("threads racing on row locks need PostgreSQL (SQLite serialises every writer anyway)")
        settings.TEST_RACE_WINDOW_SECONDS = 0.05

    def test_racing_changes_of_different_stays_to_the_same_nights(self, client, demo_property, sandbox, without_the_backstop):
        stays = [book_and_pay(client, 60 + 5 * i) for i in range(RACERS)]

        def mover(reservation):
            return lambda: change_dates(reservation.pk, future(120), future(123), actor=STAFF, by_guest=False) and "moved"

        outcomes = _race([mover(r) for r in stays])
        assert outcomes == Counter({"moved": 1, "refused": RACERS - 1}), outcomes
        assert _overlaps() == 0

    def test_a_change_racing_new_holds(self, client, demo_property, sandbox, without_the_backstop):
        reservation = book_and_pay(client, 60)

        def hold():
            hold_stay(check_in=future(120), check_out=future(123), guests=2)
            return "held"

        def move():
            change_dates(reservation.pk, future(121), future(124), actor=STAFF, by_guest=False)
            return "moved"

        outcomes = _race([move] + [hold] * (RACERS - 1))
        assert sum(outcomes.values()) == RACERS and outcomes["refused"] == RACERS - 1, outcomes
        assert _overlaps() == 0
