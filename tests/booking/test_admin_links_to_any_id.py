"""A reservation id is "res_" + a URL-safe token, so it may hold "_5F" or "_2F": the admin reads
those back as "_" and "/" unless the link quotes the id as the admin quotes its own. Every link the
service builds to a reservation's page (owner alerts, channel-manager alerts) opens that page."""

import secrets
from urllib.parse import urlsplit

import pytest
from django.contrib.admin.utils import quote
from django.urls import reverse

from booking.payments.services.money_alerts import admin_link as money_alert_link
from booking.reservations.emails import admin_url
from booking.reservations.models import Reservation
from booking.reservations.services.holds import hold_stay
from partner_sync.alerts import admin_link as channel_alert_link
from tests.dates import future

# Each of these would come back from the admin's unquote as another id.
IDS_THE_ADMIN_WOULD_MISREAD = ["res_5Fstay", "res_2Fstay", "res_abc_3Adef"]


@pytest.fixture
def staff_client(admin_client):
    return admin_client


@pytest.fixture(params=IDS_THE_ADMIN_WOULD_MISREAD)
def awkward_stay(request, demo_property, monkeypatch):
    real_token = secrets.token_urlsafe
    monkeypatch.setattr(secrets, "token_urlsafe", lambda n=None: request.param.removeprefix("res_") if n == 16 else real_token(n))
    stay = hold_stay(check_in=future(40), check_out=future(43), guests=2, agent_name="trip-bot")
    assert stay.pk == request.param
    return stay


def opens_the_stay(client, link: str, stay: Reservation) -> bool:
    page = client.get(urlsplit(link).path)
    return page.status_code == 200 and stay.pk in page.content.decode()


def test_every_built_link_opens_the_stays_page(staff_client, awkward_stay):
    links = [
        admin_url(awkward_stay),
        money_alert_link(awkward_stay.pk),
        channel_alert_link("admin:reservations_reservation_change", awkward_stay.pk),
    ]
    for link in links:
        assert opens_the_stay(staff_client, link, awkward_stay), link


def test_an_unquoted_link_would_not(staff_client, awkward_stay):
    """Why the quoting matters (and why tests quote too)."""
    raw = reverse("admin:reservations_reservation_change", args=[awkward_stay.pk])
    assert raw != reverse("admin:reservations_reservation_change", args=[quote(awkward_stay.pk)])
    assert staff_client.get(raw).status_code != 200
