"""After paying, the guest lands on the property's own domain first (issue 31, item 2).

A return URL on the site's own host or a TRUSTED_RETURN_HOSTS host is followed as given; any other
host is offered on our thank-you (or booking) page as a link that spells out its domain, never
followed automatically. The same for the sandbox and for Stripe (one code path: open_checkout)."""

from urllib.parse import parse_qs, urlsplit

import pytest
from django.conf import settings

from booking.payments.models import SandboxCheckout
from booking.payments.return_hosts import is_trusted
from tests.payments.conftest import stay

LINK = "/api/v1/payments/checkout-link"
PAYER = {"email": "lucia@example.com", "name": "Lucia Verdi", "phone": "+39 347 1112233"}

TABLE = [
    # (return URL, trusted with TRUSTED_RETURN_HOSTS=["site.com"])
    (settings.BASE_URL + "/thank-you", True),  # the site's own host
    ("https://site.com/done", True),
    ("https://SITE.com/done", True),
    ("https://site.com:8443/done", True),
    ("https://evil.example/phish", False),
    ("https://evil-site.com/done", False),
    ("https://site.com.evil/done", False),
    ("https://sub.site.com/done", False),
    ("https://site.co/done", False),
    ("https://xn--ste-rpa.com/done", False),  # a look-alike in its xn-- form
]


@pytest.mark.parametrize(("url", "trusted"), TABLE)
def test_the_host_table(settings, url, trusted):
    settings.TRUSTED_RETURN_HOSTS = ["site.com"]
    assert is_trusted(url) is trusted


def test_no_trusted_hosts_by_default_but_the_own_one(settings):
    settings.TRUSTED_RETURN_HOSTS = []
    assert is_trusted(settings.BASE_URL + "/x") and not is_trusted("https://site.com/x")


@pytest.mark.django_db
@pytest.mark.parametrize(("url", "trusted"), TABLE)
def test_the_sandbox_follows_only_trusted_hosts(api, client, demo_property, sandbox, settings, url, trusted):
    settings.TRUSTED_RETURN_HOSTS = ["site.com"]
    link = api.post(LINK, stay(success_url=url, cancel_url=url)).json()
    checkout = SandboxCheckout.objects.get()
    for sent, own_page in ((checkout.success_url, "/thank-you"), (checkout.cancel_url, "/book")):
        target = urlsplit(sent)
        if trusted:
            assert target.hostname == urlsplit(url).hostname
        else:
            assert (f"{target.scheme}://{target.netloc}", target.path) == (settings.BASE_URL, own_page)
            assert parse_qs(target.query)["reservation_id"] == [link["reservation_id"]] and "continue" in parse_qs(target.query)
    paid = client.post(urlsplit(link["checkout_url"]).path, {**PAYER, "action": "pay"})
    assert paid.status_code == 303
    landing = urlsplit(paid["Location"])
    assert (landing.hostname == urlsplit(url).hostname) is trusted or landing.hostname == urlsplit(settings.BASE_URL).hostname


@pytest.mark.django_db
def test_a_foreign_host_is_a_link_on_the_thank_you_page_spelling_out_its_domain(api, client, demo_property, sandbox):
    link = api.post(LINK, stay(success_url="https://evil.example/phish")).json()
    paid = client.post(urlsplit(link["checkout_url"]).path, {**PAYER, "action": "pay"})
    landing = urlsplit(paid["Location"])
    assert landing.path == "/thank-you"
    page = client.get(f"{landing.path}?{landing.query}")
    html = page.content.decode()
    assert page.status_code == 200 and "Continue to evil.example" in html and 'href="https://evil.example/phish"' in html
    assert "Manage your booking" in html  # our own page knows the session: the payer sees their manage link


@pytest.mark.django_db
def test_a_cancelled_payment_offers_the_foreign_cancel_url_on_the_booking_page(api, client, demo_property, sandbox):
    link = api.post(LINK, stay(cancel_url="https://evil.example/back")).json()
    back = client.post(urlsplit(link["checkout_url"]).path, {"action": "cancel"})
    landing = urlsplit(back["Location"])
    assert landing.path == "/book"
    assert "Continue to evil.example" in client.get(f"{landing.path}?{landing.query}").content.decode()


@pytest.mark.django_db
def test_only_a_link_we_signed_for_this_reservation_is_shown(api, client, demo_property, sandbox):
    first = api.post(LINK, stay(success_url="https://evil.example/a")).json()
    token = parse_qs(urlsplit(SandboxCheckout.objects.get().success_url).query)["continue"][0]
    second = api.post(LINK, stay(offset=60)).json()
    for query in (
        f"reservation_id={second['reservation_id']}&continue={token}",  # another reservation's link
        f"reservation_id={first['reservation_id']}&continue=https://evil.example/typed",  # typed into the query
        f"reservation_id={first['reservation_id']}&continue={token[:-2]}xx",  # tampered
    ):
        assert "Continue to" not in client.get(f"/thank-you?{query}").content.decode()


@pytest.mark.django_db
def test_stripe_gets_our_own_page_for_a_foreign_host_and_the_trusted_one_as_given(api, demo_property, fake_stripe, settings):
    settings.TRUSTED_RETURN_HOSTS = ["partner.example"]
    api.post(LINK, stay(success_url="https://evil.example/phish"))
    api.post(LINK, stay(offset=60, success_url="https://partner.example/done"))
    foreign, trusted = (session["success_url"] for session in fake_stripe.sessions.values())
    assert foreign.startswith(settings.BASE_URL + "/thank-you?") and "continue=" in foreign and "session_id={CHECKOUT_SESSION_ID}" in foreign
    assert trusted.startswith("https://partner.example/done?reservation_id=")


@pytest.mark.django_db
@pytest.mark.parametrize(("prefix", "words"), [("/it", "Continua su evil.example"), ("/de", "Weiter zu evil.example"), ("/fr", "Continuer vers evil.example")])
def test_the_onward_link_speaks_the_page_language(api, client, demo_property, sandbox, prefix, words):
    link = api.post(LINK, stay(success_url="https://evil.example/phish")).json()
    query = urlsplit(SandboxCheckout.objects.get().success_url).query
    assert link["reservation_id"] in query
    assert words in client.get(f"{prefix}/thank-you?{query}").content.decode()
