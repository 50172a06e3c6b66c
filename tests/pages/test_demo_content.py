"""The demo content is created once and never overwrites what the owner edited."""

from django.core.management import call_command

from pages import demo
from pages.models import BlogPost, FaqEntry, PageKey, PageText


def test_the_demo_fills_every_page_the_faq_and_the_journal(site):
    assert set(PageText.objects.values_list("key", flat=True)) == set(PageKey.values)
    assert FaqEntry.objects.count() >= 10
    assert BlogPost.objects.public().count() >= 3
    assert BlogPost.objects.filter(status=BlogPost.Status.DRAFT).exists()
    for text in PageText.objects.all():
        assert "lorem" not in (text.title + text.intro + text.body).lower()


def test_loading_again_changes_nothing_the_owner_edited(site):
    home = PageText.objects.get(key=PageKey.HOME)
    home.title = "Our own words"
    home.save()
    FaqEntry.objects.filter(position=10).delete()
    BlogPost.objects.filter(slug="arriving-in-florence").update(title="Edited by the owner")
    BlogPost.objects.filter(slug="santa-croce-neighbourhood-guide").delete()
    counts = (FaqEntry.objects.count(), BlogPost.objects.count())

    assert demo.load() is False
    call_command("load_demo", stdout=open("/dev/null", "w"))

    assert PageText.objects.get(key=PageKey.HOME).title == "Our own words"
    assert BlogPost.objects.get(slug="arriving-in-florence").title == "Edited by the owner"
    assert not BlogPost.objects.filter(slug="santa-croce-neighbourhood-guide").exists(), "deleted content stays deleted"
    assert (FaqEntry.objects.count(), BlogPost.objects.count()) == counts


def test_a_page_text_the_owner_removed_is_restored_as_a_default(site):
    PageText.objects.filter(key=PageKey.LOCATION).delete()
    assert demo.load() is True
    assert PageText.objects.filter(key=PageKey.LOCATION).exists()


def test_pages_fall_back_to_default_titles_without_any_page_text(client, site):
    PageText.objects.all().delete()
    page = client.get("/faq").content.decode()
    assert "<h1>Frequently asked questions</h1>" in page
