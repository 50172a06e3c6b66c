"""A code's maximum uses hold under a race: twenty guests hold different stays with a code of five
uses at the same instant, and exactly five holds get it (the count runs under the hold's lock)."""

import threading
from collections import Counter
from datetime import timedelta
from decimal import Decimal

import pytest
from django.db import connections

from booking.catalog.models import PromoCode
from booking.errors import InvalidInput
from booking.reservations.models import Reservation
from booking.reservations.services.holds import hold_stay
from tests.dates import future

RACERS, CAP = 20, 5


@pytest.mark.django_db(transaction=True)
def test_twenty_racers_take_exactly_the_cap(demo_property, settings):
    settings.TEST_RACE_WINDOW_SECONDS = 0.02  # each racer pauses between its count and its insert
    code = PromoCode.objects.create(property=demo_property, code="FIVE", percent=Decimal("5"), max_uses=CAP)
    barrier = threading.Barrier(RACERS)
    outcomes: Counter = Counter()
    lock = threading.Lock()

    def run(i: int) -> None:
        check_in = future(100 + 4 * i)  # a stay of its own: only the code is contended
        try:
            barrier.wait(timeout=10)
            hold_stay(check_in=check_in, check_out=check_in + timedelta(days=3), guests=2, promo_code="five")
            outcome = "held"
        except InvalidInput as error:
            outcome = error.errors[0]["type"]
        except Exception as error:  # noqa: BLE001 — any other outcome is a failure to report
            outcome = f"error: {error!r}"
        finally:
            connections.close_all()
        with lock:
            outcomes[outcome] += 1

    threads = [threading.Thread(target=run, args=(i,)) for i in range(RACERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    print(f"\n[{connections['default'].vendor}] promo code race: {dict(outcomes)}")
    assert outcomes == Counter({"held": CAP, "promo_code_invalid": RACERS - CAP})
    assert Reservation.objects.filter(promo_code=code, status=Reservation.Status.HELD).count() == CAP
