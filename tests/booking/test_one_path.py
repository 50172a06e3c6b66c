"""One operation, one code path (DESIGN "Apps as the design card draws them"; issue #39 item 5): the
payment state, the cancel transition, the expiry writer, releasing a hold when its next step fails,
the children_ages parser and what blocks a night, each written once and read the same everywhere."""

import logging
import pathlib
import re
from datetime import timedelta
from decimal import Decimal

import pytest
import time_machine
from django.contrib.admin.utils import quote
from django.urls import reverse
from django.utils import timezone

from booking.admin import dashboard
from booking.catalog.children_ages import ChildrenAgesInvalid, parse_children_ages
from booking.catalog.payment_state import PaymentState, payment_state
from booking.errors import InvalidTransition, PaymentProviderError
from booking.outbox.models import OutboundEmail
from booking.payments import ledger
from booking.payments.services import cancellation, checkouts
from booking.reservations.models import DateBlock, Reservation, ReservationEvent
from booking.reservations.selectors import blocking_reservations, blocks_between, taken_ranges
from booking.reservations.services import holds
from booking.reservations.services import reservations as reservation_services
from tests.dates import future

D = Decimal


# --- The payment state: one pure function ---------------------------------------------------------


@pytest.mark.parametrize(
    ("total", "paid", "refunded", "state"),
    [
        ("1000", "0", "0", "unpaid"),
        ("0", "0", "0", "unpaid"),  # the dashboard called a stay with nothing due and nothing paid "paid"
        ("1000", "300", "0", "deposit_paid"),
        ("1000", "1000", "0", "paid"),
        ("900", "1000", "100", "paid"),  # a date change made it cheaper: only the difference was given back
        ("1000", "1000", "200", "partially_refunded"),  # the dashboard said "paid", the admin list "refunded"
        ("1000", "1000", "1000", "refunded"),
        ("1000", "300", "300", "refunded"),
    ],
)
def test_payment_state_of_each_case_without_a_database(total, paid, refunded, state):
    assert payment_state(total=D(total), amount_paid=D(paid), amount_refunded=D(refunded)) == state
    assert set(PaymentState.values) == {"unpaid", "deposit_paid", "paid", "partially_refunded", "refunded"}


def confirmed_stay(prop, offset: int, *, paid="1000.00", refunded="0.00", total="1000.00", **fields) -> Reservation:
    return Reservation.objects.create(
        property=prop,
        status="confirmed",
        check_in=timezone.localdate() + timedelta(days=offset),
        check_out=timezone.localdate() + timedelta(days=offset + 3),
        guests=2,
        total=D(total),
        amount_paid=D(paid),
        amount_refunded=D(refunded),
        guest_first_name="Ada",
        guest_last_name="Rossi",
        guest_email="ada@example.com",
        price_breakdown={"accommodation": float(total), "currency": "EUR"},
        **fields,
    )


@pytest.fixture
def staff_client(client, django_user_model):
    client.force_login(django_user_model.objects.create_superuser("giulia", "giulia@example.com", "a-long-test-password"))
    return client


@pytest.mark.django_db
def test_the_api_the_reservation_list_and_the_dashboard_show_the_same_payment_state(demo_property, api, staff_client):
    """A stay paid in full then partly refunded: the API said partially_refunded, the reservation
    list "refunded 200.00 EUR" and the dashboard "paid". Now all three say partially refunded."""
    refunded = confirmed_stay(demo_property, 2, refunded="200.00")
    deposit = confirmed_stay(demo_property, 6, paid="300.00")

    assert api.get(f"/api/v1/reservations/{refunded.pk}").json()["payment"]["status"] == "partially_refunded"
    assert api.get(f"/api/v1/reservations/{deposit.pk}").json()["payment"]["status"] == "deposit_paid"

    listing = staff_client.get(reverse("admin:reservations_reservation_changelist")).content.decode()
    assert '<span class="payment-partially_refunded">partially refunded 200.00 EUR</span>' in listing
    assert '<span class="payment-deposit_paid">deposit paid</span>' in listing
    page = staff_client.get(reverse("admin:reservations_reservation_change", args=[quote(refunded.pk)])).content.decode()
    assert '<span class="payment-partially_refunded">partially refunded 200.00 EUR</span>' in page

    arrivals = {m.reservation_id: m for m in dashboard.upcoming_movements(timezone.localdate(), {}) if m.kind == "arrival"}
    assert (arrivals[refunded.pk].payment, arrivals[deposit.pk].payment) == ("partially_refunded", "deposit_paid")
    home = staff_client.get(reverse("admin:index")).content.decode()
    assert '<span class="payment-partially_refunded">partially refunded</span>' in home
    assert '<span class="payment-deposit_paid">deposit paid</span>' in home


