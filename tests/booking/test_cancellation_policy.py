"""The cancellation policy as data (issue 13): owner-edited tiers "at least D days before arrival →
P % refunded", one pure refund function, and the policy's words generated from the same tiers.

Demo tiers: at least 30 days 100 %, at least 7 days 50 %, otherwise nothing. The city tax is always
refunded in full (it is owed only for nights stayed)."""

from datetime import date, timedelta
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from booking.pricing import RefundTier, applicable_tier, policy_lines, refund_for_cancellation

DEMO = [RefundTier(30, Decimal(100)), RefundTier(7, Decimal(50)), RefundTier(0, Decimal(0))]
CHECK_IN = date(2027, 6, 30)
PAID, TAX = Decimal("1041.00"), Decimal("21.00")


def refund(days_before: int, *, tiers=DEMO, paid=PAID, tax=TAX, refunded=Decimal("0")) -> Decimal:
    return refund_for_cancellation(tiers=tiers, check_in=CHECK_IN, today=CHECK_IN - timedelta(days=days_before), paid=paid, city_tax=tax, already_refunded=refunded)


@pytest.mark.parametrize(
    ("days_before", "expected"),
    [(365, "1041.00"), (30, "1041.00"), (29, "531.00"), (7, "531.00"), (6, "21.00"), (1, "21.00"), (0, "21.00"), (-2, "21.00")],
)
def test_each_demo_tier_at_its_boundaries(days_before, expected):
    assert refund(days_before) == Decimal(expected)


def test_half_cents_round_up():
    assert refund(10, paid=Decimal("100.01"), tax=Decimal("0")) == Decimal("50.01")


def test_never_more_than_is_left_after_earlier_refunds():
    assert refund(40, refunded=Decimal("1000.00")) == Decimal("41.00")
    assert refund(40, refunded=PAID) == Decimal("0.00")


def test_without_a_matching_tier_only_the_city_tax_comes_back():
    assert refund(3, tiers=[RefundTier(14, Decimal(100))]) == TAX


def test_the_tier_with_the_most_days_that_is_met_applies():
    assert applicable_tier(DEMO, 45).days_before_arrival == 30
    assert applicable_tier(DEMO, 8).days_before_arrival == 7
    assert applicable_tier([RefundTier(5, Decimal(10))], 4) is None


tiers_strategy = st.lists(
    st.builds(RefundTier, st.integers(0, 400), st.integers(0, 100).map(Decimal)), min_size=1, max_size=6, unique_by=lambda tier: tier.days_before_arrival,
)
money_strategy = st.decimals(min_value=0, max_value=100_000, places=2)


@given(tiers=tiers_strategy, paid=money_strategy, tax_share=st.integers(0, 100), days=st.integers(-30, 800), refunded_share=st.integers(0, 100))
def test_never_negative_never_above_what_is_left_and_in_cents(tiers, paid, tax_share, days, refunded_share):
    tax = (paid * tax_share / 100).quantize(Decimal("0.01"))
    refunded = (paid * refunded_share / 100).quantize(Decimal("0.01"))
    amount = refund(days, tiers=tiers, paid=paid, tax=tax, refunded=refunded)
    assert Decimal("0") <= amount <= paid - refunded
    assert amount == amount.quantize(Decimal("0.01"))


@given(tiers=st.lists(st.builds(RefundTier, st.integers(0, 400), st.integers(0, 100).map(Decimal)), min_size=1, max_size=6, unique_by=lambda tier: tier.days_before_arrival).map(
    # A sensible policy never refunds less for cancelling earlier: percentages rising with the days.
    lambda tiers: [RefundTier(t.days_before_arrival, p) for t, p in zip(sorted(tiers, key=lambda t: t.days_before_arrival), sorted(t.refund_percent for t in tiers))]
), paid=money_strategy, days=st.integers(-30, 800))
def test_cancelling_earlier_never_gives_back_less(tiers, paid, days):
    assert refund(days + 1, tiers=tiers, paid=paid, tax=Decimal("0")) >= refund(days, tiers=tiers, paid=paid, tax=Decimal("0"))


