"""The cancellation policy as data (issue 13): owner-edited tiers "at least D days before arrival →
P % refunded", one pure refund function, and the policy's words generated from the same tiers.

Demo tiers: at least 30 days 100 %, at least 7 days 50 %, otherwise nothing. The city tax is always
refunded in full (it is owed only for nights stayed)."""

from datetime import date, timedelta
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from booking.catalog.pricing import RefundTier, applicable_tier, policy_lines, refund_for_cancellation

DEMO = [RefundTier(30, Decimal(100)), RefundTier(7, Decimal(50)), RefundTier(0, Decimal(0))]
CHECK_IN = date(2027, 6, 30)
PAID, TAX = Decimal("1041.00"), Decimal("21.00")


def refund(days_before: int, *, tiers=DEMO, paid=PAID, tax=TAX, refunded=Decimal("0")) -> Decimal:
    return refund_for_cancellation(
        tiers=tiers, check_in=CHECK_IN, today=CHECK_IN - timedelta(days=days_before), paid=paid, city_tax=tax, already_refunded=refunded
    )


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
    st.builds(RefundTier, st.integers(0, 400), st.integers(0, 100).map(Decimal)),
    min_size=1,
    max_size=6,
    unique_by=lambda tier: tier.days_before_arrival,
)
money_strategy = st.decimals(min_value=0, max_value=100_000, places=2)


@given(tiers=tiers_strategy, paid=money_strategy, tax_share=st.integers(0, 100), days=st.integers(-30, 800), refunded_share=st.integers(0, 100))
def test_never_negative_never_above_what_is_left_and_in_cents(tiers, paid, tax_share, days, refunded_share):
    tax = (paid * tax_share / 100).quantize(Decimal("0.01"))
    refunded = (paid * refunded_share / 100).quantize(Decimal("0.01"))
    amount = refund(days, tiers=tiers, paid=paid, tax=tax, refunded=refunded)
    assert Decimal("0") <= amount <= paid - refunded
    assert amount == amount.quantize(Decimal("0.01"))


@given(
    tiers=st.lists(
        st.builds(RefundTier, st.integers(0, 400), st.integers(0, 100).map(Decimal)), min_size=1, max_size=6, unique_by=lambda tier: tier.days_before_arrival
    ).map(
        # A sensible policy never refunds less for cancelling earlier: percentages rising with the days.
        lambda tiers: [
            RefundTier(t.days_before_arrival, p)
            for t, p in zip(sorted(tiers, key=lambda t: t.days_before_arrival), sorted(t.refund_percent for t in tiers), strict=True)
        ]
    ),
    paid=money_strategy,
    days=st.integers(-30, 800),
)
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


# --- The owner edits the tiers in the admin; every place shows the same words ------------------


@pytest.fixture
def staff_client(client, django_user_model):
    client.force_login(django_user_model.objects.create_superuser("giulia", "giulia@example.com", "a-long-test-password"))
    return client


