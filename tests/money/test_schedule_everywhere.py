"""payment_schedule at the top level of availability, quote and each find_stays entry, and in a
reservation's payment, with the owner's terms (demo: 30 % deposit, balance 30 days before)."""

from datetime import timedelta
from decimal import Decimal

from booking.catalog import payment_schedule as schedules
from booking.reservations.models import Reservation
from tests.dates import future


def amounts(schedule):
    return [Decimal(str(e["amount"])) for e in schedule]


def test_availability_and_quote_of_a_far_stay_show_deposit_and_balance(api, demo_property):
    check_in, check_out = future(90), future(93)
    availability = api.get("/api/v1/availability", check_in=check_in, check_out=check_out, guests=2).json()
    total = Decimal(str(availability["price_breakdown"]["total"]))
    deposit = (total * Decimal("0.30")).quantize(Decimal("0.01"), rounding="ROUND_HALF_UP")
    assert availability["payment_schedule"] == [
        {"type": "immediate", "amount": float(deposit), "due_date": None},
        {"type": "deferred", "amount": float(total - deposit), "due_date": str(check_in - timedelta(days=30))},
    ]
    quote = api.post("/api/v1/quote", {"check_in": str(check_in), "check_out": str(check_out), "guests": 2}).json()
    assert quote["payment_schedule"] == availability["payment_schedule"]


def test_a_near_stay_is_paid_in_full(api, demo_property):
    availability = api.get("/api/v1/availability", check_in=future(30), check_out=future(33), guests=2).json()
    assert availability["payment_schedule"] == [{"type": "immediate", "amount": availability["price_breakdown"]["total"], "due_date": None}]


def test_a_quote_in_another_currency_schedules_its_own_total(api, demo_property):
    quote = api.post("/api/v1/quote", {"check_in": str(future(90)), "check_out": str(future(93)), "guests": 2, "currency": "USD"}).json()
    assert sum(amounts(quote["payment_schedule"])) == Decimal(str(quote["total"]))


def test_owner_terms_apply_at_once(api, demo_property):
    demo_property.deposit_percent = 0
    demo_property.save()
    availability = api.get("/api/v1/availability", check_in=future(90), check_out=future(93), guests=2).json()
    assert len(availability["payment_schedule"]) == 1


def test_each_found_stay_has_its_schedule(api, demo_property):
    found = api.get("/api/v1/stays", nights=3, guests=2, start=str(future(60)), end=str(future(70))).json()
    assert found["stays"]
    for stay in found["stays"]:
        assert sum(amounts(stay["payment_schedule"])) == Decimal(str(stay["total"]))
        assert stay["payment_schedule"][1]["type"] == "deferred"


def test_a_hold_keeps_its_schedule_and_shows_what_is_due_now_and_later(api, demo_property):
    check_in = future(90)
    body = api.post("/api/v1/reservations", {"check_in": str(check_in), "check_out": str(future(93)), "guests": 2}).json()
    payment = body["payment"]
    total = Decimal(str(body["price_breakdown"]["total"]))
    immediate, deferred = amounts(payment["payment_schedule"])
    assert immediate + deferred == total
    assert payment["status"] == "unpaid"
    assert Decimal(str(payment["amount_due"])) == immediate
    assert Decimal(str(payment["balance_due"])) == deferred
    assert payment["balance_due_date"] == str(check_in - timedelta(days=30))
    # Terms edited after the hold change nothing for it.
    demo_property.deposit_percent = 50
    demo_property.save()
    again = api.get(f"/api/v1/reservations/{body['id']}").json()["payment"]
    assert again["payment_schedule"] == payment["payment_schedule"]


def test_statuses_follow_the_money(demo_property):
    from booking.catalog.payment_state import reservation_payment_state

    def payment_status(reservation):
        return reservation_payment_state(reservation).value

    reservation = Reservation(property=demo_property, total=Decimal("1000"), amount_paid=Decimal("0"), amount_refunded=Decimal("0"))
    assert payment_status(reservation) == "unpaid"
    reservation.amount_paid = Decimal("300")
    assert payment_status(reservation) == "deposit_paid"
    reservation.amount_paid = Decimal("1000")
    assert payment_status(reservation) == "paid"
    reservation.amount_refunded = Decimal("200")
    assert payment_status(reservation) == "partially_refunded"
    reservation.amount_refunded = Decimal("1000")
    assert payment_status(reservation) == "refunded"


def test_schedule_helpers_read_what_is_stored():
    stored = [{"type": "immediate", "amount": 300.0, "due_date": None}, {"type": "deferred", "amount": 700.0, "due_date": "2027-05-02"}]
    schedule = schedules.schedule_from_json(stored)
    assert schedules.due_now(schedule) == Decimal("300.00")
    assert schedules.balance_entry(schedule).amount == Decimal("700.00")


def test_the_thank_you_page_says_what_was_paid_and_when_the_balance_is_charged(client, api, demo_property, settings):
    settings.STRIPE_SECRET_KEY = ""  # the sandbox
    link = api.post("/api/v1/payments/checkout-link", {"check_in": str(future(90)), "check_out": str(future(93)), "guests": 2}).json()
    paid = client.post(
        link["checkout_url"].replace("http://testserver", ""), {"action": "pay", "email": "a@example.com", "name": "Ada L", "phone": "+39 055 1"}
    )
    assert paid.status_code == 303
    payment = api.get(f"/api/v1/reservations/{link['reservation_id']}").json()["payment"]
    page = client.get(f"/it/thank-you?reservation_id={link['reservation_id']}").content.decode()
    assert "Saldo" in page and "addebitato sulla tua carta il" in page
    assert "data-balance-due" in page and payment["status"] == "deposit_paid"