def test_the_words_follow_the_tiers():
    assert policy_lines(DEMO) == [
        "Cancel at least 30 days before arrival: a full refund.",
        "Cancel 7 to 29 days before arrival: 50 % refunded.",
        "Cancel less than 7 days before arrival: no refund.",
        "The city tax is always refunded in full.",
    ]
    assert policy_lines([RefundTier(14, Decimal("75"))])[:2] == [
        "Cancel at least 14 days before arrival: 75 % refunded.",
        "Cancel less than 14 days before arrival: no refund.",
    ]


# --- The owner edits the tiers; every place shows the same words --------------------------------


def tier_formset(demo_property, rows, rf):
    from django.contrib.admin.sites import site

    from booking.admin import CancellationTierInline
    from booking.models import CancellationTier, Property

    CancellationTier.objects.filter(property=demo_property).delete()
    request = rf.post("/")
    request.user = type("Owner", (), {"has_perm": lambda *a: True, "is_active": True, "is_staff": True})()
    formset_class = CancellationTierInline(Property, site).get_formset(request, demo_property)
    prefix = "cancellation_tiers"
    data = {f"{prefix}-TOTAL_FORMS": str(len(rows)), f"{prefix}-INITIAL_FORMS": "0", f"{prefix}-MIN_NUM_FORMS": "1", f"{prefix}-MAX_NUM_FORMS": "1000"}
    for index, (days, percent) in enumerate(rows):
        data |= {f"{prefix}-{index}-days_before_arrival": str(days), f"{prefix}-{index}-refund_percent": str(percent)}
    return formset_class(data, instance=demo_property, prefix=prefix)


@pytest.mark.django_db
class TestTheOwnerEditsTheTiers:
    def test_a_sensible_policy_is_accepted(self, demo_property, rf):
        assert tier_formset(demo_property, [(14, 100), (3, 25), (0, 0)], rf).is_valid()

    def test_two_tiers_with_the_same_days_are_refused(self, demo_property, rf):
        formset = tier_formset(demo_property, [(14, 100), (14, 50)], rf)
        assert not formset.is_valid() and "same day" in str(formset.non_form_errors())

    def test_more_than_100_percent_is_refused(self, demo_property, rf):
        formset = tier_formset(demo_property, [(14, 101)], rf)
        assert not formset.is_valid() and "100" in str(formset.errors)

    def test_a_policy_without_tiers_is_refused(self, demo_property, rf):
        formset = tier_formset(demo_property, [], rf)
        assert not formset.is_valid()

    def test_a_change_reaches_the_refunds_at_once(self, demo_property):
        from booking.models import CancellationTier
        from booking.selectors import cancellation_tiers

        CancellationTier.objects.filter(property=demo_property, days_before_arrival=7).update(refund_percent=60)
        CancellationTier.objects.get(property=demo_property, days_before_arrival=7).save()  # the admin saves through the model
        demo_property.refresh_from_db()
        assert RefundTier(7, Decimal(60)) in cancellation_tiers(demo_property)


@pytest.mark.django_db
def test_the_site_the_api_and_the_listing_say_the_same_policy(client, api, demo_property):
    from pages import demo as pages_demo

    pages_demo.load()
    expected = policy_lines(DEMO)
    listing = api.get("/api/v1/property").json()
    assert listing["policies"]["cancellation_policy"] == " ".join(expected)
    assert listing["policies"]["cancellation_tiers"] == [
        {"days_before_arrival": 30, "refund_percent": 100.0}, {"days_before_arrival": 7, "refund_percent": 50.0}, {"days_before_arrival": 0, "refund_percent": 0.0},
    ]
    page = client.get("/booking-policies").content.decode()
    assert all(line in page for line in expected)
    assert expected[0] in client.get("/book").content.decode()
