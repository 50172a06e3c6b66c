"""The back office an owner runs the business from (issue 14): who may act, acting through
confirmation pages, the rate calendar, seasons by day and month, and reading reservations
(money with its currency, search by date, CSV for the accountant).

Roles come from `setup_roles`: Owner does everything, Staff runs reservations, blocks and refunds
but not rates or content; a user with view-only access may look and do nothing else."""

import csv
import io
import os
from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.contrib.admin.utils import quote
from django.contrib.auth.models import Group, Permission, User
from django.core.management import call_command
from django.urls import reverse

from booking.catalog.admin import SeasonForm
from booking.catalog.models import NightRate
from booking.catalog.pricing import NightRule, PricingRules, price_night
from booking.reservations.models import DateBlock, Reservation
from tests.dates import future
from tests.payments.conftest import fake_stripe, stay, stripe_event, webhook  # noqa: F401 (fixtures)

LINK = "/api/v1/payments/checkout-link"
CHANGELIST = "/admin/reservations/reservation/"
RATES = "/admin/catalog/property/rates/"


@pytest.fixture
def paid(api, demo_property, fake_stripe, webhook):  # noqa: F811 (fixtures)
    demo_property.deposit_percent = 0  # paid in full (deposits: tests/money)
    demo_property.save()
    body = api.post(LINK, stay()).json()
    session = fake_stripe.complete(body["session_id"])
    assert webhook(stripe_event("checkout.session.completed", session)).json()["outcome"] == "confirmed"
    return Reservation.objects.get(pk=body["reservation_id"])


@pytest.fixture
def people(db):
    """A client logged in as each kind of back-office user."""
    call_command("setup_roles", stdout=open(os.devnull, "w"))

    def login(name, *, group=None, permissions=()):
        user = User.objects.create_user(name, f"{name}@example.com", "x", is_staff=True)
        if group:
            user.groups.add(Group.objects.get(name=group))
        for codename in permissions:
            user.user_permissions.add(Permission.objects.get(codename=codename))
        from django.test import Client

        client = Client()
        client.force_login(user)
        return client

    return {
        "owner": login("olivia", group="Owner"),
        "staff": login("stefano", group="Staff"),
        "viewer": login("vera", permissions=["view_reservation", "view_property"]),
    }


def change_page(reservation):
    return reverse("admin:reservations_reservation_change", args=[quote(reservation.pk)])


def cancel_page(reservation):
    return reverse("admin:reservations_reservation_cancel", args=[quote(reservation.pk)])


def refund_page(reservation):
    return reverse("admin:reservations_reservation_refund", args=[quote(reservation.pk)])


