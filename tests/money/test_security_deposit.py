"""The refundable security deposit (demo: 300 EUR, held 1 day before check-in, released 3 days after
check-out): a card authorisation on the saved card, renewed before Stripe's 7-day lapse, released,
or claimed by staff with a reason. Time moves by --as-of dates; the provider is the Stripe fake."""

import threading
from datetime import timedelta
from decimal import Decimal

import pytest
import time_machine
from django.contrib.auth.models import Permission
from django.core import mail
from django.core.management import call_command
from django.db import connection
from django.urls import reverse
from django.utils import timezone

from booking.errors import BookingError, InvalidTransition, PaymentProviderError
from booking.outbox.models import OutboundEmail
from booking.payments.models import SecurityDeposit
from booking.payments.saved_cards import StripeSavedCards
from booking.payments.services.cancellation import cancel_by_guest
from booking.payments.services.security_deposits import claim_security_deposit, place_security_deposits, release_security_deposits
from booking.reservations.models import Reservation, ReservationEvent
from tests.attention import attention
from tests.money.deposit_books import assert_deposits_match_provider
from tests.payments.conftest import stay, stripe_event

pytestmark = pytest.mark.django_db
LINK = "/api/v1/payments/checkout-link"


def book(api, fake_stripe, webhook, *, nights=3, card="pm_card_visa") -> Reservation:
    body = api.post(LINK, stay(offset=20, nights=nights, guests=2)).json()  # paid in full (within 30 days)
    session = fake_stripe.complete(body["session_id"], email="guest@example.com", card=card)
    assert webhook(stripe_event("checkout.session.completed", session)).json()["outcome"] == "confirmed"
    return Reservation.objects.get(pk=body["reservation_id"])


def holds(fake_stripe):
    return [c for c in fake_stripe.calls_to("POST", "/v1/payment_intents") if c.form.get("capture_method") == "manual"]


def test_the_hold_is_placed_the_day_before_arrival_and_released_three_days_after(api, demo_property, fake_stripe, webhook):
    reservation = book(api, fake_stripe, webhook)
    assert reservation.accepted_terms["security_deposit"] == "300.00"
    assert place_security_deposits(as_of=reservation.check_in - timedelta(days=2)) == {"not_due": 1}
    assert place_security_deposits(as_of=reservation.check_in - timedelta(days=1)) == {"placed": 1}
    assert place_security_deposits(as_of=reservation.check_in - timedelta(days=1)) == {"done_today": 1}  # run twice
    [call] = holds(fake_stripe)
    assert (call.form["amount"], call.form["off_session"], call.form["confirm"]) == ("30000", "true", "true")
    [deposit] = reservation.security_deposits.all()
    assert deposit.status == "held" and fake_stripe.payment_intents[deposit.provider_id]["status"] == "requires_capture"
    assert release_security_deposits(as_of=reservation.check_out + timedelta(days=2)) == {}
    assert release_security_deposits(as_of=reservation.check_out + timedelta(days=3)) == {"released": 1}
    deposit.refresh_from_db()
    assert deposit.status == "released" and fake_stripe.payment_intents[deposit.provider_id]["status"] == "canceled"
    assert release_security_deposits(as_of=reservation.check_out + timedelta(days=4)) == {}


def test_a_ten_night_stay_is_renewed_before_the_hold_lapses(api, demo_property, fake_stripe, webhook):
    reservation = book(api, fake_stripe, webhook, nights=10)
    day = reservation.check_in - timedelta(days=1)
    release_on = reservation.check_out + timedelta(days=3)
    while day < release_on:
        call_command("place_security_deposits", "--as-of", str(day))
        call_command("release_security_deposits", "--as-of", str(day))
        held = reservation.security_deposits.get(status="held")
        assert (day - held.placed_on).days < SecurityDeposit.LAPSES_AFTER_DAYS  # never relying on a lapsed hold
        day += timedelta(days=1)
    call_command("release_security_deposits", "--as-of", str(release_on))
    statuses = list(reservation.security_deposits.values_list("status", flat=True))
    assert statuses == ["renewed", "renewed", "released"]  # placed, renewed twice over 14 days, released
    assert all(fake_stripe.payment_intents[d.provider_id]["status"] == "canceled" for d in reservation.security_deposits.all())


