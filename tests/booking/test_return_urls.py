"""Return URLs (success_url, cancel_url) at the two layers tests/payments/test_return_urls.py does
not reach, with its table (issue 12, item 7): the field itself, which judges the text exactly as
sent (no trimming first) and refuses with code "url", the `type` of the API's 422 item; and the
accepted URLs through the API, arriving at the payment provider with the host the check saw.

International host names: only their xn-- form is accepted (see ReturnUrlField)."""

from urllib.parse import urlsplit

import pytest
from rest_framework import serializers

from booking.api.validation import CheckoutLinkCreate, CheckoutSessionCreate, ReturnUrlField
from booking.payments.models import SandboxCheckout
from tests.payments.conftest import sandbox, stay  # noqa: F401 (sandbox: a fixture)
from tests.payments.test_return_urls import ACCEPTED, REFUSED

# Braces in the query do not touch the host: accepted (the reservation id is added as reservation_id=…).
ACCEPTED = [*ACCEPTED, "https://good.example/thanks?r={RESERVATION_ID}"]


@pytest.mark.parametrize("url", REFUSED)
def test_the_field_refuses_with_code_url(url):
    with pytest.raises(serializers.ValidationError) as refused:
        ReturnUrlField().run_validation(url)
    assert refused.value.get_codes() == ["url"]


@pytest.mark.parametrize("url", ACCEPTED)
def test_the_field_keeps_an_accepted_url_as_given(url):
    assert ReturnUrlField().run_validation(url) == url


@pytest.mark.parametrize("schema", [CheckoutLinkCreate, CheckoutSessionCreate])
def test_both_return_urls_of_both_checkout_schemas_are_this_field(schema):
    assert isinstance(schema().fields["success_url"], ReturnUrlField) and isinstance(schema().fields["cancel_url"], ReturnUrlField)


@pytest.mark.django_db
@pytest.mark.parametrize("field", ["success_url", "cancel_url"])
@pytest.mark.parametrize("url", ACCEPTED)
def test_an_accepted_url_reaches_the_provider_with_its_host(api, demo_property, sandbox, settings, field, url):  # noqa: F811
    settings.TRUSTED_RETURN_HOSTS = [urlsplit(url).hostname]  # a foreign host is only linked to (tests/payments/test_return_hosts.py)
    response = api.post("/api/v1/payments/checkout-link", stay(**{field: url}))
    assert response.status_code == 200, response.content
    sent = urlsplit(getattr(SandboxCheckout.objects.get(), field))
    assert (sent.scheme, sent.netloc) == (urlsplit(url).scheme, urlsplit(url).netloc)
    assert f"reservation_id={response.json()['reservation_id']}" in sent.query


@pytest.mark.django_db
@pytest.mark.parametrize("field", ["success_url", "cancel_url"])
@pytest.mark.parametrize("url", REFUSED)
def test_checkout_session_answers_422_with_type_url_and_starts_no_checkout(api, demo_property, sandbox, field, url):  # noqa: F811
    reservation_id = api.post("/api/v1/reservations", stay()).json()["id"]
    response = api.post("/api/v1/payments/checkout-session", {"reservation_id": reservation_id, field: url})
    assert response.status_code == 422
    [item] = response.json()["detail"]
    assert (item["loc"], item["type"]) == (["body", field], "url")
    assert not SandboxCheckout.objects.exists()