class TestPermissionToAct:
    def test_a_view_only_user_is_offered_no_cancel_or_refund(self, people, paid):
        viewer = people["viewer"]
        page = viewer.get(change_page(paid))
        assert page.status_code == 200
        assert b"reservation-cancel" not in page.content and b"reservation-refund" not in page.content
        changelist = viewer.get(CHANGELIST)
        assert changelist.status_code == 200
        assert b"cancel_selected" not in changelist.content and b"refund_selected" not in changelist.content

    @pytest.mark.parametrize("action", ["cancel_selected", "refund_selected"])
    def test_a_forged_action_post_is_refused_and_changes_nothing(self, people, paid, fake_stripe, action):  # noqa: F811
        response = people["viewer"].post(CHANGELIST, {"action": action, "_selected_action": [paid.pk], "apply": "1", "refund": "full", "amount": "10"})
        assert response.status_code == 403
        unchanged = Reservation.objects.get(pk=paid.pk)
        assert unchanged.status == "confirmed" and unchanged.amount_refunded == 0 and not fake_stripe.refunds

    def test_forged_posts_to_the_confirmation_pages_are_refused(self, people, paid, fake_stripe):  # noqa: F811
        viewer = people["viewer"]
        assert viewer.get(cancel_page(paid)).status_code == 403
        assert viewer.post(cancel_page(paid), {"apply": "1", "refund": "full"}).status_code == 403
        assert viewer.get(refund_page(paid)).status_code == 403
        assert viewer.post(refund_page(paid), {"amount": "10.00", "refunded_before": "0.00"}).status_code == 403
        assert Reservation.objects.get(pk=paid.pk).status == "confirmed" and not fake_stripe.refunds

    def test_changing_a_reservation_without_refund_permission_cannot_refund(self, people, paid, fake_stripe):  # noqa: F811
        user = User.objects.create_user("carla", is_staff=True)
        user.user_permissions.add(*Permission.objects.filter(codename__in=["view_reservation", "change_reservation"]))
        from django.test import Client

        client = Client()
        client.force_login(user)
        page = client.get(change_page(paid))
        assert b"reservation-cancel" in page.content and b"reservation-refund" not in page.content
        assert client.post(refund_page(paid), {"amount": "10.00", "refunded_before": "0.00"}).status_code == 403
        assert client.post(CHANGELIST, {"action": "refund_selected", "_selected_action": [paid.pk]}).status_code == 403
        assert not fake_stripe.refunds

    @pytest.mark.parametrize("role", ["owner", "staff"])
    def test_owner_and_staff_see_both_buttons(self, people, paid, role):
        page = people[role].get(change_page(paid))
        assert b"reservation-cancel" in page.content and b"reservation-refund" in page.content

    def test_staff_may_block_nights_but_not_set_rates(self, people, demo_property):
        staff = people["staff"]
        night = future(200)
        assert staff.get(RATES).status_code == 200
        price = {"first_night": night, "last_night": night, "what": "price", "nightly_rate": "999"}
        assert staff.post(RATES, price).status_code == 403
        assert not NightRate.objects.exists()
        blocked = staff.post(RATES, {"first_night": night, "last_night": night, "what": "block", "reason": "painting"})
        assert blocked.status_code == 302 and DateBlock.objects.filter(start=night, reason="painting").exists()

    @pytest.mark.parametrize(
        ("changelist", "action"),
        [
            ("/admin/partner_sync/feed/", "sync_now"),
            ("/admin/pages/blogpost/", "publish_now"),
            ("/admin/reservations/dateblock/", "delete_selected"),
        ],
    )
    def test_every_action_is_refused_to_a_user_without_its_permission(self, people, demo_property, changelist, action):
        viewer = people["viewer"]
        for codename in ("view_feed", "view_blogpost", "view_dateblock"):
            User.objects.get(username="vera").user_permissions.add(Permission.objects.get(codename=codename))
        assert viewer.post(changelist, {"action": action, "_selected_action": ["1"]}).status_code == 403

    def test_staff_cannot_edit_the_property(self, people, demo_property):
        page = people["staff"].get(reverse("admin:catalog_property_change", args=[demo_property.pk]))
        assert page.status_code == 200 and b'name="base_nightly_rate"' not in page.content  # read-only

    def test_a_user_who_may_not_read_reservations_or_the_property_gets_no_rate_calendar(self, db):
        user = User.objects.create_user("nobody", is_staff=True)
        from django.test import Client

        client = Client()
        client.force_login(user)
        assert client.get(RATES).status_code == 403


class TestCancelFromTheReservationPage:
    def test_the_confirmation_shows_the_policy_refund_and_cancels_only_when_confirmed(self, people, paid, fake_stripe):  # noqa: F811
        owner = people["owner"]
        page = owner.get(cancel_page(paid))
        assert page.status_code == 200
        assert Reservation.objects.get(pk=paid.pk).status == "confirmed"  # looking changes nothing
        # 40 days ahead: the demo policy refunds everything.
        assert f"{paid.total:,.2f} EUR".encode() in page.content
        done = owner.post(cancel_page(paid), {"apply": "1", "refund": "policy"}, follow=True)
        said = [str(m) for m in done.context["messages"]]
        assert said == ["Cancelled 1 reservation(s); the guests are emailed."]
        cancelled = Reservation.objects.get(pk=paid.pk)
        assert cancelled.status == "cancelled" and cancelled.amount_refunded == paid.total
        assert len(fake_stripe.refunds) == 1

    def test_sent_twice_it_cancels_and_refunds_once(self, people, paid, fake_stripe):  # noqa: F811
        owner = people["owner"]
        owner.post(cancel_page(paid), {"apply": "1", "refund": "full"}, follow=True)
        again = owner.post(cancel_page(paid), {"apply": "1", "refund": "full"}, follow=True)
        assert [str(m) for m in again.context["messages"]] == [f"{paid.pk} was already cancelled: nothing was done."]
        assert len(fake_stripe.refunds) == 1

    def test_an_amount_above_what_is_left_is_refused_on_the_form(self, people, paid, fake_stripe):  # noqa: F811
        response = people["staff"].post(cancel_page(paid), {"apply": "1", "refund": "amount", "amount": str(paid.total + 1)})
        assert response.status_code == 200 and b"At most" in response.content
        assert Reservation.objects.get(pk=paid.pk).status == "confirmed" and not fake_stripe.refunds

    def test_a_lower_amount_is_refunded_as_given(self, people, paid, fake_stripe):  # noqa: F811
        people["staff"].post(cancel_page(paid), {"apply": "1", "refund": "amount", "amount": "100.00"})
        cancelled = Reservation.objects.get(pk=paid.pk)
        assert cancelled.status == "cancelled" and cancelled.amount_refunded == Decimal("100.00")
        assert [r["amount"] for r in fake_stripe.refunds] == [10000]