def test_a_refused_card_flags_the_stay_and_keeps_it(api, demo_property, fake_stripe, webhook):
    reservation = book(api, fake_stripe, webhook, card="pm_card_chargeCustomerFail")
    assert place_security_deposits(as_of=reservation.check_in - timedelta(days=1)) == {"failed": 1}
    reservation.refresh_from_db()
    assert reservation.status == "confirmed" and "Security deposit" in attention(reservation)


def test_no_hold_when_the_owner_switched_it_off_before_booking(api, demo_property, fake_stripe, webhook):
    demo_property.security_deposit = Decimal("0")
    demo_property.save()
    reservation = book(api, fake_stripe, webhook)
    assert place_security_deposits(as_of=reservation.check_in - timedelta(days=1)) == {"not_due": 1}


@pytest.fixture
def staff(client, django_user_model):
    def login(*codenames):
        user = django_user_model.objects.create_user(f"marco{len(codenames)}", "marco@example.com", "a-long-test-password", is_staff=True)
        user.user_permissions.set(Permission.objects.filter(codename__in=codenames))
        client.force_login(user)
        return client

    return login


def test_staff_claim_part_with_a_reason_and_the_guest_is_emailed(api, demo_property, fake_stripe, webhook, staff, django_capture_on_commit_callbacks):
    reservation = book(api, fake_stripe, webhook)
    place_security_deposits(as_of=reservation.check_in - timedelta(days=1))
    deposit = reservation.security_deposits.get()
    url = reverse("admin:payments_securitydeposit_claim", args=[deposit.pk])
    assert staff("view_securitydeposit").post(url, {"amount": "80", "reason": "x"}).status_code == 403  # needs the refund permission
    client = staff("view_securitydeposit", "change_securitydeposit", "refund_reservation")
    assert client.get(url).status_code == 200
    assert client.post(url, {"amount": "300.01", "reason": "too much"}).status_code == 302
    deposit.refresh_from_db()
    assert deposit.status == "held"  # refused: more than is held
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(url, {"amount": "80", "reason": "A broken glass table on the terrace."}).status_code == 302
    deposit.refresh_from_db()
    assert (deposit.status, deposit.claimed_amount) == ("claimed", Decimal("80.00"))
    intent = fake_stripe.payment_intents[deposit.provider_id]
    assert (intent["status"], intent["amount_received"]) == ("succeeded", 8000)
    [email] = [m for m in mail.outbox if m.to == ["guest@example.com"] and "Security deposit" in m.subject]
    assert "broken glass table" in email.body and "80" in email.body
    assert release_security_deposits(as_of=reservation.check_out + timedelta(days=3)) == {}  # nothing left to release


# --- Every provider call that moves money is written down first and settled from the provider ----


def placed(api, fake_stripe, webhook, *, nights=3) -> tuple[Reservation, SecurityDeposit]:
    reservation = book(api, fake_stripe, webhook, nights=nights)
    assert place_security_deposits(as_of=reservation.check_in - timedelta(days=1)) == {"placed": 1}
    assert_deposits_match_provider(reservation, fake_stripe)
    return reservation, reservation.security_deposits.get()


def claim(deposit, amount, reason="A broken glass table on the terrace.", actor="staff anna"):
    return claim_security_deposit(deposit.pk, amount=Decimal(amount), reason=reason, actor=actor)


def claimed_events(reservation):
    return ReservationEvent.objects.filter(reservation=reservation, message="deposit_claimed")


def claim_emails(reservation):
    return OutboundEmail.objects.filter(reservation=reservation, kind=OutboundEmail.Kind.DEPOSIT_CLAIMED)


def received(fake_stripe, reservation) -> int:
    return sum(i["amount_received"] for i in fake_stripe.payment_intents.values() if i.get("metadata", {}).get("reservation_id") == reservation.pk)


