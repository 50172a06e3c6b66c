"""Photos like a real listing (issue 15): an uploaded phone JPEG, 2400 px wide, lying on its side
by its EXIF orientation and carrying its GPS position, becomes upright copies of a few widths as
JPEG and WebP, with no metadata; a share image is a 1200×630 JPEG."""

import io
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image

from booking.catalog import images
from booking.catalog.models import Photo

ORIENTATION, GPS_INFO = 0x0112, 0x8825


def phone_jpeg(width=2400, height=1600) -> bytes:
    """A photo as a phone stores it: pixels landscape, EXIF says "rotate 90° clockwise to view"
    (orientation 6), and a GPS block."""
    image = Image.new("RGB", (width, height), "#3a6ea5")
    image.paste(Image.new("RGB", (width // 4, height), "#e0a030"), (0, 0))  # a band on the left edge, to see the turn
    exif = Image.Exif()
    exif[ORIENTATION] = 6
    exif[GPS_INFO] = {1: "N", 2: (43.0, 46.0, 10.0), 3: "E", 4: (11.0, 15.0, 45.0)}
    out = io.BytesIO()
    image.save(out, "JPEG", quality=90, exif=exif.tobytes())
    return out.getvalue()


def test_renditions_are_upright_and_sized_without_upscaling():
    (width, height), made = images.renditions(phone_jpeg())
    assert (width, height) == (1600, 2400)  # turned upright: portrait
    assert [r.width for r in made] == [480, 960, 1600]
    assert [(r.width, r.height) for r in made][0] == (480, 720)
    small = Image.open(io.BytesIO(made[0].jpeg))
    assert small.format == "JPEG" and small.size == (480, 720)
    # The band that was on the left of the stored pixels is on top once upright.
    assert small.getpixel((240, 10)) != small.getpixel((240, 700))
    assert Image.open(io.BytesIO(made[0].webp)).format == "WEBP"


def test_no_metadata_survives():
    _, made = images.renditions(phone_jpeg())
    for rendition in made:
        for body in (rendition.jpeg, rendition.webp):
            exif = Image.open(io.BytesIO(body)).getexif()
            assert GPS_INFO not in exif and ORIENTATION not in exif


def test_a_small_photo_is_kept_at_its_own_width():
    (_, _), made = images.renditions(phone_jpeg(300, 200))
    assert [r.width for r in made] == [200]  # 200 px wide once upright; never enlarged


def test_what_is_not_an_image_is_refused_clearly():
    with pytest.raises(images.UnreadableImage):
        images.renditions(b"%PDF-1.7 not a photo")


def test_the_share_image_is_a_1200_by_630_jpeg_from_a_photo_or_the_name():
    from_photo = Image.open(io.BytesIO(images.share_card(phone_jpeg(), "Attico")))
    from_name = Image.open(io.BytesIO(images.share_card(None, "Attico Santa Croce", "A penthouse in Florence")))
    assert from_photo.format == from_name.format == "JPEG"
    assert from_photo.size == from_name.size == (1200, 630)


class TestUploaded:
    def test_saving_a_photo_stores_its_renditions_in_media(self, demo_property, settings):
        photo = Photo(property=demo_property, image=SimpleUploadedFile("terrace.jpg", phone_jpeg(), content_type="image/jpeg"), alt_text="The terrace")
        photo.full_clean()
        photo.save()
        photo.refresh_from_db()
        assert (photo.width, photo.height) == (1600, 2400)
        assert [r["width"] for r in photo.renditions] == [480, 960, 1600]
        for rendition in photo.renditions:
            assert (Path(settings.MEDIA_ROOT) / rendition["jpeg"]).is_file() and (Path(settings.MEDIA_ROOT) / rendition["webp"]).is_file()
        assert photo.srcset_webp.endswith(".webp 1600w") and photo.srcset_jpeg.startswith("/media/photos/sized/")
        assert photo.display_size == (1600, 2400)

    def test_saving_again_does_not_redo_the_work(self, demo_property, settings):
        photo = Photo.objects.create(property=demo_property, image=SimpleUploadedFile("t.jpg", phone_jpeg(), content_type="image/jpeg"), alt_text="x")
        before = photo.renditions
        photo.caption = "At sunset"
        photo.save()
        assert photo.renditions == before

    def test_a_file_that_is_not_an_image_is_a_form_error(self, demo_property):
        photo = Photo(property=demo_property, image=SimpleUploadedFile("terrace.jpg", b"not a jpeg at all", content_type="image/jpeg"), alt_text="x")
        with pytest.raises(ValidationError) as refused:
            photo.full_clean()
        assert "image" in refused.value.message_dict

    def test_the_demos_illustrations_keep_their_size(self, demo_property):
        illustration = demo_property.photos.first()
        assert not illustration.renditions and illustration.display_size == (1200, 800)


def test_media_is_served_with_long_cache_headers_for_content_named_files(client, demo_property):
    photo = Photo.objects.create(property=demo_property, image=SimpleUploadedFile("t.jpg", phone_jpeg(), content_type="image/jpeg"), alt_text="x")
    sized = client.get(f"/media/{photo.renditions[0]['webp']}")
    assert sized.status_code == 200 and "immutable" in sized["Cache-Control"] and "max-age=31536000" in sized["Cache-Control"]
    original = client.get(photo.image.url)
    assert original.status_code == 200 and "max-age=86400" in original["Cache-Control"] and "immutable" not in original["Cache-Control"]


def test_the_published_photo_is_a_sized_copy_without_the_phones_gps(client, demo_property):
    # The original upload keeps its EXIF (GPS included); the API, the JSON-LD and the pages
    # publish the largest sized copy instead.
    Photo.objects.create(property=demo_property, image=SimpleUploadedFile("t.jpg", phone_jpeg(), content_type="image/jpeg"), alt_text="x", position=0)
    [published] = [p["url"] for p in client.get("/api/v1/property").json()["photos"] if "/media/" in p["url"]]

    assert "/media/photos/sized/" in published
    path = "/" + published.split("://", 1)[1].split("/", 1)[1]
    served = client.get(path)
    exif = Image.open(io.BytesIO(b"".join(served.streaming_content) if served.streaming else served.content)).getexif()
    assert GPS_INFO not in exif