class TestRateCalendar:
    def test_the_grid_shows_each_nights_price_minimum_and_what_takes_it(self, people, paid):
        month = f"{paid.check_in:%Y-%m}"
        page = people["owner"].get(RATES, {"month": month})
        assert page.status_code == 200
        nights = {n.night: n for week in page.context["month"].weeks for n in week}
        first = nights[paid.check_in]
        assert first.taken_by.kind == "stay" and first.taken_by.reservation_id == paid.pk
        assert first.rate > 0 and first.min_nights >= 1
        assert nights[paid.check_out].taken_by is None  # the check-out day is free to arrive

    def test_setting_a_price_over_a_range_changes_the_sites_quote(self, people, api, demo_property):
        check_in, check_out = future(120), future(123)
        before = api.post("/api/v1/quote", {"check_in": str(check_in), "check_out": str(check_out), "guests": 2}).json()
        response = people["owner"].post(
            RATES, {"first_night": check_in, "last_night": check_out - timedelta(days=1), "what": "price", "nightly_rate": "333.00"}, follow=True
        )
        assert [str(m) for m in response.context["messages"]][0].endswith("price 333.00 EUR a night.")
        after = api.post("/api/v1/quote", {"check_in": str(check_in), "check_out": str(check_out), "guests": 2}).json()
        assert [n["rate"] for n in after["nightly_rates"]] == [333.0, 333.0, 333.0] != [n["rate"] for n in before["nightly_rates"]]
        assert {n["source"] for n in after["nightly_rates"]} == {"rate_calendar"}

    def test_a_minimum_stay_set_for_a_night_applies_to_arrivals_that_night(self, people, api, demo_property):
        night = future(130)
        people["owner"].post(RATES, {"first_night": night, "last_night": night, "what": "min_nights", "min_nights": "6"})

        def available(nights):
            return api.get("/api/v1/availability", check_in=night, check_out=night + timedelta(days=nights)).json()["available"]

        assert not available(4) and available(6)
        people["owner"].post(RATES, {"first_night": night, "last_night": night, "what": "clear"})
        assert not NightRate.objects.exists() and available(4)

    def test_a_block_over_a_stay_is_refused_with_a_clear_message_and_nothing_else(self, people, paid):
        response = people["staff"].post(RATES, {"first_night": paid.check_in, "last_night": paid.check_in, "what": "block"})
        assert response.status_code == 200
        assert b"takes some of these nights; cancel it first" in response.content
        assert not list(response.context["messages"])  # no success beside the error
        assert not DateBlock.objects.exists()

    def test_bad_input_is_a_form_error(self, people, demo_property):
        response = people["owner"].post(RATES, {"first_night": future(10), "last_night": future(5), "what": "price"})
        assert response.status_code == 200
        assert response.context["form"].errors.keys() == {"last_night", "nightly_rate"}


def test_a_price_set_for_a_night_wins_over_seasons_and_weekends():
    night = date(2027, 8, 14)  # a Saturday
    rules = PricingRules(
        currency="EUR",
        base_nightly_rate=Decimal("200"),
        weekend_nightly_rate=Decimal("260"),
        min_nights=2,
        max_nights=30,
        night_rules={night: NightRule(rate=Decimal("150"))},
    )
    assert price_night(night, 2, rules).rate == Decimal("150.00") and price_night(night, 2, rules).source == "rate_calendar"
    assert price_night(night + timedelta(days=7), 2, rules).source == "weekend_rate"
    assert rules.min_nights_for_arrival(night) == 2  # a price alone leaves the minimum to the other rules
    only_minimum = PricingRules(currency="EUR", base_nightly_rate=Decimal("200"), min_nights=2, max_nights=30, night_rules={night: NightRule(min_nights=5)})
    assert only_minimum.min_nights_for_arrival(night) == 5 and price_night(night, 2, only_minimum).source == "base_rate"


