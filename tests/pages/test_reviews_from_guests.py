"""Reviews from guests who stayed: an email the day after check-out with a link to a short form on
the guest's own booking link, stored for the owner's approval, then shown on /reviews, in the
property's aggregateRating and in /api/v1/property as verified stays."""

from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.utils import timezone

from booking.outbox.models import OutboundEmail
from booking.outbox.notifications import deliver_due_emails
from booking.reservations.models import Reservation, Review
from booking.reservations.services import reviews
from tests.pages.test_manage import book_and_pay, own_cache, sandbox  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db


@pytest.fixture
def stay(client, site, sandbox):  # noqa: F811
    reservation = book_and_pay(client, 5)
    Reservation.objects.filter(pk=reservation.pk).update(language="it")
    return Reservation.objects.get(pk=reservation.pk)


def the_day_after(reservation, days: int = 1):
    return time_machine.travel(
        timezone.make_aware(timezone.datetime.combine(reservation.check_out + timedelta(days=days), timezone.datetime.min.time())) + timedelta(hours=10),
        tick=False,
    )


def test_the_guest_is_asked_once_the_day_after_check_out_in_their_language(stay, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    assert reviews.queue_review_requests(today=stay.check_out) == 0, "not on the day of departure"
    assert reviews.queue_review_requests(today=stay.check_out + timedelta(days=1)) == 1
    assert reviews.queue_review_requests(today=stay.check_out + timedelta(days=1)) == 0, "once"
    [row] = OutboundEmail.objects.filter(kind=OutboundEmail.Kind.REVIEW_REQUEST)
    assert row.recipient == OutboundEmail.Recipient.GUEST, "no owner copy of a review request"
    mail.outbox.clear()
    deliver_due_emails()
    [message] = [m for m in mail.outbox if "/review" in m.body]
    assert message.subject.startswith("[TEST] Com’è andato il tuo soggiorno presso Attico Santa Croce — Attico a Firenze? · FLR-")
    assert f"/it/manage/{stay.manage_token}/review" in message.body


def test_a_cancelled_stay_is_not_asked(stay):
    Reservation.objects.filter(pk=stay.pk).update(status=Reservation.Status.CANCELLED)
    assert reviews.queue_review_requests(today=stay.check_out + timedelta(days=1)) == 0


def test_the_form_opens_after_the_stay_and_stores_one_review_for_approval(client, stay):
    path = f"/it/manage/{stay.manage_token}/review"
    assert "Scrivi una recensione" not in client.get(f"/it/manage/{stay.manage_token}").content.decode(), "not before the stay"
    with the_day_after(stay):
        assert "Scrivi una recensione" in client.get(f"/it/manage/{stay.manage_token}").content.decode()
        page = client.get(path)
        assert page.status_code == 200 and 'name="rating"' in page.content.decode()
        bad = client.post(path, {"rating": "9", "text": ""})
        assert bad.status_code == 422 and "Scegli da 1 a 5 stelle." in bad.content.decode()
        assert not Review.objects.filter(reservation=stay).exists(), "a failed call leaves nothing behind"
        done = client.post(path, {"rating": "5", "text": "Terrazza splendida, host gentilissima."})
        assert done.status_code == 303 and done["Location"].endswith("?reviewed=1")
        again = client.post(path, {"rating": "1", "text": "twice"})
        assert again.status_code == 409 and "Una recensione si può scrivere dopo il soggiorno, una sola volta." in again.content.decode()
    review = Review.objects.get(reservation=stay)
    assert (review.rating, review.published, review.verified_stay, review.language, review.author) == (5, False, True, "it", "Lucia V.")


def test_an_approved_review_shows_everywhere_as_a_verified_stay(client, stay):
    with the_day_after(stay):
        client.post(f"/manage/{stay.manage_token}/review", {"rating": "4", "text": "Great view of the Duomo."})
    review = Review.objects.get(reservation=stay)
    api = client.get("/api/v1/property").json()["reviews"]
    assert "Great view of the Duomo." not in [item["text"] for item in api["items"]], "hidden until approved"
    assert reviews.set_published([review], published=True) == 1
    api = client.get("/api/v1/property").json()["reviews"]
    [item] = [item for item in api["items"] if item["text"] == "Great view of the Duomo."]
    assert item["verified_stay"] is True and item["rating"] == 4
    assert all(item["verified_stay"] is False for item in api["items"] if item["text"] != "Great view of the Duomo."), "the owner's typed reviews"
    page = client.get("/reviews").content.decode()
    assert "Great view of the Duomo." in page and "data-verified-stay" in page


def test_the_owner_approves_and_hides_in_the_admin(admin_client, client, stay):
    with the_day_after(stay):
        client.post(f"/manage/{stay.manage_token}/review", {"rating": "5", "text": "Perfetto."})
    review = Review.objects.get(reservation=stay)
    listing = admin_client.get("/admin/reservations/review/?published__exact=0")
    assert listing.status_code == 200 and "Perfetto." in listing.content.decode()
    admin_client.post("/admin/reservations/review/", {"action": "approve", "_selected_action": [review.pk]})
    assert Review.objects.get(reservation=stay).published is True
    admin_client.post("/admin/reservations/review/", {"action": "hide", "_selected_action": [review.pk]})
    assert Review.objects.get(reservation=stay).published is False
