"""Leaving a review on a phone (390×844, issue 34 item 6), in Italian: a guest whose stay ended
opens the review form from their booking page, sends a rating and a text, and sees it received;
once the owner approves it, it is on /it/reviews as a verified stay.

The live server cannot travel in time, so the stay is booked and paid the way a guest does it
(checkout link, sandbox page) and then moved into the past before the browser starts.
Screenshots go to test-artifacts/browser/review-*.png."""

from datetime import timedelta

import pytest
import requests
from django.test import Client
from django.utils import timezone

from booking.reservations.models import Reservation, Review
from booking.reservations.services import reviews
from tests.browser.conftest import PHONE, open_browser, requires_chromium, screenshot
from tests.pages.test_manage import book_and_pay

pytestmark = [pytest.mark.live, pytest.mark.slow, requires_chromium, pytest.mark.timeout(180)]


@pytest.fixture
def ended_stay(site_url, settings):
    settings.STRIPE_SECRET_KEY = ""
    booked = book_and_pay(Client(), 20)
    today = timezone.localdate()
    Reservation.objects.filter(pk=booked.pk).update(check_in=today - timedelta(days=4), check_out=today - timedelta(days=1), language="it")
    return Reservation.objects.get(pk=booked.pk)


def test_a_guest_leaves_a_review_on_a_phone_in_italian(site_url, ended_stay):
    from playwright.sync_api import expect

    text = "Terrazza splendida, vista sul Duomo al tramonto."
    with open_browser(**PHONE) as (page, errors):
        page.goto(f"{site_url}/it/manage/{ended_stay.manage_token}")
        page.get_by_role("link", name="Scrivi una recensione").click()
        page.wait_for_url(f"**/it/manage/{ended_stay.manage_token}/review")

        # Sent without a rating: the form says so in Italian and keeps the text.
        page.fill("#review-text", text)
        page.get_by_role("button", name="Invia la recensione").click()
        expect(page.locator(".field-error").first).to_be_visible()
        expect(page.locator("#review-text")).to_have_value(text)
        screenshot(page, "review-1-missing-rating")

        page.get_by_label("5 stelle").check()
        form = page.locator("form.review-form").bounding_box()
        assert form["x"] >= 0 and form["x"] + form["width"] <= 390 + 0.5, "the form fits the phone"
        page.get_by_role("button", name="Invia la recensione").click()
        page.wait_for_url(f"**/it/manage/{ended_stay.manage_token}?reviewed=1")
        screenshot(page, "review-2-sent")
        assert errors == []

    review = Review.objects.get(reservation=ended_stay)
    assert (review.rating, review.text, review.published, review.verified_stay) == (5, text, False, True)
    assert text not in requests.get(f"{site_url}/it/reviews", timeout=10).text, "hidden until the owner approves it"
    reviews.set_published([review], published=True)
    assert text in requests.get(f"{site_url}/it/reviews", timeout=10).text