def as_posted(value) -> list[str] | str | None:
    """A form value as the browser would post it; None for an unticked box or an unchanged file."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "on" if value else None
    if isinstance(value, list | tuple):
        return [str(item) for item in value]
    if hasattr(value, "field") and hasattr(value, "storage"):  # a file: posting nothing keeps it
        return None
    return str(value)


def property_change_form(staff_client, prop, tiers: list[tuple[object, object]]) -> dict:
    """The Property change form as the owner would submit it, everything unchanged except the
    cancellation tiers, which are replaced by `tiers` (the old rows deleted)."""
    from django.urls import reverse

    page = staff_client.get(reverse("admin:catalog_property_change", args=[prop.pk]))
    assert page.status_code == 200
    data: dict = {}

    def add(form):
        for name in form.fields:
            value = as_posted(form[name].value())
            if value is not None:
                data[form.add_prefix(name)] = value

    add(page.context["adminform"].form)
    for inline in page.context["inline_admin_formsets"]:
        formset = inline.formset
        add(formset.management_form)
        for form in formset.forms:
            add(form)
        if formset.model.__name__ == "CancellationTier":
            prefix, kept = formset.prefix, len(formset.initial_forms)
            for index in range(kept):
                data[f"{prefix}-{index}-DELETE"] = "on"
            for offset, (days, percent) in enumerate(tiers):
                data |= {f"{prefix}-{kept + offset}-days_before_arrival": str(days), f"{prefix}-{kept + offset}-refund_percent": str(percent)}
            data[f"{prefix}-TOTAL_FORMS"] = str(kept + len(tiers))
    data["_continue"] = "Save and continue editing"
    return data


def save_tiers(staff_client, prop, tiers):
    from django.urls import reverse

    return staff_client.post(reverse("admin:catalog_property_change", args=[prop.pk]), property_change_form(staff_client, prop, tiers))


def tiers_of(prop) -> list[tuple[int, int]]:
    return [(tier.days_before_arrival, tier.refund_percent) for tier in prop.cancellation_tiers.all()]


@pytest.mark.django_db
class TestTheOwnerEditsTheTiers:
    def test_a_sensible_policy_is_saved_and_reaches_the_refunds_at_once(self, staff_client, demo_property):
        from booking.catalog.selectors import cancellation_tiers

        assert cancellation_tiers(demo_property)  # warm the cached rules: the save must invalidate them
        response = save_tiers(staff_client, demo_property, [(14, 100), (3, 25), (0, 0)])
        assert response.status_code == 302
        assert tiers_of(demo_property) == [(14, 100), (3, 25), (0, 0)]
        demo_property.refresh_from_db()
        assert set(cancellation_tiers(demo_property)) == {RefundTier(14, Decimal(100)), RefundTier(3, Decimal(25)), RefundTier(0, Decimal(0))}

    def test_two_tiers_with_the_same_days_are_refused(self, staff_client, demo_property):
        response = save_tiers(staff_client, demo_property, [(14, 100), (14, 50)])
        assert response.status_code == 200 and "cannot both start at the same day" in response.content.decode()
        assert tiers_of(demo_property) == [(30, 100), (7, 50), (0, 0)]

    def test_more_than_100_percent_is_refused(self, staff_client, demo_property):
        response = save_tiers(staff_client, demo_property, [(14, 101)])
        assert response.status_code == 200 and "less than or equal to 100" in response.content.decode()
        assert tiers_of(demo_property) == [(30, 100), (7, 50), (0, 0)]

    def test_a_policy_without_tiers_is_refused(self, staff_client, demo_property):
        response = save_tiers(staff_client, demo_property, [])
        assert response.status_code == 200 and "needs at least one tier" in response.content.decode()
        assert tiers_of(demo_property) == [(30, 100), (7, 50), (0, 0)]


@pytest.mark.django_db
def test_the_site_the_api_and_the_emails_say_the_same_policy(client, api, demo_property):
    from django.template.loader import render_to_string

    from booking.reservations.emails import confirmation_context
    from booking.reservations.services.holds import hold_stay
    from pages import demo as pages_demo
    from tests.dates import future

    pages_demo.load()
    expected = policy_lines(DEMO)
    listing = api.get("/api/v1/property").json()
    assert listing["policies"]["cancellation_policy"] == " ".join(expected)
    assert listing["policies"]["cancellation_tiers"] == [
        {"days_before_arrival": 30, "refund_percent": 100.0},
        {"days_before_arrival": 7, "refund_percent": 50.0},
        {"days_before_arrival": 0, "refund_percent": 0.0},
    ]
    page = client.get("/booking-policies").content.decode()
    assert all(line in page for line in expected)
    assert expected[0] in client.get("/book").content.decode()
    context = confirmation_context(hold_stay(check_in=future(40), check_out=future(43), guests=2))
    assert all(line in render_to_string("emails/guest_confirmation.html", context) for line in expected)
    assert " ".join(expected) in render_to_string("emails/guest_confirmation.txt", context)
