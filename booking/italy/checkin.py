"""Online check-in: validate a party against the official tables, store it, and present it.

One code path for the JSON `PUT {manage link}/check-in` and the HTML form (pages/check_in.py):
both build the same payload, `{"party": "family"|"group", "guests": [...]}`, lead first. Errors
come back all at once in the spec's 422 shape, each naming its field.
"""

import re
import unicodedata
from datetime import date

from django.utils import timezone
from django.utils.translation import gettext as _

from booking.errors import BookingError, InvalidInput, Problem
from booking.italy.models import CheckIn, Guest, PoliceRegistration
from booking.italy.records import ascii_text, not_carried
from booking.italy.tables import ITALY, Tables, tables
from booking.reservations.models import Reservation
from booking.reservations.services.audit import flag
from booking.reservations.services.locking import reservation_transaction

GUEST_FIELDS = ("first_name", "last_name", "sex", "date_of_birth", "citizenship", "country_of_birth", "comune_of_birth", "province_of_birth", "document")
DOCUMENT_FIELDS = ("type", "number", "issued_in")
MAX_AGE_YEARS = 120
# The record's widths (booking/italy/records.py): a longer name would be cut, so it is refused.
NAME_WIDTHS = {"first_name": 30, "last_name": 50}
# What a name may be once its accents are folded: Latin letters, spaces, apostrophes, hyphens, dots.
NAME_PATTERN = re.compile(r"[A-Za-z][A-Za-z '.-]*")
DOCUMENT_NUMBER = re.compile(r"[A-Z0-9]+")


class CheckInClosed(BookingError):
    status = 409
    code = "check_in_closed"
    default_detail = "Check-in is open from confirmation until check-out."


def check_in_open(reservation: Reservation, today: date | None = None) -> bool:
    """Open from confirmation until check-out, for a rental in Italy (the law it serves)."""
    today = today or timezone.localdate()
    return reservation.property.country_code == ITALY and reservation.status == Reservation.Status.CONFIRMED and today < reservation.check_out


class Problems:
    """The bad fields found so far, each named by its path in the check-in (("guests", 0, "sex"))."""

    def __init__(self):
        self.items: list[Problem] = []

    def add(self, loc: list, msg: str, type_: str) -> None:
        self.items.append(Problem(tuple(loc), msg, type_))


def _text(problems: Problems, data: dict, loc: list, name: str, max_length: int, required: bool = True) -> str:
    value = data.get(name)
    if value is None or (isinstance(value, str) and not value.strip()):
        if required:
            problems.add([*loc, name], _("This field is required."), "missing")
        return ""
    if not isinstance(value, str):
        problems.add([*loc, name], _("Give text."), "string_type")
        return ""
    value = " ".join(value.split())
    if any(unicodedata.category(ch).startswith("C") for ch in value):  # NUL, other controls, lone surrogates
        problems.add([*loc, name], _("Remove the control characters from this field."), "string_pattern_mismatch")
        return ""
    if len(value) > max_length:
        problems.add([*loc, name], _("At most %(count)d characters.") % {"count": max_length}, "string_too_long")
    return value


def _extra(problems: Problems, data: dict, loc: list, accepted: tuple) -> None:
    for key in data:
        if key not in accepted:
            problems.add([*loc, key], _("Unknown field; accepted: %(fields)s.") % {"fields": ", ".join(accepted)}, "extra_forbidden")


def _latin_name(problems: Problems, data: dict, loc: list, name: str) -> str:
    """The police's records take Latin letters only (accents are folded: "Müller" is sent as
    "Muller", "Łukasz" as "Lukasz"): a name with any letter of another script, a digit or a sign is
    refused whole, never sent with the letter dropped, and asked for as in the passport's
    machine-readable line."""
    value = _text(problems, data, loc, name, 100)
    if not value:
        return value
    if not_carried(value) or not NAME_PATTERN.fullmatch(ascii_text(value)):
        problems.add([*loc, name], _("Write the name in Latin letters, as in the passport's machine-readable line."), "string_pattern_mismatch")
    elif len(ascii_text(value)) > NAME_WIDTHS[name]:
        message = _("The police record takes at most %(count)d characters: write the name as the passport's machine-readable line does.")
        problems.add([*loc, name], message % {"count": NAME_WIDTHS[name]}, "string_too_long")
    return value


def _country(problems: Problems, codes: Tables, data: dict, loc: list, name: str) -> str:
    """An ISO 3166-1 alpha-2 code. A name ("Svizzera") is refused whole: cut to two letters it
    would be another country (SV, El Salvador)."""
    value = _text(problems, data, loc, name, 100)
    if not value:
        return ""
    if not (len(value) == 2 and value.isascii() and value.isalpha()):
        problems.add([*loc, name], _("Give the country's two-letter ISO code (e.g. CH for Switzerland), not its name."), "unknown_country")
        return ""
    if codes.state_for_iso(value) is None:
        problems.add([*loc, name], _("Unknown country code: give two letters, e.g. IT, DE, US."), "unknown_country")
        return ""
    return value.upper()


