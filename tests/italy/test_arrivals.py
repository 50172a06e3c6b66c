"""Identity seen (de visu) on the arrivals screen (DESIGN.md, "Italy, second round"): today's and
tomorrow's arrivals, who checked in, who is verified, one click per guest or per party; only verified
guests go to the police; a stay unverified 12 hours into its check-in day is flagged and the owner
emailed once; a party changed after the police have it is flagged, never sent twice."""

from datetime import datetime, time

import pytest
from django.core.management import call_command
from django.utils import timezone

from booking.italy.checkin import save_check_in
from booking.italy.identity import flag_unverified_stays
from booking.italy.models import Guest, PoliceRegistration
from booking.italy.registration import send_due_registrations
from booking.outbox.models import OutboundEmail
from booking.reservations.models import AttentionFlag, Reservation
from tests.dates import future, today
from tests.italy.conftest import LEAD, PARTNER, party, seen
from tests.italy.fake_alloggiati import FakeAlloggiati

pytestmark = pytest.mark.django_db


def at(day, hour: int) -> datetime:
    """`hour` o'clock on `day`, on the property's clock (Europe/Rome)."""
    return timezone.make_aware(datetime.combine(day, time(hour)))


@pytest.fixture
def arriving(make_stay):
    stay = make_stay(check_in=today(), nights=1, guests=2)
    save_check_in(stay, party(LEAD, PARTNER))
    return stay


def test_the_screen_lists_todays_and_tomorrows_arrivals_and_a_click_verifies_a_guest(admin_client, admin_user, make_stay, arriving):
    tomorrow = make_stay(check_in=future(1), nights=1, guests=1)
    later = make_stay(check_in=future(2), nights=1, guests=1)
    screen = admin_client.get("/admin/italy/arrival/").content.decode()
    assert f'data-stay="{arriving.pk}" data-verified="0"' in screen and f'data-stay="{tomorrow.pk}"' in screen and f'data-stay="{later.pk}"' not in screen
    assert "Neri, Giulia (lead guest)" in screen and "Müller, Jürgen" in screen
    assert "Checked in" in screen and "Not checked in yet" in screen  # tomorrow's guest has not
    answer = admin_client.post(f"/admin/italy/arrival/{arriving.pk}/verify/", {"guest": "1", "method": "video"}, follow=True)
    assert "1 guest(s) verified." in answer.content.decode()
    partner = Guest.objects.get(check_in__reservation=arriving, position=1)
    assert partner.identity_verified == {"method": "video", "at": partner.identity_verified_at.isoformat(), "by": admin_user.username}
    assert Guest.objects.get(check_in__reservation=arriving, position=0).identity_verified is None
    screen = admin_client.get("/admin/italy/arrival/").content.decode()
    assert 'data-identity="video"' in screen and "Identity verified: 1 of 2" in screen
    admin_client.post(f"/admin/italy/arrival/{arriving.pk}/verify/", {"method": "in_person"})  # the rest of the party, one click
    methods = list(Guest.objects.filter(check_in__reservation=arriving).values_list("identity_method", flat=True))
    assert methods == ["in_person", "video"]  # a guest already verified keeps how


