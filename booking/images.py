"""Uploaded photos made fit for the web, with Pillow: turned upright (EXIF orientation applied),
stripped of their metadata (a phone's GPS position must not reach the site), and saved in a few
widths as JPEG and WebP for `srcset`, so a 279 px slot never downloads a 2400 px original.

Also the share image: social previews want a JPEG or PNG of 1200×630, not an SVG.

Pure functions over bytes, and `process_photo`/`share_image_for`, which store what they make in
the default storage (MEDIA_ROOT) under names derived from the content, so a re-upload of the same
file reuses its renditions and a changed photo never shows a stale one.
"""

import hashlib
import io
from dataclasses import dataclass

from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from PIL import Image, ImageDraw, ImageFont, ImageOps

WIDTHS = (480, 960, 1600)
JPEG_QUALITY = 82
WEBP_QUALITY = 78
SHARE_SIZE = (1200, 630)
# A decompression bomb is refused before it is decoded (Pillow warns at 89 Mpx; this is stricter).
MAX_PIXELS = 60_000_000


class UnreadableImage(ValueError):
    pass


@dataclass(frozen=True)
class Rendition:
    width: int
    height: int
    jpeg: bytes
    webp: bytes


def open_upright(data: bytes) -> Image.Image:
    """The image as it should be seen: EXIF rotation applied, in RGB, with no metadata kept."""
    try:
        image = Image.open(io.BytesIO(data))
        if image.width * image.height > MAX_PIXELS:
            raise UnreadableImage(f"The photo is {image.width}×{image.height}: too large to process.")
        image.load()
    except UnreadableImage:
        raise
    except Exception as error:  # Pillow raises many types for a file that is not an image
        raise UnreadableImage("The file is not an image Pillow can read (JPEG, PNG, WebP, …).") from error
    image = ImageOps.exif_transpose(image)
    if image.mode not in ("RGB", "L"):
        background = Image.new("RGB", image.size, "white")
        background.paste(image, mask=image.convert("RGBA").split()[-1])
        image = background
    # A fresh image holds only pixels: no EXIF, no GPS, no ICC profile carried over.
    clean = Image.new("RGB", image.size)
    clean.paste(image.convert("RGB"))
    return clean


def renditions(data: bytes, widths: tuple[int, ...] = WIDTHS) -> tuple[tuple[int, int], list[Rendition]]:
    """(upright size of the original, its renditions): one per width not larger than the original,
    and always at least one (the original's width) so a small photo is served too."""
    image = open_upright(data)
    wanted = sorted({w for w in widths if w < image.width} | {min(image.width, max(widths))})
    made = []
    for width in wanted:
        height = round(image.height * width / image.width)
        resized = image if width == image.width else image.resize((width, height), Image.Resampling.LANCZOS)
        made.append(Rendition(width=width, height=height, jpeg=_encode(resized, "JPEG"), webp=_encode(resized, "WEBP")))
    return image.size, made


def _encode(image: Image.Image, kind: str) -> bytes:
    out = io.BytesIO()
    if kind == "JPEG":
        image.save(out, "JPEG", quality=JPEG_QUALITY, optimize=True, progressive=True)
    else:
        image.save(out, "WEBP", quality=WEBP_QUALITY, method=4)
    return out.getvalue()


def share_card(data: bytes | None, title: str, subtitle: str = "") -> bytes:
    """A 1200×630 JPEG for Open Graph and Twitter cards: the photo, cropped to fill, or (without a
    raster photo, as with the demo's illustrations) the property's name on the site's colours."""
    if data is not None:
        image = ImageOps.fit(open_upright(data), SHARE_SIZE, Image.Resampling.LANCZOS)
    else:
        image = Image.new("RGB", SHARE_SIZE, "#7a3b1d")
        draw = ImageDraw.Draw(image)
        draw.rectangle([0, SHARE_SIZE[1] - 120, SHARE_SIZE[0], SHARE_SIZE[1]], fill="#f4ede4")
        draw.text((80, 200), title, font=_font(64), fill="#fffaf3")
        if subtitle:
            draw.text((80, 300), subtitle, font=_font(34), fill="#f4d9c2")
    return _encode(image, "JPEG")


def _font(size: int):
    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # Pillow built without FreeType: the fixed bitmap font
        return ImageFont.load_default()


# --- Stored ---------------------------------------------------------------------------------------


def content_name(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:20]


def process_photo(photo) -> bool:
    """Make the renditions of a Photo's uploaded image and record them on it (not saved here).
    Returns False when there is nothing to do (no upload, or already processed)."""
    if not photo.image:
        if photo.renditions:
            photo.renditions, photo.width, photo.height = [], None, None
            return True
        return False
    photo.image.open("rb")
    try:
        data = photo.image.read()
    finally:
        photo.image.close()
    key = content_name(data)
    if photo.renditions and photo.renditions[0].get("key") == key:
        return False
    (width, height), made = renditions(data)
    stored = []
    for rendition in made:
        entry = {"key": key, "width": rendition.width, "height": rendition.height}
        for kind, body in (("jpeg", rendition.jpeg), ("webp", rendition.webp)):
            name = f"photos/sized/{key}-{rendition.width}.{'jpg' if kind == 'jpeg' else 'webp'}"
            if not default_storage.exists(name):
                name = default_storage.save(name, ContentFile(body))
            entry[kind] = name
        stored.append(entry)
    photo.renditions, photo.width, photo.height = stored, width, height
    return True


def share_image_for(prop, photo=None) -> str:
    """The stored name of the property's share image (made once per photo or name)."""
    data = None
    if photo is not None and photo.image:
        photo.image.open("rb")
        try:
            data = photo.image.read()
        finally:
            photo.image.close()
    key = content_name((data or b"") + prop.name.encode() + prop.headline.encode())
    name = f"share/{key}.jpg"
    if not default_storage.exists(name):
        name = default_storage.save(name, ContentFile(share_card(data, prop.name, prop.headline)))
    return name
