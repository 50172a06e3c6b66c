"""/thank-you?reservation_id=… shows the state of that stay, masked like the API's lookup."""

import re

from booking.reservations.models import Reservation
from booking.reservations.services.holds import GuestDetails, hold_stay
from booking.reservations.services.reservations import Payer, confirm_reservation, expire_hold
from tests.conftest import future


def a_hold(**guest) -> Reservation:
    return hold_stay(check_in=future(60), check_out=future(63), guests=3, guest=GuestDetails(**guest) if guest else None)


def test_a_confirmed_stay_shows_its_dates_total_and_masked_email(client, site):
    held = a_hold()
    confirm_reservation(held.pk, actor="test", payer=Payer(email="ada@example.com", name="Ada Lovelace", phone="+44 20 7946 0958"), amount_paid=held.total)
    page = client.get(f"/thank-you?reservation_id={held.pk}").content.decode()
    assert 'data-reservation-status="confirmed"' in page
    assert "your stay is confirmed" in page
    assert f"{held.check_in:%-d %B %Y}" in page
    assert f"{held.check_out:%-d %B %Y}" in page
    assert f"€{held.total:,.2f}" in page
    assert "a***@example.com" in page
    assert "ada@example.com" not in page
    assert "7946" not in page


def test_a_hold_still_awaiting_payment_says_so_and_checks_again(client, site):
    held = a_hold()
    page = client.get(f"/thank-you?reservation_id={held.pk}").content.decode()
    assert 'data-reservation-status="held"' in page
    assert "Payment in progress" in page
    # The page asks the API again until the payment provider's webhook has confirmed the stay;
    # from a static script, since the site's Content-Security-Policy refuses inline ones.
    assert f'data-poll-reservation="{held.pk}"' in page
    assert re.search(r'<script src="/static/js/thank-you(\.[0-9a-f]+)?\.js" defer></script>', page)
    assert "<script>" not in page


def confirmed_with_checkout(session_id="cs_sandbox_paid") -> Reservation:
    held = a_hold()
    Reservation.objects.filter(pk=held.pk).update(checkout_session_id=session_id, payment_provider="sandbox")
    return confirm_reservation(held.pk, actor="test", payer=Payer(email="ada@example.com"), amount_paid=held.total)


def test_the_payer_coming_back_from_the_checkout_is_shown_the_manage_link(client, site, settings):
    confirmed = confirmed_with_checkout()
    answer = client.get(f"/thank-you?reservation_id={confirmed.pk}&session_id=cs_sandbox_paid")
    page = answer.content.decode()
    assert f'href="{settings.BASE_URL}/manage/{confirmed.manage_token}"' in page
    assert answer["Referrer-Policy"] == "no-referrer"


def test_the_reservation_id_alone_does_not_reveal_the_manage_link(client, site):
    """The manage link can cancel the stay; the reservation id is handed to agents and shown in
    lookups, so without the checkout session id the page shows the stay but not the link."""
    confirmed = confirmed_with_checkout()
    for query in ["", "&session_id=cs_sandbox_other", "&session_id="]:
        page = client.get(f"/thank-you?reservation_id={confirmed.pk}{query}").content.decode()
        assert "your stay is confirmed" in page and confirmed.manage_token not in page and "/manage/" not in page


def test_an_expired_hold_says_nothing_was_charged(client, site):
    held = a_hold()
    expire_hold(held.pk, actor="test")
    page = client.get(f"/thank-you?reservation_id={held.pk}").content.decode()
    assert 'data-reservation-status="expired"' in page
    assert "nothing was charged" in page


def test_an_unknown_or_absurd_reservation_id_is_a_friendly_message(client, site):
    for reservation_id in ["res_doesnotexist", "x" * 500, "%00"]:
        answer = client.get(f"/thank-you?reservation_id={reservation_id}")
        assert answer.status_code == 200
        assert "We couldn't find that booking" in answer.content.decode()


def test_without_a_reservation_the_page_simply_thanks(client, site):
    page = client.get("/thank-you").content.decode()
    assert "Thank you" in page
    assert "data-reservation-status" not in page