def test_the_screen_speaks_the_back_offices_language_and_the_dashboard_links_to_it(admin_client, arriving):
    italian = admin_client.get("/admin/italy/arrival/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "Arrivi di oggi e di domani" in italian and "Video in diretta" in italian and "Di persona" in italian
    assert "Anreisen heute und morgen" in admin_client.get("/admin/italy/arrival/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert 'href="/admin/italy/arrival/"' in admin_client.get("/admin/").content.decode()


def test_a_wrong_method_or_id_is_refused_plainly(admin_client, arriving):
    answer = admin_client.post(f"/admin/italy/arrival/{arriving.pk}/verify/", {"method": "phone"}, follow=True)
    assert "Choose in person or live video." in answer.content.decode()
    assert not Guest.objects.exclude(identity_method="").exists()
    assert admin_client.post("/admin/italy/arrival/res_nope%00/verify/", {"method": "video"}).status_code == 404


def test_the_api_answer_carries_identity_verified(client, arriving):
    seen(arriving, "video")
    answer = client.put(f"/manage/{arriving.manage_token}/check-in", party(LEAD, PARTNER), content_type="application/json").json()
    assert [g["identity_verified"]["method"] for g in answer["guests"]] == ["video", "video"]  # saved again unchanged: still verified
    changed = client.put(f"/manage/{arriving.manage_token}/check-in", party(LEAD, dict(PARTNER, last_name="Mueller")), content_type="application/json")
    assert [g["identity_verified"] is None for g in changed.json()["guests"]] == [False, True]  # another person: seen again


def test_the_police_file_leaves_out_every_stay_with_an_unverified_guest(make_stay, capsys):
    day = future(3)  # three one-night stays, one after the other
    verified, half, unseen = (
        make_stay(check_in=day, nights=1, guests=1),
        make_stay(check_in=future(4), nights=1, guests=2),
        make_stay(check_in=future(5), nights=1, guests=1),
    )
    save_check_in(verified, party(LEAD))
    save_check_in(half, party(dict(LEAD, last_name="Rossi"), PARTNER))
    save_check_in(unseen, party(dict(LEAD, last_name="Bruni")))
    seen(verified)
    from booking.italy.identity import verify

    verify(half.pk, method="in_person", by="desk", positions=[1])
    with pytest.raises(SystemExit):
        call_command("alloggiati_file", "--from", str(day), "--to", str(future(5)))
    captured = capsys.readouterr()
    records = captured.out.removesuffix("\r\n").encode("ascii").split(b"\r\n")
    assert all(len(record) == 168 for record in records)
    assert [record[14:64].rstrip() for record in records] == [b"Neri"]  # neither Rossi, nor Mueller (verified, but his lead is not), nor Bruni
    assert captured.err.count("identity not verified yet") == 2 and "guest 1 (the arrivals screen)" in captured.err


def test_the_web_service_sends_a_stay_only_once_every_guest_is_verified(settings, arriving):
    service = FakeAlloggiati()
    settings.ALLOGGIATI_USER, settings.ALLOGGIATI_PASSWORD, settings.ALLOGGIATI_WSKEY, settings.ALLOGGIATI_URL = "FI0001", "secret", "wskey", service.url
    try:
        assert send_due_registrations() == 0 and service.calls == []
        seen(arriving)
        assert send_due_registrations() == 1
    finally:
        service.close()


def test_unverified_12_hours_into_the_check_in_day_flags_the_stay_and_emails_the_owner_once(settings, arriving):
    settings.OWNER_EMAIL = "owner@example.com"
    assert flag_unverified_stays(now=at(today(), 11)) == 0  # not yet 12 hours
    assert not AttentionFlag.objects.filter(reservation=arriving).exists()
    assert flag_unverified_stays(now=at(today(), 13)) == 1
    assert flag_unverified_stays(now=at(today(), 14)) == 0  # run again (or by a second worker): no second email
    [email] = OutboundEmail.objects.filter(kind=OutboundEmail.Kind.OWNER_ALERT, to_address="owner@example.com")
    assert email.subject == f"Identity not verified: the stay arriving on {today():%d/%m/%Y} (Giulia Neri)"
    assert "/admin/italy/arrival/" in email.body and "sends only verified guests" in email.body
    [flag] = AttentionFlag.objects.filter(reservation=arriving, code="identity_unverified", resolved_at__isnull=True)
    seen(arriving)
    flag.refresh_from_db()
    assert flag.resolved_at is not None and flag.resolved_by == "front desk"
    assert flag_unverified_stays(now=at(today(), 15)) == 0 and not AttentionFlag.objects.filter(resolved_at__isnull=True).exists()


def test_a_stay_with_no_check_in_at_all_is_flagged_too_and_a_verified_one_never(settings, make_stay):
    settings.OWNER_EMAIL = "owner@example.com"
    everyone = make_stay(check_in=today(), nights=1, guests=1)
    save_check_in(everyone, party(LEAD))
    seen(everyone)
    assert flag_unverified_stays(now=at(today(), 12)) == 0 and not AttentionFlag.objects.exists()
    nobody = make_stay(check_in=future(1), nights=1, guests=2)
    assert flag_unverified_stays(now=at(future(1), 12)) == 1
    assert Reservation.objects.filter(attention_flags__code="identity_unverified").get() == nobody


def test_staff_changing_a_party_after_the_police_have_it_flags_the_stay_and_sends_nothing_again(settings, admin_client, arriving):
    service = FakeAlloggiati()
    settings.ALLOGGIATI_USER, settings.ALLOGGIATI_PASSWORD, settings.ALLOGGIATI_WSKEY, settings.ALLOGGIATI_URL = "FI0001", "secret", "wskey", service.url
    try:
        seen(arriving)
        assert send_due_registrations() == 1
        form = {f"g0-{k}": v for k, v in LEAD.items() if k != "document"} | {f"g1-{k}": v for k, v in PARTNER.items()}
        form |= {"party": "family", "g0-document_type": "identity_card", "g0-document_number": "", "g0-document_issued_in": "Firenze", "g1-last_name": "Meyer"}
        assert admin_client.post(f"/admin/italy/arrival/{arriving.pk}/party/", form).status_code == 302
        flag = AttentionFlag.objects.get(reservation=arriving, code="flag_check_in_changed_after_police")
        assert flag.params["changes"] == ["1:last_name"]
        assert send_due_registrations() == 0 and len(service.calls) == 3  # never a second record
        assert PoliceRegistration.objects.get(reservation=arriving).status == "sent"
    finally:
        service.close()


def test_the_guest_form_keeps_the_document_number_after_an_error_in_another_guests_field(client, make_stay):
    stay = make_stay(guests=2)
    url = f"/manage/{stay.manage_token}/check-in"
    form = {f"g0-{k}": v for k, v in LEAD.items() if k != "document"} | {f"g1-{k}": v for k, v in PARTNER.items()}
    form |= {"g0-document_type": "identity_card", "g0-document_number": "CA12345AB", "g0-document_issued_in": "Firenze", "g1-date_of_birth": "1982-02-30"}
    html = client.post(url, form).content.decode()
    assert "Not a real date" in html and "CA12345AB" not in html and "••••••5AB" in html  # kept, never echoed
    assert 'value="Neri"' in html and 'value="Firenze"' in html  # the other fields survive too
    kept = html.split('name="document_kept" value="')[1].split('"')[0]
    assert client.post(url, form | {"g0-document_number": "", "g1-date_of_birth": "1982-11-20", "document_kept": kept}).status_code == 303
    assert Guest.objects.get(check_in__reservation=stay, position=0).document_number == "CA12345AB"


def test_the_demo_shows_arrivals_on_the_screen(settings, admin_client):
    settings.DEMO = True
    call_command("load_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    call_command("load_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115  (again: nothing twice)
    screen = admin_client.get("/admin/italy/arrival/").content.decode()
    assert screen.count('data-verified="1"') == 1 and "Schmidt, Anna (lead guest)" in screen and "James Carter" in screen
    assert Reservation.objects.filter(channel_booking_id__startswith="demo-").count() == 2


def test_the_check_in_page_of_the_back_office_says_who_verified_whom(admin_client, arriving):
    from booking.italy.models import CheckIn

    seen(arriving, "video")
    page = admin_client.get(f"/admin/italy/checkin/{CheckIn.objects.get(reservation=arriving).pk}/change/").content.decode()
    assert "Live video · " in page and " · front desk" in page
