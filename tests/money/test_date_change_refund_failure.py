"""A date change whose refund the provider refuses: the stay stays moved, it is flagged once ("Refund
failed…", by the refund service, which also tells the owner), and the flag is gone once staff refund
it from the refund page."""

import pytest

from booking.errors import PaymentProviderError
from booking.outbox.models import OutboundEmail
from booking.payments.models import ProviderRefund
from booking.payments.services import refunds
from booking.payments.services.date_changes import change_dates
from booking.reservations.models import Reservation, ReservationEvent
from tests.attention import attention
from tests.dates import future
from tests.money.test_date_changes import STAFF, book_and_pay
from tests.payments.conftest import sandbox  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db


class RefusingProvider:
    name = "sandbox"

    def refund(self, **request):
        raise PaymentProviderError("The card issuer refused the refund.")


def test_a_refused_refund_flags_the_moved_stay_once_and_a_later_refund_clears_it(client, demo_property, sandbox, monkeypatch, settings):  # noqa: F811
    settings.OWNER_EMAIL = "owner@example.com"
    reservation = book_and_pay(client, 10, nights=4)
    real_provider = refunds.get_provider
    monkeypatch.setattr(refunds, "get_provider", lambda *args: RefusingProvider())
    done = change_dates(reservation.pk, future(10), future(13), actor=STAFF, by_guest=False)
    moved = Reservation.objects.get(pk=reservation.pk)
    assert done.refund_failed and (moved.check_in, moved.check_out) == (future(10), future(13)), "the stay stays moved"
    assert attention(moved).startswith("Refund failed")
    assert ReservationEvent.objects.filter(reservation=moved, action="flag").count() == 1, "one flag, not a second one over it"
    assert OutboundEmail.objects.filter(kind=OutboundEmail.Kind.OWNER_ALERT).count() == 1

    monkeypatch.setattr(refunds, "get_provider", real_provider)
    refunds.refund_payment(moved.pk, actor="staff admin", amount=done.quote.refund)
    moved.refresh_from_db()
    assert attention(moved) == "" and moved.amount_refunded == done.quote.refund
    assert ProviderRefund.objects.filter(reservation=moved, status="succeeded").count() == 1