def _birth_date(problems: Problems, data: dict, loc: list, today: date) -> date | None:
    value = _text(problems, data, loc, "date_of_birth", 10)
    if not value:
        return None
    try:
        born = date.fromisoformat(value)
    except ValueError:
        problems.add([*loc, "date_of_birth"], _("Not a real date: use YYYY-MM-DD."), "date_parsing")
        return None
    if born > today or today.year - born.year > MAX_AGE_YEARS:
        problems.add([*loc, "date_of_birth"], _("Give the real date of birth."), "date_out_of_range")
        return None
    return born


def _place_of_issue(problems: Problems, codes: Tables, value: str, loc: list) -> str:
    """A country code, or an Italian comune ("Firenze", or "Firenze (FI)" where the name is shared)."""
    if len(value) == 2 and value.isalpha():
        state = codes.state_for_iso(value)
        if state is None:
            problems.add(loc, _("Unknown country code: give two letters, e.g. IT, DE, US."), "unknown_country")
            return ""
        return state.code
    name, _sep, province = value.partition("(")
    if province:
        comune = codes.comune(name, province.rstrip(") "))
        matches = [comune] if comune and comune.valid_until is None else []
    else:
        matches = codes.current_comuni_named(name)
    if len(matches) == 1:
        return matches[0].code
    if matches:
        problems.add(
            loc,
            _("Several comuni have this name: add the province, e.g. %(example)s.") % {"example": f"{name.strip()} ({matches[0].province})"},
            "ambiguous_comune",
        )
    else:
        problems.add(loc, _("Unknown place: give a country code (e.g. DE) or an Italian comune."), "unknown_comune")
    return ""


def _guest(problems: Problems, codes: Tables, data, index: int, today: date) -> Guest | None:
    loc = ["guests", index]
    if not isinstance(data, dict):
        problems.add(loc, _("Give each guest as an object."), "dict_type")
        return None
    _extra(problems, data, loc, GUEST_FIELDS)
    guest = Guest(
        position=index,
        first_name=_latin_name(problems, data, loc, "first_name"),
        last_name=_latin_name(problems, data, loc, "last_name"),
        citizenship=_country(problems, codes, data, loc, "citizenship"),
        country_of_birth=_country(problems, codes, data, loc, "country_of_birth"),
    )
    sex = data.get("sex")
    if sex not in ("M", "F"):
        problems.add([*loc, "sex"], _("Give M or F."), "literal_error" if sex is not None else "missing")
    guest.sex = sex if sex in ("M", "F") else ""
    born = _birth_date(problems, data, loc, today)
    if born is not None:
        guest.date_of_birth = born
    if guest.country_of_birth == ITALY:
        comune = _text(problems, data, loc, "comune_of_birth", 100)
        province = _text(problems, data, loc, "province_of_birth", 2).upper()
        if comune and province:
            place = codes.comune(comune, province, born)
            if place is None:
                problems.add([*loc, "comune_of_birth"], _("Unknown comune in this province: check the name and the two-letter province."), "unknown_comune")
            else:
                guest.comune_of_birth, guest.province_of_birth, guest.comune_of_birth_code = comune, province, place.code
    document = data.get("document")
    if index == 0:
        _document(problems, codes, guest, document, [*loc, "document"])
    elif document not in (None, {}):
        problems.add([*loc, "document"], _("Only the lead guest's document is asked for."), "extra_forbidden")
    return guest


def _document(problems: Problems, codes: Tables, guest: Guest, document, loc: list) -> None:
    if not isinstance(document, dict):
        problems.add(loc, _("The lead guest's document is required."), "missing")
        return
    _extra(problems, document, loc, DOCUMENT_FIELDS)
    kind = document.get("type")
    if kind not in Guest.DocumentType.values:
        problems.add([*loc, "type"], _("Give identity_card, passport or driving_licence."), "literal_error")
    number = _text(problems, document, loc, "number", 20).upper().replace(" ", "")
    if number and not DOCUMENT_NUMBER.fullmatch(number):  # isalnum() would take any script's digits
        message = _("Letters A-Z and digits 0-9 only, as the passport's machine-readable line writes the number.")
        problems.add([*loc, "number"], message, "string_pattern_mismatch")
    issued_in = _text(problems, document, loc, "issued_in", 100)
    guest.document_type, guest.document_number, guest.document_issued_in = kind or "", number, issued_in
    if issued_in:
        guest.document_issued_in_code = _place_of_issue(problems, codes, issued_in, [*loc, "issued_in"])


def validate_party(reservation: Reservation, body, *, today: date | None = None) -> tuple[str, list[Guest]]:
    """The party and its unsaved guests, or InvalidInput naming every bad field."""
    today = today or timezone.localdate()
    problems, codes = Problems(), tables()
    if not isinstance(body, dict):
        raise InvalidInput.field((), _("Give a JSON object."), "dict_type")
    _extra(problems, body, [], ("party", "guests"))
    party = body.get("party", CheckIn.Party.FAMILY) or CheckIn.Party.FAMILY
    if party not in CheckIn.Party.values:
        problems.add(["party"], _("Give family or group."), "literal_error")
    guests_data = body.get("guests")
    guests: list[Guest] = []
    if not isinstance(guests_data, list):
        problems.add(["guests"], _("Give the list of guests, lead guest first."), "list_type")
    else:
        if len(guests_data) != reservation.guests:
            message = _("This stay is for %(count)d guests: give every one of them.") % {"count": reservation.guests}
            problems.add(["guests"], message, "wrong_number_of_guests")
        guests = [guest for i, data in enumerate(guests_data[:50]) if (guest := _guest(problems, codes, data, i, today)) is not None]
    if problems.items:
        raise InvalidInput(problems.items)
    return party, guests


