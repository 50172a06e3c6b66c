"""Photos like a real listing (issue 15), as the pages show them: an uploaded photo is served as a
<picture> of sized WebP and JPEG copies with the `sizes` of its slot, the demo's SVG illustrations
as they are; every page is shared with a real 1200×630 image, never an SVG."""

import io
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db.models import F
from PIL import Image

from booking.catalog.models import Photo
from tests.pages.conftest import head

SHARED_PAGES = [
    "/",
    "/penthouse-florence",
    "/availability",
    "/reviews",
    "/location",
    "/faq",
    "/book",
    "/contact",
    "/blog",
    "/blog/three-slow-days-in-florence",
    "/it/",
    "/de/penthouse-florence",
]


def camera_jpeg(width=2400, height=1600) -> bytes:
    image = Image.new("RGB", (width, height), "#3a6ea5")
    image.paste(Image.new("RGB", (width // 3, height), "#e0a030"), (0, 0))
    out = io.BytesIO()
    image.save(out, "JPEG", quality=90)
    return out.getvalue()


@pytest.fixture
def uploaded(site):
    """The owner's photo of the terrace, put first."""
    site.photos.update(position=F("position") + 1)
    return Photo.objects.create(
        property=site,
        position=0,
        alt_text="The terrace at dusk",
        caption="Terrace",
        image=SimpleUploadedFile("terrace.jpg", camera_jpeg(), content_type="image/jpeg"),
    )


class Tags(HTMLParser):
    def __init__(self):
        super().__init__()
        self.found: list[tuple[str, dict, list[str]]] = []
        self._open: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.found.append((tag, dict(attrs), list(self._open)))
        if tag not in ("img", "source", "meta", "link", "br", "input"):
            self._open.append(tag)

    def handle_endtag(self, tag):
        if tag in self._open:
            while self._open.pop() != tag:
                pass


def tags(html: str, name: str) -> list[tuple[dict, list[str]]]:
    parser = Tags()
    parser.feed(html)
    return [(attrs, parents) for tag, attrs, parents in parser.found if tag == name]


def media_file(settings, url: str) -> Path:
    return Path(settings.MEDIA_ROOT) / url.removeprefix(settings.MEDIA_URL)


class TestAnUploadedPhoto:
    def test_the_gallery_serves_it_as_a_picture_of_sized_webp_and_jpeg(self, client, uploaded):
        html = client.get("/penthouse-florence").content.decode()
        img, parents = next((a, p) for a, p in tags(html, "img") if a.get("alt") == "The terrace at dusk")
        assert "picture" in parents and "a" in parents
        assert img["srcset"] == uploaded.srcset_jpeg and img["srcset"].count(".jpg ") == 3
        assert (img["width"], img["height"]) == ("2400", "1600")
        # The first photo is the large slot: half the page's width, 570px at most, the phone's full width.
        assert img["sizes"] == "(max-width: 40rem) calc(100vw - 2.5rem), (min-width: 74.5rem) 570px, calc(50vw - 1.625rem)"
        assert img["fetchpriority"] == "high" and "loading" not in img
        assert img["src"].startswith("/media/photos/sized/") and img["src"].endswith("-960.jpg")
        webp = [a for a, _ in tags(html, "source") if a.get("srcset") == uploaded.srcset_webp]
        assert webp and webp[0]["type"] == "image/webp" and webp[0]["sizes"] == img["sizes"]

    def test_its_link_opens_the_largest_copy_not_the_original_with_its_metadata(self, client, uploaded):
        html = client.get("/penthouse-florence").content.decode()
        link = next(a for a, _ in tags(html, "a") if a.get("data-alt") == "The terrace at dusk")
        assert link["href"] == f"/media/{uploaded.renditions[-1]['jpeg']}" and link["href"].endswith("-1600.jpg")
        assert link["data-full-webp"].endswith("-1600.webp")
        gallery = html.split('id="photos"')[1].split("</section>")[0]
        assert uploaded.image.url not in gallery

    def test_the_other_photos_are_small_slots_and_load_lazily(self, client, uploaded):
        html = client.get("/penthouse-florence").content.decode()
        others = [a for a, _ in tags(html, "img") if a.get("src", "").startswith("/static/img/photos/")]
        assert len(others) == 4
        assert all(a["loading"] == "lazy" and a["width"] == "1200" and a["height"] == "800" for a in others)

    def test_the_home_hero_is_the_first_photo_sized_for_its_column(self, client, uploaded):
        html = client.get("/").content.decode()
        img = next(a for a, _ in tags(html, "img") if a.get("alt") == "The terrace at dusk")
        assert img["srcset"] == uploaded.srcset_jpeg
        assert img["sizes"] == "(min-width: 74.5rem) 590px, (min-width: 52.0625rem) 52vw, calc(100vw - 2.5rem)"
        assert img["fetchpriority"] == "high"

    def test_the_sized_copies_it_names_are_served(self, client, uploaded):
        html = client.get("/penthouse-florence").content.decode()
        for url in re.findall(r"(/media/photos/sized/\S+?\.(?:jpg|webp)) \d+w", html):
            answer = client.get(url)
            assert answer.status_code == 200, url


def test_the_demo_illustrations_stay_plain_svg_images(client, site):
    html = client.get("/penthouse-florence").content.decode()
    imgs = [a for a, _ in tags(html, "img") if a.get("src", "").endswith(".svg") and "photos" in a["src"]]
    assert len(imgs) == 4
    assert all("srcset" not in a and a["alt"] for a in imgs)
    assert "<picture>" not in html.split('class="gallery"')[1].split("</ul>")[0]
    links = [a for a, _ in tags(html, "a") if "data-gallery-item" in a]
    assert [a["href"] for a in links] == [a["src"] for a in imgs]


def test_the_gallery_script_and_styles_come_only_with_the_gallery(client, site):
    with_gallery = client.get("/penthouse-florence").content.decode()
    assert re.search(r'<script src="/static/js/gallery[^"]*\.js" defer>', with_gallery)
    assert re.search(r'<link rel="stylesheet" href="/static/css/gallery[^"]*\.css">', with_gallery)
    for path in ["/", "/faq", "/book"]:
        assert "gallery.js" not in client.get(path).content.decode()
        assert "gallery.css" not in client.get(path).content.decode()


@pytest.mark.parametrize(
    ("path", "counter", "status", "close"),
    [
        ("/penthouse-florence", "{current} / {total}", "Photo {current} of {total}", "Close"),
        ("/it/penthouse-florence", "{current} / {total}", "Foto {current} di {total}", "Chiudi"),
        ("/de/penthouse-florence", "{current} / {total}", "Foto {current} von {total}", "Schließen"),
        ("/fr/penthouse-florence", "{current} / {total}", "Photo {current} sur {total}", "Fermer"),
    ],
)
def test_the_viewer_speaks_the_pages_language(client, site, path, counter, status, close):
    html = client.get(path).content.decode()
    dialog = next(a for a, _ in tags(html, "dialog"))
    assert dialog["data-counter"] == counter and dialog["data-status"] == status
    assert f'<span class="visually-hidden">{close}</span>' in html


def test_no_inline_script_or_handler_in_the_gallery(client, site):
    html = client.get("/penthouse-florence").content.decode()
    assert not re.search(r"<script(?![^>]*\b(src|type=\"application/ld\+json\"))", html)
    assert not re.search(r"\son[a-z]+=", html)


class TestTheShareImage:
    @pytest.mark.parametrize("path", SHARED_PAGES)
    def test_every_page_is_shared_with_a_1200_by_630_raster_image(self, client, site, settings, path):
        page = head(client.get(path).content.decode())
        url = page.meta["og:image"]
        assert url.startswith(settings.BASE_URL + "/media/share/") and not url.endswith(".svg")
        assert page.meta["twitter:card"] == "summary_large_image" and page.meta["twitter:image"] == url
        assert (page.meta["og:image:width"], page.meta["og:image:height"]) == ("1200", "630")
        image = Image.open(media_file(settings, url.removeprefix(settings.BASE_URL)))
        image.load()  # it decodes, whole
        assert image.format in ("JPEG", "PNG") and image.size == (1200, 630)
        assert page.meta["og:image:type"] == Image.MIME[image.format]

    def test_without_an_upload_it_is_made_from_the_property_not_a_stock_file(self, client, site, settings):
        url = head(client.get("/").content.decode()).meta["og:image"]
        image = Image.open(media_file(settings, url.removeprefix(settings.BASE_URL))).convert("RGB")
        assert image.getpixel((20, 20)) == pytest.approx((143, 58, 24), abs=6)  # the site's terracotta
        site.name = "Another name"
        site.save()
        assert head(client.get("/").content.decode()).meta["og:image"] != url

    def test_with_an_upload_it_is_the_first_photo_cropped_to_fill(self, client, uploaded, settings):
        url = head(client.get("/penthouse-florence").content.decode()).meta["og:image"]
        image = Image.open(media_file(settings, url.removeprefix(settings.BASE_URL))).convert("RGB")
        assert image.size == (1200, 630)
        # The photo's orange band on its left third, blue on the right: no name card.
        assert image.getpixel((40, 315))[0] > 200 and image.getpixel((1160, 315))[2] > 140

    def test_it_is_made_once_and_then_reused(self, client, site, settings, monkeypatch):
        from booking.catalog import images

        first = head(client.get("/").content.decode()).meta["og:image"]
        monkeypatch.setattr(images, "share_card", lambda *args, **kwargs: pytest.fail("made again"))
        assert head(client.get("/faq").content.decode()).meta["og:image"] == first
        assert head(client.get("/").content.decode()).meta["og:image"] == first

    def test_an_uploaded_photo_is_not_read_again_on_each_page_view(self, client, uploaded, monkeypatch):
        from booking.catalog import images

        client.get("/")
        monkeypatch.setattr(images, "_read", lambda photo: pytest.fail("read again"))
        assert client.get("/").status_code == 200

    def test_an_article_with_an_uploaded_cover_is_shared_with_that_cover(self, client, site, settings):
        from pages.models import BlogPost

        post = BlogPost.objects.get(slug="three-slow-days-in-florence")
        post.cover_image = SimpleUploadedFile("cover.png", camera_jpeg(1000, 1000), content_type="image/jpeg")
        post.save()
        page = head(client.get(post.get_absolute_url()).content.decode())
        property_card = head(client.get("/").content.decode()).meta["og:image"]
        assert page.meta["og:image"] != property_card and "/media/share/" in page.meta["og:image"]
        image = Image.open(media_file(settings, page.meta["og:image"].removeprefix(settings.BASE_URL)))
        assert image.format == "JPEG" and image.size == (1200, 630)