class TestAClaimedOrReleasedDepositIsNeverHeldAgain:
    def test_placing_again_after_a_claim_holds_nothing(self, api, demo_property, fake_stripe, webhook):
        """Red team: claim 100 of 300, then `place_security_deposits --as-of <check-in>` held 300 again."""
        reservation, deposit = placed(api, fake_stripe, webhook)
        claim(deposit, "100")
        assert_deposits_match_provider(reservation, fake_stripe)
        for day in (reservation.check_in, reservation.check_in + timedelta(days=1), reservation.check_out):
            call_command("place_security_deposits", "--as-of", str(day))
            assert_deposits_match_provider(reservation, fake_stripe)
        assert len(holds(fake_stripe)) == 1 and reservation.security_deposits.count() == 1
        with pytest.raises(InvalidTransition):
            claim(deposit, "300")
        assert received(fake_stripe, reservation) == 10000  # 100 of a 300 deposit, never 400

    def test_catching_up_with_an_earlier_date_after_the_release_holds_nothing(self, api, demo_property, fake_stripe, webhook):
        reservation, deposit = placed(api, fake_stripe, webhook)
        assert release_security_deposits(as_of=reservation.check_out + timedelta(days=3)) == {"released": 1}
        assert place_security_deposits(as_of=reservation.check_out) == {"closed": 1}  # an operator re-runs a missed day
        assert len(holds(fake_stripe)) == 1
        assert_deposits_match_provider(reservation, fake_stripe)


class TestAClaimWhoseAnswerWasLost:
    def test_the_capture_is_read_back_recorded_and_emailed_once(self, api, demo_property, fake_stripe, webhook):
        """Red team: Stripe captured 120, the service showed nothing claimed, a retry failed, the
        release job failed every run."""
        reservation, deposit = placed(api, fake_stripe, webhook)
        fake_stripe.lose_answers = True
        deposit = claim(deposit, "120")
        assert (deposit.status, deposit.claimed_amount) == ("claimed", Decimal("120.00"))
        assert_deposits_match_provider(reservation, fake_stripe)
        [capture] = fake_stripe.calls_to("POST", f"/v1/payment_intents/{deposit.provider_id}/capture")
        assert "12000" not in capture.headers["idempotency-key"]  # the key names the hold and the try, not the amount
        with pytest.raises(InvalidTransition, match="still held"):
            claim(deposit, "150")  # a second try with another amount takes nothing more
        fake_stripe.lose_answers = False
        assert release_security_deposits(as_of=reservation.check_out + timedelta(days=3)) == {}
        assert claimed_events(reservation).count() == 1 and claim_emails(reservation).count() == 1
        assert received(fake_stripe, reservation) == 12000
        assert_deposits_match_provider(reservation, fake_stripe)

    def test_with_the_provider_unreadable_the_claim_waits_and_the_job_settles_it(self, api, demo_property, fake_stripe, webhook):
        reservation, deposit = placed(api, fake_stripe, webhook)
        fake_stripe.lose_answers, fake_stripe.fail_reads_with = True, 500
        with pytest.raises(PaymentProviderError, match="do not claim again"):
            claim(deposit, "120")
        assert_deposits_match_provider(reservation, fake_stripe)  # captured at Stripe, pending here
        with pytest.raises(InvalidTransition, match="still being settled"):
            claim(deposit, "80")  # nothing is sent while the first claim is unsettled
        fake_stripe.lose_answers, fake_stripe.fail_reads_with = False, None
        assert release_security_deposits(as_of=reservation.check_in) == {"claimed": 1}
        deposit.refresh_from_db()
        assert (deposit.status, deposit.claimed_amount, deposit.pending) == ("claimed", Decimal("120.00"), "")
        assert claimed_events(reservation).count() == 1 and claim_emails(reservation).count() == 1
        assert release_security_deposits(as_of=reservation.check_out + timedelta(days=3)) == {}
        assert_deposits_match_provider(reservation, fake_stripe)

    def test_a_refused_capture_of_a_hold_released_at_the_provider_records_the_release(self, api, demo_property, fake_stripe, webhook):
        reservation, deposit = placed(api, fake_stripe, webhook)
        fake_stripe.payment_intents[deposit.provider_id].update(status="canceled", amount_capturable=0)  # released in Stripe's dashboard
        with pytest.raises(InvalidTransition, match="already been released"):
            claim(deposit, "50")
        deposit.refresh_from_db()
        assert deposit.status == "released" and claim_emails(reservation).count() == 0
        assert_deposits_match_provider(reservation, fake_stripe)


