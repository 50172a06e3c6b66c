"""Why a stay needs attention reads in the back office's language (booking/reservations/attention.py): a flag
is a row with its code and parameters (AttentionFlag), the history's flag line keeps its English
sentence; the reservation list, its page and the dashboard show the code's sentence. A note in a
person's words is shown as written."""

from datetime import date
from decimal import Decimal
from html import unescape

import pytest
from django.utils.translation import override

from booking.payments.services.cancellation import RefundPending, issue_pending_refund
from booking.payments.services.refunds import refund_payment
from booking.reservations.attention import attention_note
from booking.reservations.event_messages import describe, to_params
from booking.reservations.models import Reservation
from booking.reservations.services.audit import flag_for_staff
from tests.booking.test_back_office import CHANGELIST, change_page, paid, people  # noqa: F401 (fixtures)
from tests.payments.conftest import fake_stripe, webhook  # noqa: F401 (fixtures)

OVERDUE = {"amount": Decimal("450.00"), "currency": "EUR", "due": date(2031, 3, 1), "days": 5, "reason": "Your card was declined."}
ENGLISH = "Balance overdue: 450.00 EUR due on 2031-03-01 was refused for 5 days (Your card was declined.). Contact the guest."
ITALIAN = "Saldo scaduto: 450,00 EUR dovuti il 01/03/2031 sono stati rifiutati per 5 giorni (Your card was declined.). Contatta l’ospite."
GERMAN = "Restbetrag überfällig: 450,00 EUR, fällig am 01.03.2031, wurden 5 Tage lang abgelehnt (Your card was declined.). Kontaktieren Sie den Gast."


@pytest.fixture
def owner(people):  # noqa: F811 (a fixture)
    return people["owner"]


def page(client, url: str, language: str) -> str:
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=f"{language},en;q=0.5")
    assert response.status_code == 200
    return unescape(response.content.decode())


def test_the_flag_keeps_english_and_reads_in_the_readers_language(paid):  # noqa: F811
    flag_for_staff(paid.pk, actor="balance job", message="flag_balance_overdue", params=OVERDUE)
    paid.refresh_from_db()
    line = paid.events.get(action="flag")
    assert (line.note, line.message) == (ENGLISH, "flag_balance_overdue")
    with override("it"):
        assert attention_note(paid) == ITALIAN
    with override("de"):
        assert attention_note(paid) == GERMAN


def test_list_page_and_dashboard_in_italian_and_german(owner, paid):  # noqa: F811
    flag_for_staff(paid.pk, actor="balance job", message="flag_balance_overdue", params=OVERDUE)
    for language, sentence in (("it", ITALIAN), ("de", GERMAN)):
        assert sentence in page(owner, CHANGELIST, language)
        assert sentence in page(owner, change_page(paid), language)
        dashboard = page(owner, "/admin/", language)
        assert sentence in dashboard and ENGLISH not in dashboard


def test_a_service_flag_in_italian(owner, paid):  # noqa: F811
    Reservation.objects.filter(pk=paid.pk).update(payment_intent_id="", refund_pending=Decimal("120.00"))
    with pytest.raises(RefundPending):
        issue_pending_refund(paid.pk, actor="refund job")
    shown = page(owner, change_page(paid), "it")
    assert "Rimborso di 120,00 EUR dovuto ma nessun id di pagamento è noto: rimborsalo a mano." in shown


def test_a_note_in_a_persons_words_is_shown_as_written_beside_the_coded_flag(owner, paid):  # noqa: F811
    flag_for_staff(paid.pk, actor="balance job", message="flag_balance_overdue", params=OVERDUE)
    flag_for_staff(paid.pk, actor="api", note="late payment for nights taken meanwhile")  # free text, no code
    assert "late payment for nights taken meanwhile" in page(owner, "/admin/", "de")
    shown = page(owner, change_page(paid), "it")
    assert "late payment for nights taken meanwhile" in shown and ITALIAN in shown  # both flags are open
    paid.refresh_from_db()
    with override("it"):
        assert attention_note(paid) == f"{ITALIAN} · late payment for nights taken meanwhile"


def test_a_fixed_reason_inside_a_flag_is_translated():
    params = to_params({"reason": "a second payment for a reservation already paid"})
    with override("de"):
        assert describe("flag_payment_refunded_nothing", params, "") == "Zahlung erstattet: eine zweite Zahlung für eine bereits bezahlte Reservierung."


def test_a_wrong_amount_inside_a_flag_reads_with_its_amounts_in_the_readers_language():
    """booking/payments/events.py writes "paid 100.00 EUR but the total is 1128.00 EUR"."""
    params = to_params({"reason": "paid 100.00 EUR but the total is 1128.00 EUR"})
    with override("it"):
        assert describe("flag_payment_refunded_nothing", params, "") == "Pagamento rimborsato: pagati 100,00 EUR ma il totale è 1.128,00 EUR."
    with override("de"):
        assert "100,00 EUR bezahlt, aber der Gesamtbetrag ist 1.128,00 EUR" in describe("flag_payment_refunded_nothing", params, "")
    with override("en"):
        assert describe("flag_payment_refunded_nothing", params, "") == "Payment refunded: paid 100.00 EUR but the total is 1,128.00 EUR."


def test_refund_rows_and_lines_in_german_and_italian(owner, paid, fake_stripe):  # noqa: F811
    refund_payment(paid.pk, actor="staff admin", amount=Decimal("10.00"), reason="dates changed: paid beyond the new total")
    line = paid.events.filter(action="refund").last()
    assert line.note.startswith("refund by staff re_") and line.note.endswith(
        " of 10.00 EUR by staff admin: dates changed: paid beyond the new total; refunded so far 10.00 EUR"
    )
    german = page(owner, change_page(paid), "de")
    assert "Daten geändert: mehr bezahlt als der neue Gesamtbetrag" in german  # the refund row's reason
    assert "Erstattung durch das Personal" in german and "Mitarbeiter admin" in german
    assert "durch Mitarbeiter admin: Daten geändert: mehr bezahlt als der neue Gesamtbetrag; bisher erstattet 10,00 EUR" in german  # the history
    italian = page(owner, change_page(paid), "it")
    assert "rimborso dal personale" in italian and "date modificate: pagato oltre il nuovo totale; rimborsato finora 10,00 EUR" in italian
    assert "dates changed" not in italian
