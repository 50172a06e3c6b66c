"""The Alloggiati Web upload file, as pure functions: one record of exactly 168 ASCII characters
per guest, CRLF between records (docs/italy.md). The layout, field by field (width in characters):

    type 2 | arrival 10 | nights 2 | surname 50 | name 30 | sex 1 | date of birth 10 |
    comune of birth 9 | province of birth 2 | state of birth 9 | citizenship 9 |
    document type 5 | document number 20 | place of issue 9

Type: 16 single guest; 17 head of family, 19 family member; 18 group leader, 20 group member.
Only the first guest of a party (16, 17, 18) carries a document; the others leave it blank.
"""

import unicodedata
from dataclasses import dataclass
from datetime import date

RECORD_LENGTH = 168
MAX_NIGHTS = 30  # the portal takes at most 30 days of stay per record
SINGLE, HEAD_OF_FAMILY, GROUP_LEADER, FAMILY_MEMBER, GROUP_MEMBER = "16", "17", "18", "19", "20"
LEADS = (SINGLE, HEAD_OF_FAMILY, GROUP_LEADER)
# Letters that Unicode does not decompose into a base letter and an accent.
UNDECOMPOSED = str.maketrans(
    {
        "ß": "ss",
        "ẞ": "SS",
        "Æ": "AE",
        "æ": "ae",
        "Ø": "O",
        "ø": "o",
        "Œ": "OE",
        "œ": "oe",
        "Ł": "L",
        "ł": "l",
        "Đ": "D",
        "đ": "d",
        "Þ": "Th",
        "þ": "th",
        "ı": "i",
    }
)


@dataclass(frozen=True)
class GuestRecord:
    """One guest as the police codes them; the codes come from booking/italy/tables.py."""

    surname: str
    name: str
    sex: str  # "M" or "F"
    date_of_birth: date
    comune_of_birth: str  # 9-digit code, "" when born abroad
    province_of_birth: str  # "" when born abroad
    state_of_birth: str  # 9-digit code
    citizenship: str  # 9-digit code
    document_type: str = ""  # 5-letter code, lead guest only
    document_number: str = ""
    document_place: str = ""  # 9-digit code of a comune or a state


class Unencodable(ValueError):
    """A value the record cannot carry as it is (a letter of another script, a control character):
    the stay is reported as missing data, never sent with the character dropped."""


def _folded(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.translate(UNDECOMPOSED))
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).replace("’", "'")


def ascii_text(text: str) -> str:
    """Accents folded to ASCII ("Müller" -> "Muller", "Groß" -> "Gross"); what cannot be folded is
    dropped, and spacing (tabs, line breaks) becomes single spaces. For comparing and display;
    the record itself uses record_text, which refuses rather than drops."""
    return " ".join(_folded(text).encode("ascii", "ignore").decode().split())


def not_carried(text: str) -> list[str]:
    """The characters of `text` the record cannot carry: a letter, digit or mark of another script
    ("李", "Ω", "٣") and control characters. Latin letters whose accents fold ("é", "Ł") are carried."""
    return [ch for ch in text if not ch.isspace() and not unicodedata.combining(ch) and not _printable_ascii(_folded(ch))]


def _printable_ascii(text: str) -> bool:
    return bool(text) and all(" " <= ch <= "~" for ch in text)


def record_text(text: str) -> str:
    """ascii_text, or Unencodable when a character would be dropped."""
    if not_carried(text):
        raise Unencodable("a character the record cannot carry")
    return ascii_text(text)


def field(value: str, width: int, name: str = "") -> str:
    """Left-aligned, padded with spaces; Unencodable (naming the field) rather than a character
    silently dropped or a value cut to the width (the check-in refuses both)."""
    try:
        text = record_text(value)
    except Unencodable as error:
        raise Unencodable(f"{name or 'a field'}: {error} (write it as the passport's machine-readable line does)") from None
    if len(text) > width:
        raise Unencodable(f"{name or 'a field'}: longer than the record's {width} characters")
    return text.ljust(width)


def guest_types(count: int, party: str) -> list[str]:
    if count == 1:
        return [SINGLE]
    lead, member = (GROUP_LEADER, GROUP_MEMBER) if party == "group" else (HEAD_OF_FAMILY, FAMILY_MEMBER)
    return [lead] + [member] * (count - 1)


def build_record(guest: GuestRecord, guest_type: str, arrival: date, nights: int) -> str:
    with_document = guest_type in LEADS
    record = "".join(
        [
            guest_type,
            f"{arrival:%d/%m/%Y}",
            f"{min(max(nights, 1), MAX_NIGHTS):02d}",
            field(guest.surname, 50, "surname"),
            field(guest.name, 30, "name"),
            {"M": "1", "F": "2"}[guest.sex],
            f"{guest.date_of_birth:%d/%m/%Y}",
            field(guest.comune_of_birth, 9),
            field(guest.province_of_birth, 2),
            field(guest.state_of_birth, 9),
            field(guest.citizenship, 9),
            field(guest.document_type if with_document else "", 5),
            field(guest.document_number if with_document else "", 20, "document number"),
            field(guest.document_place if with_document else "", 9),
        ]
    )
    assert len(record) == RECORD_LENGTH, record  # every field is padded to its width, none is longer
    return record


def party_records(guests: list[GuestRecord], party: str, arrival: date, nights: int) -> list[str]:
    """The records of one stay, lead first (the order the guests are given in); Unencodable names
    the guest (1 is the lead) and the field."""
    records = []
    for number, (guest, guest_type) in enumerate(zip(guests, guest_types(len(guests), party), strict=True), start=1):
        try:
            records.append(build_record(guest, guest_type, arrival, nights))
        except Unencodable as error:
            raise Unencodable(f"guest {number}'s {error}") from None
    return records


def upload_file(records: list[str]) -> str:
    return "\r\n".join(records)
