"""Property-based: whatever sequence of holds, payments, cancellations, staff blocks, clock jumps
and expiry sweeps happens, no two active stays overlap, no reservation is ever lost, and the
calendar a web process remembers never shows a taken night free."""

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from booking.errors import BookingError
from booking.reservations.models import DateBlock, Reservation
from booking.reservations.services import blocks, reservations
from booking.reservations.services import stays as stay_reads
from booking.reservations.services.holds import hold_stay
from config.caches import forget_process_caches
from tests.dates import future

operation = st.one_of(
    st.tuples(st.just("hold"), st.integers(20, 60), st.integers(2, 6)),
    st.tuples(st.just("confirm"), st.integers(0, 30)),
    st.tuples(st.just("cancel"), st.integers(0, 30)),
    st.tuples(st.just("block"), st.integers(20, 60), st.integers(1, 4)),
    st.tuples(st.just("wait"), st.integers(1, 45)),
    st.tuples(
        st.just("sweep"),
    ),
)


@pytest.mark.django_db
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(operations=st.lists(operation, min_size=1, max_size=25))
def test_no_overlap_and_no_lost_reservation(demo_property, operations):
    Reservation.objects.all().delete()
    DateBlock.objects.all().delete()
    made: list[str] = []
    with time_machine.travel(timezone.now(), tick=False) as clock:
        for op in operations:
            try:
                if op[0] == "hold":
                    made.append(hold_stay(check_in=future(op[1]), check_out=future(op[1] + op[2]), guests=2).pk)
                elif op[0] == "confirm" and made:
                    reservations.confirm_reservation(made[op[1] % len(made)], actor="test payment")
                elif op[0] == "cancel" and made:
                    reservations.cancel_reservation(made[op[1] % len(made)], actor="test staff")
                elif op[0] == "block":
                    blocks.block_dates(start=future(op[1]), end=future(op[1] + op[2]), reason="test", actor="test staff")
                elif op[0] == "wait":
                    clock.shift(timedelta(minutes=op[1]))
                elif op[0] == "sweep":
                    reservations.expire_lapsed_holds()
            except BookingError:
                pass  # refusals are fine; what matters is the state they leave
            now = timezone.now()
            stays = [(r.check_in, r.check_out) for r in Reservation.objects.all() if r.is_blocking(now)]
            staff_blocks = list(DateBlock.objects.values_list("start", "end"))
            # A stay overlaps nothing: no other stay and no block (blocks may overlap each other).
            for i, (a_start, a_end) in enumerate(stays):
                for b_start, b_end in stays[i + 1 :] + staff_blocks:
                    assert not (a_start < b_end and b_start < a_end), f"overlap after {op}"
            assert_the_remembered_calendar_tells_the_truth(stays + staff_blocks, op)
    assert sorted(Reservation.objects.values_list("pk", flat=True)) == sorted(made)


def assert_the_remembered_calendar_tells_the_truth(taken: list, op) -> None:
    """The calendar as remembered from an earlier step (if its inputs still match) is the one
    computed afresh, and neither shows a night of a stay or block free."""
    remembered = stay_reads.calendar_months(start=future(20), months=3)
    forget_process_caches()
    fresh = stay_reads.calendar_months(start=future(20), months=3)
    assert remembered == fresh, f"a stale calendar after {op}"
    free = {day.date for day in remembered.days if day.available}
    for start, end in taken:
        nights = {start + timedelta(days=n) for n in range((end - start).days)}
        assert not nights & free, f"a taken night shown free after {op}"


@pytest.mark.django_db
def test_a_late_payment_confirms_beside_someone_elses_lapsed_hold(demo_property):
    """The example the state machine above found on PostgreSQL: a hold lapses and is expired, a
    second hold takes the same nights and lapses too (still `held`, the expiry job not run yet),
    then the first guest's payment arrives. The nights are free, so the stay is confirmed, and the
    lapsed hold beside it is expired first (the exclusion constraint would refuse the two rows)."""
    from django.conf import settings as django_settings

    with time_machine.travel(timezone.now(), tick=False) as clock:
        first = hold_stay(check_in=future(30), check_out=future(34), guests=2)
        clock.shift(timedelta(minutes=django_settings.HOLD_MINUTES + 1))
        reservations.expire_lapsed_holds()
        second = hold_stay(check_in=future(30), check_out=future(34), guests=2)
        clock.shift(timedelta(minutes=django_settings.HOLD_MINUTES + 1))
        confirmed = reservations.confirm_reservation(first.pk, actor="test payment")
    second.refresh_from_db()
    assert confirmed.status == Reservation.Status.CONFIRMED
    assert second.status == Reservation.Status.EXPIRED
