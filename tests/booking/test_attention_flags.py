"""Flags for staff are rows (AttentionFlag: a code and its parameters), several open on one stay,
raised and resolved by code by the services, each shown in the reader's language; staff resolve a
flag on the reservation's page (recorded with who did it), they no longer edit a sentence."""

from datetime import date
from decimal import Decimal
from html import unescape

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils.translation import override

from booking.reservations.attention import attention_note
from booking.reservations.emails import confirmation_context
from booking.reservations.models import AttentionFlag, Reservation
from booking.reservations.services.audit import flag_for_staff, raise_flag, resolve_flags
from tests.booking.test_admin_writes_through_services import change_form
from tests.booking.test_back_office import CHANGELIST, change_page, paid, people  # noqa: F401 (fixtures)
from tests.payments.conftest import fake_stripe, stay, webhook  # noqa: F401 (fixtures)

OVERDUE = {"amount": Decimal("450.00"), "currency": "EUR", "due": date(2031, 3, 1), "days": 5, "reason": "Your card was declined."}
OVERDUE_EN = "Balance overdue: 450.00 EUR due on"  # the date then in the reader's format
OVERDUE_IT = "Saldo scaduto: 450,00 EUR dovuti il 01/03/2031 sono stati rifiutati per 5 giorni (Your card was declined.). Contatta l’ospite."
NO_ID = {"amount": Decimal("120.00"), "currency": "EUR"}
NO_ID_EN = "Refund of 120.00 EUR owed but no payment id is known: refund it by hand."
NO_ID_IT = "Rimborso di 120,00 EUR dovuto ma nessun id di pagamento è noto: rimborsalo a mano."


def page(client, url: str, language: str = "en") -> str:
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=f"{language},en;q=0.5")
    assert response.status_code == 200
    return unescape(response.content.decode())


def test_two_flags_on_one_stay_are_both_shown(people, paid):  # noqa: F811
    flag_for_staff(paid.pk, actor="balance job", message="flag_balance_overdue", params=OVERDUE)
    flag_for_staff(paid.pk, actor="refund job", message="flag_refund_no_payment_id", params=NO_ID)
    owner = people["owner"]
    for url in (change_page(paid), CHANGELIST, "/admin/"):
        shown = page(owner, url)
        assert OVERDUE_EN in shown and NO_ID_EN in shown, url


def test_resolving_one_flag_leaves_the_other(paid):  # noqa: F811
    flag_for_staff(paid.pk, actor="balance job", message="flag_balance_overdue", params=OVERDUE)
    flag_for_staff(paid.pk, actor="refund job", message="flag_refund_no_payment_id", params=NO_ID)
    assert resolve_flags(paid, "flag_balance_overdue", by="balance job") == 1
    with override("en"):
        assert attention_note(paid) == NO_ID_EN
    done = AttentionFlag.objects.get(reservation=paid, code="flag_balance_overdue")
    assert done.resolved_at is not None and done.resolved_by == "balance job"


def test_staff_resolve_a_flag_on_the_reservations_page(people, paid):  # noqa: F811
    flag_for_staff(paid.pk, actor="balance job", message="flag_balance_overdue", params=OVERDUE)
    flag_for_staff(paid.pk, actor="refund job", message="flag_refund_no_payment_id", params=NO_ID)
    staff = people["staff"]
    form = change_form(staff, paid.pk)
    first = AttentionFlag.objects.filter(reservation=paid).order_by("raised_at", "id").first()
    assert form["attention_flags-0-id"] == str(first.pk) and first.code == "flag_balance_overdue"
    assert staff.post(change_page(paid), form | {"attention_flags-0-resolve": "on"}).status_code == 302
    first.refresh_from_db()
    assert first.resolved_at is not None and first.resolved_by == "staff stefano"
    for url in (CHANGELIST, "/admin/"):  # (the page's history keeps both flag lines)
        shown = page(staff, url)
        assert NO_ID_EN in shown and OVERDUE_EN not in shown, url


def test_a_flag_reads_in_italian_to_an_italian_staff_member(people, paid):  # noqa: F811
    flag_for_staff(paid.pk, actor="balance job", message="flag_balance_overdue", params=OVERDUE)
    flag_for_staff(paid.pk, actor="refund job", message="flag_refund_no_payment_id", params=NO_ID)
    for url in (change_page(paid), CHANGELIST, "/admin/"):
        shown = page(people["staff"], url, "it")
        assert OVERDUE_IT in shown and NO_ID_IT in shown, url
        assert NO_ID_EN not in shown, url


def test_raising_the_same_code_twice_keeps_one_open_flag_with_the_latest_parameters(paid):  # noqa: F811
    raise_flag(paid, "flag_refund_no_payment_id", NO_ID)
    raise_flag(paid, "flag_refund_no_payment_id", {"amount": Decimal("80.00"), "currency": "EUR"})
    open_flags = AttentionFlag.objects.filter(reservation=paid, resolved_at__isnull=True)
    assert [(flag.code, flag.params["amount"]) for flag in open_flags] == [("flag_refund_no_payment_id", "80.00")]
    resolve_flags(paid, "flag_refund_no_payment_id", by="refund job")
    raise_flag(paid, "flag_refund_no_payment_id", NO_ID)  # raised again after it was resolved: a new open flag
    assert AttentionFlag.objects.filter(reservation=paid).count() == 2
    assert AttentionFlag.objects.filter(reservation=paid, resolved_at__isnull=True).count() == 1


def test_the_owners_copy_lists_the_open_flags_in_english(paid):  # noqa: F811
    flag_for_staff(paid.pk, actor="refund job", message="flag_refund_no_payment_id", params=NO_ID)
    with override("en"):
        assert confirmation_context(paid)["attention"] == NO_ID_EN


@pytest.mark.django_db(transaction=True)
def test_the_migration_turns_each_needs_attention_sentence_into_an_open_flag(api, demo_property):
    coded = api.post("/api/v1/reservations", stay(offset=90)).json()["id"]
    typed = api.post("/api/v1/reservations", stay(offset=100)).json()["id"]
    executor = MigrationExecutor(connection)
    executor.migrate([("reservations", "0001_initial")])
    before = executor.loader.project_state([("reservations", "0001_initial")]).apps
    Old, OldEvent = before.get_model("reservations", "Reservation"), before.get_model("reservations", "ReservationEvent")
    Old.objects.filter(pk=coded).update(needs_attention=NO_ID_EN)
    params = {"amount": "120.00", "currency": "EUR"}
    OldEvent.objects.create(reservation_id=coded, action="flag", actor="refund job", note=NO_ID_EN, message="flag_refund_no_payment_id", params=params)
    Old.objects.filter(pk=typed).update(needs_attention="Chiamare il cliente domani")  # staff's words, no flag line

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    flag = AttentionFlag.objects.get(reservation_id=coded)
    assert (flag.code, flag.params, flag.resolved_at) == ("flag_refund_no_payment_id", params, None)
    with override("it"):
        assert attention_note(Reservation.objects.get(pk=coded)) == NO_ID_IT
    note = AttentionFlag.objects.get(reservation_id=typed)
    assert (note.code, note.params) == ("note", {"text": "Chiamare il cliente domani"})
    with override("de"):
        assert attention_note(Reservation.objects.get(pk=typed)) == "Chiamare il cliente domani"