# --- One cancel transition ---------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_confirmed_stay_is_never_cancelled_without_its_email_and_refund(demo_property):
    """cancel_reservation used to cancel a confirmed stay with no email and no refund owed; it now
    refuses, and the one path (cancel_stay) emails the guest and records what is owed."""
    stay = confirmed_stay(demo_property, 30)
    with pytest.raises(InvalidTransition):
        reservation_services.cancel_reservation(stay.pk, actor="staff")
    stay.refresh_from_db()
    assert stay.status == "confirmed" and not OutboundEmail.objects.exists()

    cancelled = cancellation.cancel_stay(stay.pk, actor="staff", refund=D("0"))
    assert cancelled.status == "cancelled"
    assert set(OutboundEmail.objects.filter(reservation=stay).values_list("kind", "recipient")) >= {
        (OutboundEmail.Kind.CANCELLATION, OutboundEmail.Recipient.GUEST)
    }


@pytest.mark.django_db
def test_every_cancel_writes_the_same_row_and_event(demo_property):
    """Staff, a released hold and the channel manager cancel through one transition: status,
    cancelled_at, refund_pending and overbooked set alike, one `cancel`/`release` event each."""
    staff = confirmed_stay(demo_property, 30, overbooked=True)
    cancellation.cancel_stay(staff.pk, actor="staff", refund=D("0"))
    hold = holds.hold_stay(check_in=future(60), check_out=future(63), guests=2)
    reservation_services.release_live_hold(hold.pk, actor="guest", reason="changed my mind")
    for reservation in (Reservation.objects.get(pk=staff.pk), Reservation.objects.get(pk=hold.pk)):
        assert reservation.status == "cancelled" and reservation.cancelled_at is not None
        assert reservation.refund_pending == 0 and not reservation.overbooked
    assert list(ReservationEvent.objects.filter(reservation_id=staff.pk).values_list("action", "from_status")) == [("cancel", "confirmed")]
    assert list(ReservationEvent.objects.filter(reservation_id=hold.pk, action="release").values_list("from_status", flat=True)) == ["held"]


# --- One expiry writer -----------------------------------------------------------------------------


def lapsed_hold(offset: int) -> Reservation:
    hold = holds.hold_stay(check_in=future(offset), check_out=future(offset + 3), guests=2)
    Reservation.objects.filter(pk=hold.pk).update(hold_expires_at=timezone.now() - timedelta(minutes=1))
    return hold


@pytest.mark.django_db
def test_every_way_a_hold_expires_records_the_same_event(demo_property):
    """The job, the lazy expiry under the lock, a checkout that expired and a payment that could not
    become a stay all mark the hold expired with one `expire` event (the last wrote none)."""
    by_job = lapsed_hold(40)
    assert reservation_services.expire_lapsed_holds() == 1
    lazily, by_checkout, by_payment = lapsed_hold(50), lapsed_hold(60), lapsed_hold(70)
    holds.expire_lapsed_holds_overlapping(demo_property, future(50), future(53), timezone.now())
    reservation_services.expire_hold(by_checkout.pk, actor="stripe", note="checkout session expired")
    ledger.record_unbookable_payment(by_payment.pk, amount_paid=D("100"), amount_refunded=D("100"), payment_intent_id="pi_1", actor="stripe")

    for hold in (by_job, lazily, by_checkout, by_payment):
        assert Reservation.objects.get(pk=hold.pk).status == "expired"
        assert list(ReservationEvent.objects.filter(reservation_id=hold.pk, action="expire").values_list("from_status", flat=True)) == ["held"]


# --- Releasing a hold when its next step fails --------------------------------------------------------


@pytest.mark.django_db
def test_a_failed_checkout_releases_its_hold(demo_property, monkeypatch):
    def provider_down(*args, **kwargs):
        raise PaymentProviderError("down")

    monkeypatch.setattr(checkouts, "open_checkout", provider_down)
    with pytest.raises(PaymentProviderError):
        checkouts.create_checkout_link(check_in=future(40), check_out=future(43), guests=2)
    released = Reservation.objects.get()
    assert released.status == "cancelled"
    assert ReservationEvent.objects.get(reservation=released, action="cancel").note == "hold released: down"