class TestAnInterruptedRelease:
    def test_a_lost_answer_is_read_back_as_released(self, api, demo_property, fake_stripe, webhook):
        reservation, deposit = placed(api, fake_stripe, webhook)
        fake_stripe.lose_answers = True
        assert release_security_deposits(as_of=reservation.check_out + timedelta(days=3)) == {"released": 1}
        fake_stripe.lose_answers = False
        assert_deposits_match_provider(reservation, fake_stripe)
        assert release_security_deposits(as_of=reservation.check_out + timedelta(days=4)) == {}

    def test_a_worker_killed_mid_release_is_settled_by_a_later_run(self, api, demo_property, fake_stripe, webhook, monkeypatch):
        reservation, deposit = placed(api, fake_stripe, webhook)
        cancel = StripeSavedCards.cancel

        class WorkerKilled(BaseException):
            pass

        def cancel_then_die(self, payment_intent_id, **options):
            cancel(self, payment_intent_id, **options)
            raise WorkerKilled

        monkeypatch.setattr(StripeSavedCards, "cancel", cancel_then_die)
        with pytest.raises(WorkerKilled):
            release_security_deposits(as_of=reservation.check_out + timedelta(days=3))
        monkeypatch.setattr(StripeSavedCards, "cancel", cancel)
        assert fake_stripe.payment_intents[deposit.provider_id]["status"] == "canceled"
        assert_deposits_match_provider(reservation, fake_stripe)
        with time_machine.travel(timezone.now() + timedelta(minutes=10)):  # the dead worker's call is abandoned
            assert release_security_deposits(as_of=reservation.check_out + timedelta(days=4)) == {"released": 1}
        assert assert_deposits_match_provider(reservation, fake_stripe)[0].status == "released"
        assert release_security_deposits(as_of=reservation.check_out + timedelta(days=5)) == {}

    def test_a_provider_outage_keeps_it_pending_and_flags_the_stay_once(self, api, demo_property, fake_stripe, webhook):
        reservation, deposit = placed(api, fake_stripe, webhook)
        fake_stripe.fail_with = 500
        for days in range(3, 8):
            release_security_deposits(as_of=reservation.check_out + timedelta(days=days))
            assert_deposits_match_provider(reservation, fake_stripe)
        flags = ReservationEvent.objects.filter(reservation=reservation, message="flag_deposit_unsettled")
        assert flags.count() == 1
        reservation.refresh_from_db()
        assert attention(reservation).startswith(f"Security deposit {deposit.provider_id}")
        fake_stripe.fail_with = None
        assert release_security_deposits(as_of=reservation.check_out + timedelta(days=8)) == {"released": 1}
        reservation.refresh_from_db()
        assert attention(reservation) == ""
        assert_deposits_match_provider(reservation, fake_stripe)


