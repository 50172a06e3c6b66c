"""Links to the back office sent before the apps split (owner emails name /admin/booking/…) still
open the same screen."""

import pytest


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("/admin/booking/reservation/res_abc/change/", "/admin/reservations/reservation/res_abc/change/"),
        ("/admin/booking/reservation/?status__exact=confirmed", "/admin/reservations/reservation/?status__exact=confirmed"),
        ("/admin/booking/property/1/change/", "/admin/catalog/property/1/change/"),
        ("/admin/booking/securitydeposit/", "/admin/payments/securitydeposit/"),
    ],
)
def test_an_old_back_office_link_leads_to_the_moved_screen(client, old, new):
    response = client.get(old)
    assert response.status_code == 301
    assert response["Location"] == new


@pytest.mark.django_db
@pytest.mark.parametrize("old", ["/admin/booking/nothing/", "/admin/booking/outboundemail/7/change/"])
def test_an_old_link_to_no_screen_is_not_found(client, old):
    assert client.get(old).status_code == 404
