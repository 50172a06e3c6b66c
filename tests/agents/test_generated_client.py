"""A developer's client generated from the published OpenAPI document with openapi-python-client
works as generated: it quotes and holds a stay for a family (children_ages), reads the hold back
and lets it go, each answer parsed into the generated models."""

import datetime
import importlib
import subprocess
import sys

import pytest
import requests

from tests.agents.conftest import TIMEOUT, first_free_stay

pytestmark = [pytest.mark.live, pytest.mark.slow]


@pytest.fixture
def generated(live_url, tmp_path):
    document = tmp_path / "openapi.json"
    document.write_bytes(requests.get(live_url + "/api/openapi.json", timeout=TIMEOUT).content)
    config = tmp_path / "config.yaml"
    config.write_text("post_hooks: []\n")  # no formatter run: the generated code is used as it is
    package = tmp_path / "booking_client"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "openapi_python_client",
            "generate",
            "--path",
            str(document),
            "--output-path",
            str(package),
            "--meta",
            "none",
            "--config",
            str(config),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Warning" not in result.stdout, result.stdout  # every schema understood
    sys.path.insert(0, str(tmp_path))
    try:
        yield lambda name: importlib.import_module(f"booking_client.{name}")
    finally:
        sys.path.remove(str(tmp_path))
        for name in [m for m in sys.modules if m == "booking_client" or m.startswith("booking_client.")]:
            del sys.modules[name]


def test_a_generated_client_holds_a_family_stay_and_releases_it(live_url, generated):
    client = generated("client").Client(base_url=live_url, raise_on_unexpected_status=True)
    models = generated("models")
    stay = first_free_stay(live_url, guests=4)
    check_in, check_out = datetime.date.fromisoformat(stay["check_in"]), datetime.date.fromisoformat(stay["check_out"])

    family = generated("api.api.get_quote").sync(
        client=client, body=models.QuoteRequest(check_in=check_in, check_out=check_out, guests=4, children_ages=[5, 9])
    )
    adults = generated("api.api.get_quote").sync(client=client, body=models.QuoteRequest(check_in=check_in, check_out=check_out, guests=4))
    assert isinstance(family, models.Quote) and family.city_tax < adults.city_tax  # under-12s are exempt in Florence
    assert family.total == adults.total - (adults.city_tax - family.city_tax)

    link = generated("api.api.create_checkout_link").sync(
        client=client,
        idempotency_key="generated-client-1",
        body=models.CheckoutLinkCreate(check_in=check_in, check_out=check_out, guests=4, children_ages=[5, 9], agent_name="generated-client"),
    )
    assert (
        isinstance(link, models.Checkout) and link.checkout_url.startswith("http") and link.amount == family.payment_schedule[0].amount
    )  # due now: the deposit

    held = generated("api.api.get_reservation").sync(client=client, reservation_id=link.reservation_id)
    assert isinstance(held, models.Reservation) and held.status == "held" and held.guests == 4

    released = generated("api.api.release_hold").sync(client=client, reservation_id=link.reservation_id)
    assert released.status == "cancelled"
    unknown = generated("api.api.get_reservation").sync(client=client, reservation_id="res_doesnotexist0000000000")
    assert isinstance(unknown, models.Error) and unknown.code == "not_found"