def test_a_renewal_keeps_the_old_hold_pending_release_until_its_cancel_is_confirmed(api, demo_property, fake_stripe, webhook):
    """Red team: the old authorisation was marked renewed while its cancel failed, and stayed on the
    guest's card until Stripe's 7-day lapse."""
    reservation = book(api, fake_stripe, webhook, nights=10)
    day, release_on = reservation.check_in - timedelta(days=1), reservation.check_out + timedelta(days=3)
    renew_on = day + timedelta(days=6)
    while day <= release_on:
        fake_stripe.fail_paths = {"/cancel": 500} if renew_on <= day < renew_on + timedelta(days=2) else {}
        call_command("place_security_deposits", "--as-of", str(day))
        assert_deposits_match_provider(reservation, fake_stripe)
        call_command("release_security_deposits", "--as-of", str(day))
        deposits = assert_deposits_match_provider(reservation, fake_stripe)
        if day == renew_on:
            assert [d.status for d in deposits] == ["replaced", "held"]
        day += timedelta(days=1)
    statuses = list(reservation.security_deposits.values_list("status", flat=True))
    assert statuses == ["renewed", "renewed", "released"]


def test_a_capture_for_a_cancelled_stay_is_given_back_in_full_once(api, demo_property, fake_stripe, webhook):
    reservation, deposit = placed(api, fake_stripe, webhook)
    fake_stripe.lose_answers, fake_stripe.fail_reads_with = True, 500
    with pytest.raises(PaymentProviderError):
        claim(deposit, "120")
    fake_stripe.lose_answers, fake_stripe.fail_reads_with = False, None
    cancel_by_guest(reservation.manage_token)
    assert release_security_deposits(as_of=reservation.check_in) == {"claimed": 1}
    deposit.refresh_from_db()
    assert (deposit.status, deposit.claimed_amount, deposit.given_back, deposit.pending) == ("claimed", Decimal("120.00"), Decimal("120.00"), "")
    [refund] = [r for r in fake_stripe.refunds if r["payment_intent"] == deposit.provider_id]
    assert refund["amount"] == 12000 and deposit.given_back_id == refund["id"]
    reservation.refresh_from_db()
    assert attention(reservation).startswith(f"Security deposit {deposit.provider_id}")
    for days in (0, 1, 5):
        release_security_deposits(as_of=reservation.check_out + timedelta(days=days))
        assert_deposits_match_provider(reservation, fake_stripe)
    assert len([r for r in fake_stripe.refunds if r["payment_intent"] == deposit.provider_id]) == 1
    assert claim_emails(reservation).count() == 0  # the guest is not told of a claim that was given back


def test_claiming_needs_the_refund_permission_on_the_screen_and_the_post(api, demo_property, fake_stripe, webhook, staff):
    reservation, deposit = placed(api, fake_stripe, webhook)
    url = reverse("admin:payments_securitydeposit_claim", args=[deposit.pk])
    client = staff("view_securitydeposit", "change_securitydeposit")
    assert client.get(url).status_code == 403
    assert client.post(url, {"amount": "80", "reason": "forged"}).status_code == 403
    deposit.refresh_from_db()
    assert deposit.status == "held" and not fake_stripe.calls_to("POST", f"/v1/payment_intents/{deposit.provider_id}/capture")


def test_the_books_match_the_provider_through_a_long_stay_with_lost_answers(api, demo_property, fake_stripe, webhook):
    """Place, renew (its answers lost), re-run the jobs with earlier dates, claim with a lost answer,
    release: after each step the service's deposits are the provider's payment intents."""
    reservation = book(api, fake_stripe, webhook, nights=10)
    day, release_on = reservation.check_in - timedelta(days=1), reservation.check_out + timedelta(days=3)
    while day < reservation.check_out:
        fake_stripe.lose_answers = day == reservation.check_in + timedelta(days=5)  # the renewal's release
        for run in (day, day - timedelta(days=1)):  # an operator re-runs yesterday too
            call_command("place_security_deposits", "--as-of", str(run))
            assert_deposits_match_provider(reservation, fake_stripe)
            call_command("release_security_deposits", "--as-of", str(run))
            assert_deposits_match_provider(reservation, fake_stripe)
        day += timedelta(days=1)
    fake_stripe.lose_answers = True
    claim(reservation.security_deposits.get(status="held"), "75")
    fake_stripe.lose_answers = False
    assert_deposits_match_provider(reservation, fake_stripe)
    while day <= release_on + timedelta(days=1):
        for command in ("place_security_deposits", "release_security_deposits"):
            call_command(command, "--as-of", str(day))
            assert_deposits_match_provider(reservation, fake_stripe)
        day += timedelta(days=1)
    assert list(reservation.security_deposits.values_list("status", flat=True)) == ["renewed", "claimed"]  # claimed at check-out, before a second renewal
    assert received(fake_stripe, reservation) == 7500


