"""The history lines of date changes, bookings made by staff and hold reminders are read in the back
office's language too (booking/reservations/event_messages.py), with dates and amounts in the reader's formats."""

from datetime import date
from decimal import Decimal

from django.utils.translation import override

from booking.reservations.event_messages import action_label, actor_label, describe, english_note, to_params

CHANGE = to_params(
    {
        "old_check_in": date(2027, 2, 12),
        "old_check_out": date(2027, 2, 15),
        "check_in": date(2027, 3, 1),
        "check_out": date(2027, 3, 4),
        "old_total": Decimal("900.00"),
        "total": Decimal("1020.50"),
        "refund": Decimal("0"),
        "owed": Decimal("120.50"),
        "currency": "EUR",
    }
)


def test_a_date_change_reads_in_italian_with_local_dates_and_amounts():
    with override("it"):
        line = describe("dates_changed_owed", CHANGE, "")
        assert line == "12/02/2027–15/02/2027 → 01/03/2027–04/03/2027; totale 900,00 EUR → 1.020,50 EUR; 120,50 EUR da pagare"
        assert action_label("change_dates") == "date cambiate"
        assert actor_label("guest (manage page)") == "l’ospite (pagina della prenotazione)"


def test_the_note_keeps_the_english_sentence():
    assert english_note("dates_changed_owed", CHANGE) == "2027-02-12–2027-02-15 → 2027-03-01–2027-03-04; total 900.00 EUR → 1020.50 EUR; 120.50 EUR owed"


def test_a_booking_by_staff_and_a_hold_reminder_read_in_german():
    with override("de"):
        special = describe("booked_for_guest_special_price", to_params({"hours": 24, "price": Decimal("500.00"), "currency": "EUR"}), "")
        assert special == "im Backoffice für den Gast gebucht, 24 Std. reserviert; Zahlungslink per E-Mail gesendet; Sonderpreis 500,00 EUR vor Kurtaxe"
        assert describe("hold_reminder_queued", {}, "") == "eine Erinnerung an die nicht abgeschlossene Buchung eingereiht"
        assert action_label("owner_booking") == "vom Personal gebucht"


def test_the_reasons_a_payment_could_not_be_taken_read_in_italian():
    from booking.reservations.event_messages import to_params

    params = to_params({"amount": Decimal("300.00"), "currency": "EUR", "refund": "re_1", "reason": "paid for a reservation that is cancelled"})
    with override("it"):
        assert "pagamento per una prenotazione cancellata" in describe("flag_payment_refunded", params, "")
        assert describe("", {}, "the balance was paid twice: the card was charged while the guest paid the page").startswith(
            "il saldo è stato pagato due volte"
        )
