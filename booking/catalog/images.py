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
# Bumped when the card's design changes, so every stored card is made again.
SHARE_VERSION = "2"
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


def share_card(data: bytes | None, title: str, subtitle: str = "", footer: str = "") -> bytes:
    """A 1200×630 JPEG for Open Graph and Twitter cards: the photo, cropped to fill, or (without a
    raster photo, as with the demo's illustrations) the property's name on the site's colours."""
    if data is not None:
        image = ImageOps.fit(open_upright(data), SHARE_SIZE, Image.Resampling.LANCZOS)
    else:
        image = Image.new("RGB", SHARE_SIZE, "#8f3a18")
        draw = ImageDraw.Draw(image)
        band = SHARE_SIZE[1] - 110
        draw.rectangle([0, band, SHARE_SIZE[0], SHARE_SIZE[1]], fill="#f3ebdf")
        text_width = SHARE_SIZE[0] - 2 * 80
        title_font, subtitle_font = _font(66, SERIF_FONTS), _font(34)
        y = 90
        for line in _wrapped(draw, _drawable(title, title_font), title_font, text_width)[:3]:
            draw.text((80, y), line, font=title_font, fill="#fffaf3")
            y += 84
        y += 18
        for line in _wrapped(draw, _drawable(subtitle, subtitle_font), subtitle_font, text_width)[:3]:
            draw.text((80, y), line, font=subtitle_font, fill="#f8e6dc")
            y += 48
        if footer:
            draw.text((80, band + 34), _drawable(footer, subtitle_font), font=subtitle_font, fill="#221f1b")
    return _encode(image, "JPEG")


def _wrapped(draw: ImageDraw.ImageDraw, text: str, font, width: int) -> list[str]:
    """The words of `text` in lines no wider than `width` pixels (a long name must not run off the card)."""
    lines: list[str] = []
    for word in text.split():
        candidate = f"{lines[-1]} {word}" if lines else word
        if lines and draw.textlength(candidate, font=font) <= width:
            lines[-1] = candidate
        else:
            lines.append(word)
    return lines


# The site's serif for the name when the machine has it (Debian's fonts-dejavu); Pillow's own font
# otherwise, which lacks a few characters (—, –) that are then written as a plain hyphen.
SERIF_FONTS = ("DejaVuSerif-Bold.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf")
SANS_FONTS = ("DejaVuSans.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")


def _font(size: int, candidates: tuple[str, ...] = SANS_FONTS):
    for candidate in candidates:
        try:
            return ImageFont.truetype(candidate, size)
        except OSError:
            continue
    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # Pillow built without FreeType: the fixed bitmap font
        return ImageFont.load_default()


def _drawable(text: str, font) -> str:
    if isinstance(font, ImageFont.FreeTypeFont) and "DejaVu" in (font.getname()[0] or ""):
        return text
    return text.replace("—", "-").replace("–", "-")


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
    """The stored name of the property's share image: made once per photo and wording, then found
    by its name. The name is derived without reading the photo again (its renditions carry the hash
    of its content), so a page view costs one existence check, not a decode."""
    if photo is not None and not photo.image:
        photo = None
    wording = (prop.name, prop.headline, _place(prop))
    photo_key = ""
    if photo is not None:
        photo_key = photo.renditions[0]["key"] if photo.renditions else content_name(_read(photo))
    key = content_name("\x1f".join((SHARE_VERSION, photo_key, *wording)).encode())
    name = f"share/{key}.jpg"
    if not default_storage.exists(name):
        data = _read(photo) if photo is not None else None
        name = default_storage.save(name, ContentFile(share_card(data, *wording)))
    return name


def share_image_of_file(name: str) -> str:
    """The stored name of a share image cropped from an uploaded picture (an article's cover),
    made once per file: its name, size and time of change say when it must be made again."""
    stamp = f"{default_storage.size(name)}:{default_storage.get_modified_time(name).timestamp()}"
    share_name = f"share/{content_name(chr(31).join((SHARE_VERSION, name, stamp)).encode())}.jpg"
    if not default_storage.exists(share_name):
        with default_storage.open(name, "rb") as upload:
            data = upload.read()
        share_name = default_storage.save(share_name, ContentFile(share_card(data, "")))
    return share_name


def _read(photo) -> bytes:
    photo.image.open("rb")
    try:
        return photo.image.read()
    finally:
        photo.image.close()


def _place(prop) -> str:
    return ", ".join(part for part in (prop.neighbourhood, prop.city) if part)
