"""Return URLs (success_url, cancel_url) are where the payment page sends the payer, with the
reservation id. They are read the way a browser reads them (WHATWG URL parsing), and anything on
which a browser and our check could disagree about the host is refused (issue 12, item 7: the red
team's `http://evil.example\\@localhost/x` passed as localhost and sent guests to evil.example)."""

import pytest

from booking.api.validation import return_url_problem
from tests.payments.conftest import stay

REFUSED = [
    "http://evil.example\\@localhost/x",  # a browser reads \ as /: host evil.example
    "https://evil.example\\@good.example/",
    "https://user@good.example/",  # userinfo
    "https://user:pw@good.example/",
    "http://localhost@evil.example/",
    "https:/\\evil.example",
    "https:\\\\evil.example",
    "//evil.example/x",  # scheme-relative
    "https:///evil.example",  # empty host
    "https://good.example\t/x",  # browsers strip tabs and newlines anywhere
    "https://good.example\n/x",
    "https://good.example\r/x",
    "https://good.example/\x00",
    " https://good.example/",
    "http://evil.example/",  # http only for localhost
    "http://localhost.evil.example/",
    "https://%65vil.example/",  # a percent-encoded host
    "https://bücher.example/",  # IDN: give it as xn--bcher-kva.example
    "javascript:alert(1)",
    "data:text/html,hi",
    "https://[::1/",
    "https://good.example:99999/",
    "https://good..example/",
    "https://-bad.example/",
    'https://good.example/"onmouseover',
]
ACCEPTED = [
    "https://good.example/thanks?r=1",
    "https://agent.example/done?session={CHECKOUT_SESSION_ID}",
    "HTTPS://Good.Example/Path#frag",
    "https://xn--bcher-kva.example/",
    "http://localhost:8000/x",
    "http://127.0.0.1/x",
    "http://[::1]:8000/ok",
    "https://203.0.113.5:8443/back",
]


@pytest.mark.parametrize("url", REFUSED)
def test_a_url_a_browser_could_read_differently_is_refused(url):
    assert return_url_problem(url) is not None


@pytest.mark.parametrize("url", ACCEPTED)
def test_a_plain_https_url_or_local_http_is_accepted(url):
    assert return_url_problem(url) is None


@pytest.mark.django_db
class TestThroughTheApi:
    @pytest.mark.parametrize("field", ["success_url", "cancel_url"])
    @pytest.mark.parametrize("url", REFUSED[:12])
    def test_checkout_link_answers_422_naming_the_field_and_holds_nothing(self, api, demo_property, sandbox, field, url):
        from booking.reservations.models import Reservation

        response = api.post("/api/v1/payments/checkout-link", stay(**{field: url}))
        assert response.status_code == 422
        [error] = response.json()["detail"]
        assert (error["loc"], error["type"]) == (["body", field], "url")
        assert not Reservation.objects.exists()

    def test_checkout_session_applies_the_same_rule(self, api, demo_property, sandbox):
        reservation_id = api.post("/api/v1/reservations", stay()).json()["id"]
        response = api.post("/api/v1/payments/checkout-session", {"reservation_id": reservation_id, "success_url": REFUSED[0]})
        assert response.status_code == 422 and response.json()["detail"][0]["loc"] == ["body", "success_url"]
