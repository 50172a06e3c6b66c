"""The contact form stores the message, emails the owner, and keeps spam and forged posts out."""

import pytest
from django.core import mail
from django.test import Client, TestCase

from pages.models import ContactInquiry

MESSAGE = {
    "name": "Ada Lovelace",
    "email": "ada@example.com",
    "phone": "+44 20 7946 0958",
    "check_in": "2027-05-10",
    "check_out": "2027-05-14",
    "guests": "4",
    "message": "Is the terrace shaded in the afternoon in May?",
}


def post(client, data, **extra):
    with TestCase.captureOnCommitCallbacks(execute=True):  # the outbox's email task runs after commit
        return client.post("/contact", data, **extra)


def test_a_message_is_stored_and_emailed_to_the_owner(client, site):
    answer = post(client, MESSAGE)
    assert answer.status_code == 302
    assert answer["Location"] == "/contact?sent=1"
    inquiry = ContactInquiry.objects.get()
    assert (inquiry.name, inquiry.email, inquiry.guests, str(inquiry.check_in)) == ("Ada Lovelace", "ada@example.com", 4, "2027-05-10")
    assert inquiry.emailed is True
    [email] = mail.outbox
    assert email.to == [site.contact_email]
    assert email.reply_to == ["ada@example.com"]
    assert email.subject == "Website inquiry from Ada Lovelace"
    assert "Is the terrace shaded" in email.body
    assert "Mon 10 May 2027 → Fri 14 May 2027" in email.body
    assert "thank you" in client.get("/contact?sent=1").content.decode().lower()


def test_without_a_property_address_the_owner_email_setting_is_used(client, site, settings):
    site.contact_email = ""
    site.save()
    settings.OWNER_EMAIL = "owner@example.com"
    post(client, MESSAGE)
    assert mail.outbox[0].to == ["owner@example.com"]


def test_a_failing_mail_server_loses_nothing(client, site, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = "127.0.0.1", 9, 1
    assert post(client, MESSAGE).status_code == 302
    assert ContactInquiry.objects.get().emailed is False


def test_line_breaks_cannot_inject_email_headers(client, site):
    post(client, {**MESSAGE, "name": "Eve\r\nBcc: victim@example.com\nX-Spam: yes"})
    [email] = mail.outbox
    assert "\n" not in email.subject and "\r" not in email.subject
    message = email.message()
    assert message["Bcc"] is None
    assert message["X-Spam"] is None
    assert email.recipients() == [site.contact_email]


def test_the_honeypot_rejects_bots(client, site):
    answer = post(client, {**MESSAGE, "homepage": "https://spam.example"})
    assert answer.status_code == 400
    assert ContactInquiry.objects.count() == 0
    assert mail.outbox == []


def test_invalid_input_is_shown_back_with_field_errors(client, site):
    answer = post(client, {**MESSAGE, "email": "not-an-address", "check_out": "2027-05-01", "message": ""})
    assert answer.status_code == 400
    page = answer.content.decode()
    assert 'aria-invalid="true"' in page
    assert "valid email address" in page
    assert "The departure must be after the arrival." in page
    assert ContactInquiry.objects.count() == 0


def test_more_guests_than_the_property_sleeps_is_refused(client, site):
    assert post(client, {**MESSAGE, "guests": "8"}).status_code == 400


def test_a_post_without_the_csrf_token_is_refused(site):
    forged = Client(enforce_csrf_checks=True)
    answer = forged.post("/contact", MESSAGE)
    assert answer.status_code == 403
    assert ContactInquiry.objects.count() == 0


def test_a_post_with_the_csrf_token_from_the_form_is_accepted(site):
    browser = Client(enforce_csrf_checks=True)
    form_page = browser.get("/contact")
    token = form_page.cookies["csrftoken"].value
    assert 'name="csrfmiddlewaretoken"' in form_page.content.decode()
    answer = browser.post("/contact", {**MESSAGE, "csrfmiddlewaretoken": token})
    assert answer.status_code == 302
    assert ContactInquiry.objects.count() == 1


def test_one_address_cannot_flood_the_inbox(client, site, settings):
    settings.CONTACT_RATE_LIMIT = "3/h"
    for _ in range(3):
        assert post(client, MESSAGE, REMOTE_ADDR="203.0.113.9").status_code == 302
    limited = post(client, MESSAGE, REMOTE_ADDR="203.0.113.9")
    assert limited.status_code == 429
    assert int(limited["Retry-After"]) > 0
    assert ContactInquiry.objects.count() == 3
    assert post(client, MESSAGE, REMOTE_ADDR="198.51.100.7").status_code == 302, "other guests are not affected"


@pytest.mark.parametrize("field", ["name", "message"])
def test_nul_characters_are_refused_not_crashing(client, site, field):
    assert post(client, {**MESSAGE, field: "a\x00b" * 5}).status_code == 400