# What the police record holds of a guest (booking/italy/police.py): a change to any of these after
# the registration was sent leaves the police with other data than the stay's.
POLICE_FIELDS = (
    "first_name",
    "last_name",
    "sex",
    "date_of_birth",
    "citizenship",
    "country_of_birth",
    "comune_of_birth_code",
    "document_type",
    "document_number",
    "document_issued_in_code",
)


def police_changes(before: list[Guest], after: list[Guest], party_before: str, party_after: str) -> list[str]:
    """What changed of what the police hold, as "position:field" ("1:last_name"); "party" for the
    family/group choice. Never the values (the flag is read by staff who may not see documents)."""
    changes = ["party"] if party_before != party_after and len(after) > 1 else []
    for position in range(max(len(before), len(after))):
        old = before[position] if position < len(before) else None
        new = after[position] if position < len(after) else None
        for name in POLICE_FIELDS:
            if (getattr(old, name, None) if old else None) != (getattr(new, name, None) if new else None):
                changes.append(f"{position}:{name}")
    return changes


def save_check_in(reservation: Reservation, body, *, today: date | None = None, actor: str = "the guest") -> CheckIn:
    """Validate and store the whole party (it replaces what was given before). A change after the
    police registration was sent flags the stay for staff with what changed: Alloggiati Web has no
    correction call, so staff correct it on the portal (docs/italy.md); nothing is sent again."""
    if not check_in_open(reservation, today):
        raise CheckInClosed()
    party, guests = validate_party(reservation, body, today=today)
    with reservation_transaction(reservation.pk) as locked:
        check_in, _created = CheckIn.objects.select_for_update().get_or_create(reservation=locked)
        before, party_before = list(check_in.guests.all()), check_in.party
        check_in.guests.all().delete()
        for guest in guests:
            guest.check_in = check_in
            keep_identity_verified(guest, before)
        Guest.objects.bulk_create(guests)
        check_in.party = party
        check_in.completed_at = check_in.completed_at or timezone.now()
        check_in.documents_erased_at = None
        check_in.save()
        sent = PoliceRegistration.objects.filter(reservation=locked, status=PoliceRegistration.Status.SENT).exists()
        changes = police_changes(before, guests, party_before, party) if sent else []
        if changes:
            flag(locked, actor=actor, message="flag_check_in_changed_after_police", params={"changes": changes})
    return check_in


# A guest whose identity was seen stays verified through a save only while the same person, with
# the same document, is at the same place in the party; any other change asks staff to look again.
SAME_PERSON = ("first_name", "last_name", "date_of_birth", "document_type", "document_number")


def keep_identity_verified(guest: Guest, before: list[Guest]) -> None:
    old = next((g for g in before if g.position == guest.position), None)
    if old is not None and old.identity_method and all(getattr(old, name) == getattr(guest, name) for name in SAME_PERSON):
        guest.identity_method, guest.identity_verified_at, guest.identity_verified_by = old.identity_method, old.identity_verified_at, old.identity_verified_by


def check_in_for(reservation: Reservation) -> CheckIn | None:
    return CheckIn.objects.filter(reservation=reservation).prefetch_related("guests").first()


def masked(number: str) -> str:
    """A document number as shown back: never in full (the last three characters)."""
    return "•" * max(len(number) - 3, 3) + number[-3:] if number else ""


def present(reservation: Reservation, check_in: CheckIn | None) -> dict:
    guests = list(check_in.guests.all()) if check_in else []
    return {
        "reservation_id": reservation.pk,
        "party": check_in.party if check_in else CheckIn.Party.FAMILY,
        "guests_expected": reservation.guests,
        "complete": bool(check_in and check_in.is_complete),
        "completed_at": check_in.completed_at.isoformat() if check_in and check_in.completed_at else None,
        "guests": [present_guest(g) for g in guests],
    }


def present_guest(guest: Guest) -> dict:
    body: dict[str, object] = {
        "first_name": guest.first_name,
        "last_name": guest.last_name,
        "sex": guest.sex,
        "date_of_birth": guest.date_of_birth.isoformat(),
        "citizenship": guest.citizenship,
        "country_of_birth": guest.country_of_birth,
        "comune_of_birth": guest.comune_of_birth or None,
        "province_of_birth": guest.province_of_birth or None,
        "identity_verified": guest.identity_verified,
    }
    if guest.position == 0:
        body["document"] = (
            {"type": guest.document_type, "number": masked(guest.document_number), "issued_in": guest.document_issued_in} if guest.document_number else None
        )
    return body