def test_two_staff_claiming_at_once_record_and_email_one_claim(transactional_db, api, demo_property, fake_stripe, webhook):
    """Both pages claim 100 at once; the provider is slow. One capture, one record, one email."""
    reservation, deposit = placed(api, fake_stripe, webhook)
    fake_stripe.delay_seconds = 1
    barrier, results = threading.Barrier(2), [None, None]

    def run(i, actor):
        try:
            barrier.wait(timeout=10)
            results[i] = claim(deposit, "100", actor=actor)
        except BookingError as error:
            results[i] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, actor)) for i, actor in enumerate(("staff anna", "staff bruno"))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(type(r).__name__ for r in results) == ["InvalidTransition", "SecurityDeposit"], results
    assert claimed_events(reservation).count() == 1 and claim_emails(reservation).count() == 1
    assert received(fake_stripe, reservation) == 10000
    assert_deposits_match_provider(reservation, fake_stripe)


def test_staff_read_an_unanswered_claim_in_the_back_office_language(api, demo_property, fake_stripe, webhook, staff):
    reservation, deposit = placed(api, fake_stripe, webhook)
    client = staff("view_securitydeposit", "change_securitydeposit", "refund_reservation")
    fake_stripe.fail_with = 500
    url = reverse("admin:payments_securitydeposit_claim", args=[deposit.pk])
    page = client.post(url, {"amount": "80", "reason": "Un bicchiere rotto."}, headers={"accept-language": "it"}, follow=True).content.decode()
    assert "Il fornitore di pagamento non ha risposto" in page
    assert_deposits_match_provider(reservation, fake_stripe)
    SecurityDeposit.objects.filter(pk=deposit.pk).update(sent_at=timezone.now())  # the job is sending it again right now
    fake_stripe.fail_with = None
    page = client.post(url, {"amount": "90", "reason": "Due bicchieri."}, headers={"accept-language": "de"}, follow=True).content.decode()
    assert "mit dem Zahlungsanbieter abgeglichen" in page  # refused while the first claim is at the provider
    SecurityDeposit.objects.filter(pk=deposit.pk).update(sent_at=None)  # that process died
    page = client.post(url, {"amount": "90", "reason": "Due bicchieri."}, follow=True).content.decode()
    assert "Only a deposit still held on the card can be claimed." in page  # the first claim was sent again and taken
    deposit.refresh_from_db()
    assert (deposit.status, deposit.claimed_amount, deposit.claim_reason) == ("claimed", Decimal("80.00"), "Un bicchiere rotto.")
    assert claim_emails(reservation).count() == 1 and received(fake_stripe, reservation) == 8000
    assert_deposits_match_provider(reservation, fake_stripe)


def test_no_renewal_while_a_claim_on_the_hold_is_unsettled(api, demo_property, fake_stripe, webhook):
    reservation, deposit = placed(api, fake_stripe, webhook, nights=10)
    fake_stripe.lose_answers, fake_stripe.fail_reads_with = True, 500
    with pytest.raises(PaymentProviderError):
        claim(deposit, "60")
    fake_stripe.lose_answers, fake_stripe.fail_reads_with = False, None
    renew_on = deposit.placed_on + timedelta(days=6)
    assert place_security_deposits(as_of=renew_on) == {"held": 1}  # the claim is settled first
    assert len(holds(fake_stripe)) == 1
    assert release_security_deposits(as_of=renew_on) == {"claimed": 1}
    assert place_security_deposits(as_of=renew_on + timedelta(days=1)) == {"closed": 1}
    assert len(holds(fake_stripe)) == 1 and received(fake_stripe, reservation) == 6000
    assert_deposits_match_provider(reservation, fake_stripe)