class TestSeasonsByDayAndMonth:
    def form(self, first, last):
        return SeasonForm({"name": "Christmas", "first_night": first, "last_night": last, "nightly_rate": "400", "priority": "0"})

    def test_day_and_month_is_a_season_of_every_year(self):
        form = self.form("20/12", "06/01")
        assert form.is_valid(), form.errors
        assert form.instance.recurring and (form.instance.start_date.month, form.instance.start_date.day) == (12, 20)

    def test_with_the_year_it_is_that_year_only(self):
        form = self.form("20/12/2027", "06/01/2028")
        assert form.is_valid(), form.errors
        assert not form.instance.recurring and form.instance.start_date == date(2027, 12, 20)

    @pytest.mark.parametrize(("first", "last"), [("20/12", "06/01/2028"), ("31/02", "06/01"), ("Christmas", "06/01"), ("06/01/2028", "20/12/2027")])
    def test_mistakes_are_form_errors(self, first, last):
        assert not self.form(first, last).is_valid()

    def test_a_stored_season_shows_as_typed(self, demo_property):
        season = demo_property.seasons.filter(recurring=True).first()
        form = SeasonForm(instance=season)
        assert form.initial["first_night"] == f"{season.start_date:%d/%m}"


class TestReadingReservations:
    def test_the_list_shows_money_with_two_decimals_and_the_currency(self, people, paid):
        page = people["staff"].get(CHANGELIST)
        assert f"{paid.total:,.2f} EUR".encode() in page.content

    def test_search_by_a_date_finds_the_stay_over_that_night(self, people, paid):
        night = paid.check_in + timedelta(days=1)
        for term in (f"{night:%Y-%m-%d}", f"{night:%d/%m/%Y}"):
            page = people["staff"].get(CHANGELIST, {"q": term})
            assert [r.pk for r in page.context["cl"].result_list] == [paid.pk]
        assert not people["staff"].get(CHANGELIST, {"q": f"{paid.check_in - timedelta(days=3):%Y-%m-%d}"}).context["cl"].result_list

    def test_csv_export_for_the_accountant(self, people, paid):
        response = people["staff"].post(CHANGELIST, {"action": "export_csv", "_selected_action": [paid.pk]})
        assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
        rows = list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))
        assert len(rows) == 1
        assert rows[0]["id"] == paid.pk and Decimal(rows[0]["paid"]) == paid.total and rows[0]["currency"] == "EUR"
        assert rows[0]["nights"] == str((paid.check_out - paid.check_in).days)
        assert Decimal(rows[0]["kept"]) == paid.total  # nothing refunded yet

    def test_the_csv_export_counts_money_kept_after_a_partial_refund(self, people, paid):
        Reservation.objects.filter(pk=paid.pk).update(status="cancelled", amount_refunded=paid.total - Decimal("525.00"))
        response = people["staff"].post(CHANGELIST, {"action": "export_csv", "_selected_action": [paid.pk]})
        [row] = csv.DictReader(io.StringIO(response.content.decode("utf-8-sig")))
        assert (row["status"], Decimal(row["kept"])) == ("cancelled", Decimal("525.00"))

    def test_times_are_shown_in_the_property_time_zone_with_its_name(self, people, paid):
        page = people["staff"].get(change_page(paid))
        assert b" CET" in page.content or b" CEST" in page.content


def test_the_rate_month_costs_the_same_queries_however_busy_the_month(paid, django_assert_max_num_queries):
    """Prices come from the cached rules; reservations, blocks and the seasons' names (in the reader's
    language) are read once each."""
    from booking.catalog.selectors import get_property
    from booking.reservations.rate_calendar import rate_month

    prop = get_property()
    rate_month(prop, paid.check_in.replace(day=1))  # warms the rules cache, as any earlier request would
    with django_assert_max_num_queries(3):
        month = rate_month(prop, paid.check_in.replace(day=1))
    shown = [n.night for week in month.weeks for n in week]
    stay_nights_shown = [night for night in shown if paid.check_in <= night < paid.check_out]
    assert [n.night for week in month.weeks for n in week if n.taken_by] == stay_nights_shown != []
