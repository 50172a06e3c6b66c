"""What a reader of a translated page or email must never meet: an English sentence, an English
month, a raw code (`res_…`, an ISO country or language code shown as text). Text inside an element
whose `lang` names another language (an untranslated article, a review in its original) is skipped:
the page says which language it is in."""

import re
from html.parser import HTMLParser

from babel import Locale

# Words of English that are no word of Italian, German or French: two in one sentence is English.
FUNCTION_WORDS = frozenset(
    "the and with of your you this that only from is are our we which by for to be been have has what when here there every each "
    "see its their would should could into than these those".split()
)
# English words of the demo's own content and the interface that a sentence of English alone may carry.
ENGLISH_WORDS = re.compile(
    r"\b(season|seasons|discount|Weekly|Monthly|Tuscany|Italian|English|French|Summer|Autumn|Spring|Swipe|sideways|"
    r"Germany|Switzerland|Florence|night|nights|guests?|stay|booking|checkout|Check your|Book now)\b"
)
ALLOWED = {"fr": {"Florence"}}  # French writes Florence as English does
MONTHS = "January February March April May June July August September October November December".split()
GERMAN_MONTHS = {"April", "August", "September", "November"}
ENGLISH_DAY_MONTH = re.compile(r"\b\d{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)\b(?!\.)")
RAW_ID = re.compile(r"\bres_[A-Za-z0-9]+")
SKIPPED_TAGS = {"script", "style", "code", "pre", "template"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
TEXT_ATTRIBUTES = ("alt", "title", "aria-label", "placeholder")


def territory_codes() -> frozenset[str]:
    return frozenset(code for code in Locale.parse("en").territories if len(code) == 2)


CODES = territory_codes()
# Two capitals that are a country's code but also words the pages write (a TV, a WC).
NOT_CODES = {"TV", "WC", "OK", "AI", "GB", "PM", "AM", "ID"}


class ReaderText(HTMLParser):
    """The text a reader reads as the page's language: data and attribute texts outside script,
    style and any element marked with another `lang`."""

    def __init__(self, language: str):
        super().__init__(convert_charrefs=True)
        self.language = language
        self.stack: list[tuple[str, bool]] = []  # (tag, skipped)
        self.parts: list[str] = []

    def skipping(self) -> bool:
        return any(skipped for _tag, skipped in self.stack)

    def handle_starttag(self, tag, attrs):
        values = dict(attrs)
        lang = (values.get("lang") or "").split("-")[0]
        skipped = tag in SKIPPED_TAGS or (tag != "html" and bool(lang) and lang != self.language)
        if not (self.skipping() or skipped):
            self.parts.extend(f"\n{values[name]}\n" for name in TEXT_ATTRIBUTES if values.get(name))
            if tag == "meta" and values.get("name") == "description":
                self.parts.append(f"\n{values.get('content', '')}\n")
        if tag not in VOID:
            self.stack.append((tag, skipped))
        self.parts.append("\n" if tag in {"p", "li", "td", "th", "dt", "dd", "h1", "h2", "h3", "h4", "div", "br", "option", "label", "title"} else "")

    def handle_endtag(self, tag):
        for index in range(len(self.stack) - 1, -1, -1):
            if self.stack[index][0] == tag:
                del self.stack[index:]
                break
        self.parts.append("\n")

    def handle_data(self, data):
        if not self.skipping():
            self.parts.append(data)


def readable_text(html: str, language: str) -> str:
    parser = ReaderText(language)
    parser.feed(html)
    return "".join(parser.parts)


def english_left(text: str, language: str) -> list[str]:
    """Each English sentence, English month and raw code in a text meant to be in `language`."""
    found = []
    allowed = ALLOWED.get(language, set())
    for sentence in re.split(r"(?<=[.!?:;])\s+|\n+|\s[·—–|]\s", text):
        sentence = re.sub(r"\S+@\S+|\bhttps?://\S+", "", sentence).strip()  # addresses are no words
        if not sentence:
            continue
        words = {word.lower() for word in re.findall(r"[A-Za-z']+", sentence)}
        english = words & FUNCTION_WORDS
        named = [word for word in ENGLISH_WORDS.findall(sentence) if word not in allowed]
        if len(english) >= 2 or named:
            found.append(f"English: {sentence!r} ({', '.join(sorted(english) + named)})")
        for month in MONTHS:
            if re.search(rf"\b{month}\b", sentence) and not (language == "de" and month in GERMAN_MONTHS):
                found.append(f"English month: {sentence!r}")
        if ENGLISH_DAY_MONTH.search(sentence):
            found.append(f"English date: {sentence!r}")
        if RAW_ID.search(sentence):
            found.append(f"raw id: {sentence!r}")
        for code in re.findall(r"(?<![\w-])[A-Z]{2}(?![\w-])", sentence):
            if code in CODES and code not in NOT_CODES:
                found.append(f"country code {code}: {sentence!r}")
    return found


def english_left_in_html(html: str, language: str) -> list[str]:
    return english_left(readable_text(html, language), language)
