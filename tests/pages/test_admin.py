"""The owner edits the website's words, FAQ and journal, and reads inquiries, in the admin."""

import pytest
from django.conf import settings
from django.contrib.auth.models import User

from pages.models import BlogPost, ContactInquiry, FaqEntry, PageText


@pytest.fixture
def owner(client, site):
    user = User.objects.create_superuser("owner", "owner@example.com", "a-long-test-password")
    client.force_login(user)
    return client


def admin(path: str) -> str:
    return f"/{settings.ADMIN_PATH}pages/{path}"


@pytest.mark.parametrize("model", ["pagetext", "faqentry", "blogpost", "contactinquiry"])
def test_each_content_list_opens(owner, model):
    assert owner.get(admin(f"{model}/")).status_code == 200


def test_each_edit_form_opens(owner):
    ContactInquiry.objects.create(name="Ada", email="ada@example.com", message="Hello there, a question.")
    for model, obj in [
        ("pagetext", PageText.objects.first()),
        ("faqentry", FaqEntry.objects.first()),
        ("blogpost", BlogPost.objects.first()),
        ("contactinquiry", ContactInquiry.objects.first()),
    ]:
        assert owner.get(admin(f"{model}/{obj.pk}/change/")).status_code == 200, model


def test_inquiries_cannot_be_invented_in_the_admin(owner):
    assert owner.get(admin("contactinquiry/add/")).status_code == 403


def test_the_owner_publishes_a_draft_from_the_list(owner, client):
    draft = BlogPost.objects.get(status=BlogPost.Status.DRAFT)
    assert client.get(draft.get_absolute_url()).status_code == 404
    owner.post(admin("blogpost/"), {"action": "publish_now", "_selected_action": [draft.pk]})
    assert client.get(draft.get_absolute_url()).status_code == 200


def test_an_edited_page_text_shows_on_the_site(owner, client):
    text = PageText.objects.get(key="faq")
    answer = owner.post(
        admin(f"pagetext/{text.pk}/change/"),
        {
            "title_en": "Questions & answers",
            "meta_description_en": "Everything guests ask.",
            "intro_en": "Short and useful.",
            "body_en": "## More\n\nAsk **us**.",
            "title_it": "Domande e risposte",  # one field per language; the empty ones show English
        },
    )
    assert answer.status_code == 302
    page = client.get("/faq").content.decode()
    assert "<h1>Questions &amp; answers</h1>" in page
    assert "<strong>us</strong>" in page
    assert "<h1>Domande e risposte</h1>" in client.get("/it/faq").content.decode()
    assert "<strong>us</strong>" in client.get("/it/faq").content.decode(), "the untranslated body falls back to English"