@pytest.mark.django_db
def test_a_release_that_fails_is_logged_not_swallowed(demo_property, monkeypatch, caplog):
    """Two of the three callers used `except: pass`: a failed release left no trace."""
    hold = holds.hold_stay(check_in=future(40), check_out=future(43), guests=2)

    def broken(*args, **kwargs):
        raise RuntimeError("database gone")

    monkeypatch.setattr(reservation_services, "cancel_reservation", broken)
    with caplog.at_level(logging.ERROR):
        reservation_services.release_hold_after_failure(hold.pk, actor="idempotency recovery", reason="the checkout could not be opened")
    assert any(hold.pk in record.getMessage() and record.exc_info for record in caplog.records)


# --- One children_ages parser ------------------------------------------------------------------------


@pytest.mark.parametrize(("given", "ages"), [("", ()), ("5, 14", (5, 14)), ("0,17", (0, 17)), ([5, 14], (5, 14)), (None, ())])
def test_children_ages_read_from_text_or_a_list(given, ages):
    assert parse_children_ages(given) == ages


@pytest.mark.parametrize(("given", "index"), [("5, 19", 1), ("5,,14", 1), ("x", 0), ("5;14", 0), ([5, True], 1), ([-1], 0)])
def test_a_wrong_age_names_the_field_and_its_index(given, index):
    with pytest.raises(ChildrenAgesInvalid) as refused:
        parse_children_ages(given)
    assert refused.value.index == index
    assert refused.value.problems[0].field == ("children_ages", index)
    assert refused.value.errors[0]["loc"] == ["children_ages", index]


@pytest.mark.django_db
def test_the_api_and_the_owner_form_read_ages_alike(demo_property, api, staff_client):
    """ "5;14" was accepted by the back office's form (read as 5 and 14) and refused by the API."""
    start, end = future(40), future(43)
    refused = api.get("/api/v1/availability", check_in=str(start), check_out=str(end), guests=3, children_ages="5;14")
    assert refused.status_code == 422 and refused.json()["detail"][0]["loc"] == ["query", "children_ages", 0]
    form = {
        "check_in": str(start),
        "check_out": str(end),
        "adults": "2",
        "children_ages": "5;14",
        "first_name": "Ada",
        "last_name": "Rossi",
        "email": "ada@example.com",
        "language": "en",
        "hold_hours": "24",
    }
    page = staff_client.post(reverse("admin:reservations_reservation_book_for_guest"), form)
    assert page.status_code == 200 and "from 0 to 17" in page.content.decode()
    assert not Reservation.objects.exists()


# --- One definition of what blocks a night -----------------------------------------------------------


@pytest.mark.django_db
def test_the_hot_sql_and_the_orm_agree_on_every_edge(demo_property):
    """A hold lapsing at this very instant frees its nights in the derived SQL, the ORM filter and
    Reservation.is_blocking alike; a confirmed stay and a block take theirs; a cancelled stay does not."""
    now = timezone.now().replace(microsecond=0)

    def reservation(offset, status, expires_at=None):
        return Reservation.objects.create(
            property=demo_property,
            check_in=future(offset),
            check_out=future(offset + 2),
            guests=2,
            status=status,
            hold_expires_at=expires_at,
            price_breakdown={},
            total=0,
        )

    lapsing_now = reservation(10, "held", now)
    live = reservation(13, "held", now + timedelta(seconds=1))
    confirmed = reservation(16, "confirmed")
    cancelled = reservation(19, "cancelled")
    DateBlock.objects.create(property=demo_property, start=future(22), end=future(24), reason="staff")
    start, end = future(9), future(30)
    with time_machine.travel(now, tick=False):
        orm = sorted(
            list(blocking_reservations(demo_property, start, end, now).values_list("check_in", "check_out"))
            + list(blocks_between(demo_property, start, end).values_list("start", "end"))
        )
        assert (
            sorted(taken_ranges(demo_property, start, end, now))
            == orm
            == [
                (future(13), future(15)),
                (future(16), future(18)),
                (future(22), future(24)),
            ]
        )
        assert [r.is_blocking(now) for r in (lapsing_now, live, confirmed, cancelled)] == [False, True, True, False]


# `hold_expires_at >` inside a string literal: SQL written by hand (Reservation.is_blocking, the
# in-memory reading, is Python and is checked against the SQL above).
HAND_WRITTEN_FILTER = re.compile(r"""["'][^"'\n]*\bhold_expires_at"?\s*>""")


def test_no_copy_of_the_blocking_sql_is_kept_by_hand():
    """The hot reads compile their SQL from the ORM querysets; no module writes the filter itself."""
    root = pathlib.Path(__file__).resolve().parents[2]
    for folder in ("booking", "pages", "partner_sync", "discovery"):
        for path in (root / folder).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            text = path.read_text()
            assert not HAND_WRITTEN_FILTER.search(text), path
