"""The back office: the owner edits the property and rates; staff review, cancel and block."""

import pytest
from django.contrib.admin.utils import quote
from django.urls import reverse

from booking.reservations.models import DateBlock, Reservation
from booking.reservations.services.holds import hold_stay
from tests.dates import future

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(client, django_user_model):
    user = django_user_model.objects.create_superuser("giulia", "giulia@example.com", "a-long-test-password")
    client.force_login(user)
    return client


def test_the_owner_pages_render(staff_client, demo_property):
    for url in [
        reverse("admin:catalog_property_change", args=[demo_property.pk]),
        reverse("admin:reservations_reservation_changelist"),
        reverse("admin:reservations_dateblock_add"),
        reverse("admin:reservations_reservation_calendar"),
    ]:
        assert staff_client.get(url).status_code == 200, url


def test_reservations_can_be_filtered_searched_and_read_with_their_audit_trail(staff_client, demo_property):
    reservation = hold_stay(check_in=future(30), check_out=future(33), guests=2, agent_name="trip-bot")
    changelist = reverse("admin:reservations_reservation_changelist")
    assert reservation.pk in staff_client.get(changelist, {"status__exact": "held", "source__exact": "api"}).content.decode()
    assert reservation.pk in staff_client.get(changelist, {"q": "trip-bot"}).content.decode()
    detail = staff_client.get(reverse("admin:reservations_reservation_change", args=[quote(reservation.pk)])).content.decode()
    assert "Price breakdown" in detail and "City tax" in detail and "hold" in detail


def test_the_calendar_view_shows_holds_and_blocks(staff_client, demo_property):
    hold_stay(check_in=future(30), check_out=future(33), guests=2)
    DateBlock.objects.create(property=demo_property, start=future(40), end=future(42), reason="painting the terrace")
    day = future(40)
    page = staff_client.get(reverse("admin:reservations_reservation_calendar"), {"year": day.year, "month": day.month}).content.decode()
    assert "painting the terrace" in page


def test_staff_cancel_a_hold_through_the_service(staff_client, demo_property):
    reservation = hold_stay(check_in=future(30), check_out=future(33), guests=2)
    page = staff_client.post(reverse("admin:reservations_reservation_changelist"), {"action": "cancel_selected", "_selected_action": [reservation.pk]})
    assert page.status_code == 200 and b"Policy refund today" in page.content  # a confirmation step first
    reservation.refresh_from_db()
    assert reservation.status == "held"
    staff_client.post(
        reverse("admin:reservations_reservation_changelist"),
        {"action": "cancel_selected", "_selected_action": [reservation.pk], "apply": "1", "refund": "policy"},
    )
    reservation.refresh_from_db()
    assert reservation.status == "cancelled"
    assert reservation.events.get(action="cancel").actor == "staff giulia"


def test_staff_block_dates_with_a_reason(staff_client, api, demo_property):
    response = staff_client.post(reverse("admin:reservations_dateblock_add"), {"start": future(50), "end": future(53), "reason": "owner's family visit"})
    assert response.status_code == 302
    block = DateBlock.objects.get()
    assert (block.source, block.created_by) == ("staff", "staff giulia")
    assert api.get("/api/v1/availability", check_in=future(50), check_out=future(53)).json()["unavailable_reason"] == "booked"


def test_a_block_over_a_held_stay_is_refused(staff_client, demo_property):
    hold_stay(check_in=future(30), check_out=future(33), guests=2)
    response = staff_client.post(reverse("admin:reservations_dateblock_add"), {"start": future(31), "end": future(32), "reason": "x"}, follow=True)
    assert not DateBlock.objects.exists()
    assert "cancel it first" in response.content.decode()


def test_editing_a_block_into_a_held_stay_keeps_the_old_block_and_says_only_no(staff_client, demo_property):
    """Red team, issue 12 item 4: the refused edit used to delete the block and report success too."""
    block = DateBlock.objects.create(property=demo_property, start=future(40), end=future(42), reason="painting", source="staff")
    hold_stay(check_in=future(42), check_out=future(45), guests=2)
    response = staff_client.post(
        reverse("admin:reservations_dateblock_change", args=[block.pk]), {"start": future(40), "end": future(44), "reason": "painting"}, follow=True
    )
    page = response.content.decode()
    assert "cancel it first" in page
    assert "successfully" not in page
    block.refresh_from_db()
    assert (block.start, block.end) == (future(40), future(42))


def test_a_block_edit_that_loses_a_race_to_a_hold_changes_nothing(staff_client, demo_property, monkeypatch):
    """The form's look-ahead passed, then a hold took the nights before the save: the service refuses under the lock."""
    from booking.reservations.admin import DateBlockForm

    block = DateBlock.objects.create(property=demo_property, start=future(40), end=future(42), reason="painting", source="staff")
    real_clean = DateBlockForm.clean

    def clean_then_lose_the_race(form):
        cleaned = real_clean(form)
        if not Reservation.objects.exists():
            hold_stay(check_in=future(42), check_out=future(45), guests=2)
        return cleaned

    monkeypatch.setattr(DateBlockForm, "clean", clean_then_lose_the_race)
    response = staff_client.post(
        reverse("admin:reservations_dateblock_change", args=[block.pk]), {"start": future(40), "end": future(44), "reason": "moved"}, follow=True
    )
    page = response.content.decode()
    assert "cancel it first" in page and "successfully" not in page
    block.refresh_from_db()
    assert (block.start, block.end, block.reason) == (future(40), future(42), "painting")


def test_moving_a_block_to_free_nights_moves_it(staff_client, demo_property):
    block = DateBlock.objects.create(property=demo_property, start=future(40), end=future(42), reason="painting", source="staff")
    response = staff_client.post(
        reverse("admin:reservations_dateblock_change", args=[block.pk]), {"start": future(41), "end": future(44), "reason": "painting"}
    )
    assert response.status_code == 302
    assert DateBlock.objects.get().end == future(44)


def test_reservations_cannot_be_deleted(staff_client, demo_property):
    reservation = hold_stay(check_in=future(30), check_out=future(33), guests=2)
    assert staff_client.get(reverse("admin:reservations_reservation_delete", args=[quote(reservation.pk)])).status_code == 403
    assert Reservation.objects.filter(pk=reservation.pk).exists()


def test_impossible_rules_are_refused_with_a_message_that_says_what_to_fix(demo_property):
    from django.core.exceptions import ValidationError

    demo_property.min_nights, demo_property.max_nights = 5, 3
    with pytest.raises(ValidationError) as refused:
        demo_property.full_clean()
    assert refused.value.message_dict["max_nights"] == ["The longest stay must be at least the shortest stay (minimum nights)."]
    demo_property.refresh_from_db()
    demo_property.closed_to_arrival = [7]
    with pytest.raises(ValidationError):
        demo_property.full_clean()


def test_links_to_a_reservation_work_whatever_its_random_id(staff_client, demo_property, monkeypatch):
    """Ids are random url-safe text; "_3A" in one reads as ":" to the admin unless quoted."""
    from booking.reservations.emails import admin_url

    monkeypatch.setattr(Reservation._meta.get_field("id"), "_get_default", lambda: "res_3Aweird_2Fid")
    tricky = hold_stay(check_in=future(30), check_out=future(33), guests=2)
    assert tricky.pk == "res_3Aweird_2Fid"
    link = admin_url(tricky).split("://", 1)[1].split("/", 1)[1]
    assert staff_client.get("/" + link).status_code == 200
    assert staff_client.get(reverse("admin:reservations_reservation_change", args=[quote(tricky.pk)])).status_code == 200
