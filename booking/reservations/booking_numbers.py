"""Booking numbers for people: "FLR-27-0042" (the property's prefix, the two-digit year the booking
was made in, its place in that year). A guest reads it in every email, on the booking page and on
receipts, and says it on the phone; staff search the back office by it. It is not a credential:
the API's `res_…` id and the manage token stay the capabilities (booking/ids.py).

Pure code: the prefix made from a city and the number's text. The one writer that assigns a number
under concurrency is services/numbers.py.
"""

import re
import unicodedata

BOOKING_NUMBER = re.compile(r"[A-Z0-9]{1,6}-\d{2}-\d{4,}")
VOWELS = frozenset("AEIOUY")


def prefix_from_city(city: str) -> str:
    """The prefix when the owner set none: the city's first letter and the next consonants, as
    airport codes often are ("Bologna" → "BLG", "Venezia" → "VNZ", "Roma" → "RM").
    Letters only, accents dropped; "BK" (booking) without a city."""
    letters = [c for c in unicodedata.normalize("NFKD", city or "").upper() if "A" <= c <= "Z"]
    if not letters:
        return "BK"
    consonants = [c for c in letters[1:] if c not in VOWELS]
    return "".join([letters[0], *consonants])[:3]


def format_booking_number(prefix: str, year: int, sequence: int) -> str:
    """("FLR", 2027, 42) → "FLR-27-0042"; past 9999 in a year the sequence simply grows a digit."""
    return f"{prefix}-{year % 100:02d}-{sequence:04d}"


def looks_like_booking_number(text: str) -> bool:
    return BOOKING_NUMBER.fullmatch((text or "").strip().upper()) is not None


def with_booking_number(subject: str, number: str | None) -> str:
    """An email's subject naming its booking: "Your stay at X is confirmed: … · FLR-27-0042" (once)."""
    if not number or number in subject:
        return subject
    return f"{subject} · {number}"
