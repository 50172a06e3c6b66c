"""The Alloggiati Web records as pure functions (booking/italy/records.py): golden files of whole
upload files, and each field read back at its position. No database."""

import dataclasses
from datetime import date
from pathlib import Path

import pytest

from booking.italy.records import RECORD_LENGTH, GuestRecord, Unencodable, ascii_text, build_record, party_records, upload_file

GOLDEN = Path(__file__).parent / "golden"
FIRENZE, ROMA = "409048017", "412058091"
ITALIA, GERMANIA, STATI_UNITI, FRANCIA = "100000100", "100000216", "100000536", "100000215"

LAYOUT = [("type", 2), ("arrival", 10), ("nights", 2), ("surname", 50), ("name", 30), ("sex", 1), ("born", 10), ("comune", 9), ("province", 2),
          ("state_of_birth", 9), ("citizenship", 9), ("document_type", 5), ("document_number", 20), ("document_place", 9)]  # fmt: skip


def fields(record: str) -> dict:
    assert len(record) == RECORD_LENGTH == sum(width for _name, width in LAYOUT)
    out, at = {}, 0
    for name, width in LAYOUT:
        out[name], at = record[at : at + width], at + width
    return out


def italian(surname, name, sex, born, **document) -> GuestRecord:
    return GuestRecord(surname, name, sex, born, FIRENZE, "FI", ITALIA, ITALIA, **document)


def foreign(surname, name, sex, born, state, **document) -> GuestRecord:
    return GuestRecord(surname, name, sex, born, "", "", state, state, **document)


PASSPORT = {"document_type": "PASOR", "document_number": "C01X00T47", "document_place": GERMANIA}
IDENTITY = {"document_type": "IDENT", "document_number": "CA12345AB", "document_place": FIRENZE}

CASES = {
    "single_foreign": ([foreign("Müller", "Jürgen", "M", date(1980, 5, 17), GERMANIA, **PASSPORT)], "family", date(2026, 6, 1), 3),
    "family_italian": (
        [
            italian("Rossi", "Niccolò", "M", date(1975, 1, 31), **IDENTITY),
            italian("Bianchi", "Lucía", "F", date(1978, 12, 1)),
            foreign("Rossi", "Zoë", "F", date(2015, 7, 4), FRANCIA),
        ],
        "family",
        date(2026, 8, 14),
        7,
    ),
    "group_long_names": (
        [
            foreign(
                "Wolfeschlegelsteinhausenbergerdorff-Vandermeulen J",  # 50 characters, the field's width
                "Hubert Blaine Alexander Maximi",  # 30
                "M",
                date(1990, 2, 28),
                STATI_UNITI,
                document_type="PASOR",
                document_number="X1234567890123456789",  # 20
                document_place=STATI_UNITI,
            ),  # fmt: skip
            foreign("Ødegård", "Søren", "M", date(1991, 3, 1), "100000231"),
            foreign("Groß", "Ævar", "M", date(1992, 4, 2), GERMANIA),
        ],
        "group",
        date(2026, 12, 30),
        45,
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_upload_files_match_the_golden_files(case):
    guests, party, arrival, nights = CASES[case]
    text = upload_file(party_records(guests, party, arrival, nights))
    expected = (GOLDEN / f"{case}.txt").read_bytes().decode("ascii")
    assert text == expected
    assert text.isascii() and all(len(line) == RECORD_LENGTH for line in text.split("\r\n"))


def test_a_single_guest_is_type_16_with_the_document():
    record = fields(party_records(CASES["single_foreign"][0], "family", date(2026, 6, 1), 3)[0])
    assert record["type"] == "16" and record["arrival"] == "01/06/2026" and record["nights"] == "03"
    assert record["surname"].rstrip() == "Muller" and record["name"].rstrip() == "Jurgen" and record["sex"] == "1"
    assert record["comune"] == " " * 9 and record["province"] == "  "  # born abroad
    assert record["state_of_birth"] == GERMANIA and record["citizenship"] == GERMANIA
    assert (record["document_type"], record["document_number"].rstrip(), record["document_place"]) == ("PASOR", "C01X00T47", GERMANIA)


def test_a_family_is_head_17_then_members_19_without_documents():
    records = [fields(r) for r in party_records(*CASES["family_italian"])]
    assert [r["type"] for r in records] == ["17", "19", "19"]
    head, member, child = records
    assert (head["comune"], head["province"], head["state_of_birth"]) == (FIRENZE, "FI", ITALIA)
    assert head["document_type"] == "IDENT" and head["document_place"] == FIRENZE
    assert member["name"].rstrip() == "Lucia" and member["sex"] == "2" and member["born"] == "01/12/1978"
    assert member["document_type"] + member["document_number"] + member["document_place"] == " " * 34
    assert child["comune"] == " " * 9 and child["state_of_birth"] == FRANCIA and child["name"].rstrip() == "Zoe"


def test_a_group_is_leader_18_then_members_20_names_fill_their_fields_nights_at_most_30():
    records = [fields(r) for r in party_records(*CASES["group_long_names"])]
    assert [r["type"] for r in records] == ["18", "20", "20"]
    leader = records[0]
    assert leader["surname"] == "Wolfeschlegelsteinhausenbergerdorff-Vandermeulen J"[:50]
    assert leader["name"] == "Hubert Blaine Alexander Maximi"
    assert leader["document_number"] == "X1234567890123456789" and leader["nights"] == "30"
    assert records[1]["surname"].rstrip() == "Odegard" and records[2]["surname"].rstrip() == "Gross" and records[2]["name"].rstrip() == "AEvar"


@pytest.mark.parametrize(
    ("given", "folded"),
    [("Niccolò", "Niccolo"), ("D’Angelo", "D'Angelo"), ("Çelik", "Celik"), ("Łukasz  Wałęsa", "Lukasz Walesa"), ("Ñandú\tPérez", "Nandu Perez"), ("李", "")],
)
def test_accents_are_folded_to_ascii(given, folded):
    assert ascii_text(given) == folded


def test_one_guest_alone_is_single_even_in_a_group():
    record = build_record(foreign("Smith", "Ann", "F", date(1970, 1, 1), STATI_UNITI, **PASSPORT), "16", date(2026, 1, 2), 1)
    assert fields(record)["type"] == "16" and fields(record)["nights"] == "01"
    assert party_records([foreign("Smith", "Ann", "F", date(1970, 1, 1), STATI_UNITI, **PASSPORT)], "group", date(2026, 1, 2), 1)[0][:2] == "16"


@pytest.mark.parametrize(("surname", "number"), [("李A", "C01X00T47"), ("Ωmega", "C01X00T47"), ("Neri", "AB12٣٤٥"), ("Ne\x00ri", "C01X00T47")])
def test_the_record_never_drops_a_character_it_cannot_carry(surname, number):
    guest = foreign(surname, "Ann", "F", date(1970, 1, 1), STATI_UNITI, **dict(PASSPORT, document_number=number))
    with pytest.raises(Unencodable):
        build_record(guest, "16", date(2026, 1, 2), 1)


@pytest.mark.parametrize(
    "changes",
    [
        {"surname": "Wolfeschlegelsteinhausenbergerdorff-Vandermeulen Junior"},
        {"name": "Hubert Blaine Alexander Maximilian"},
        {"document_number": "X123456789012345678901"},
    ],
)
def test_a_value_longer_than_its_field_is_never_cut(changes):
    guest = foreign("Smith", "Ann", "F", date(1970, 1, 1), STATI_UNITI, **PASSPORT)
    with pytest.raises(Unencodable, match="longer than the record's"):
        build_record(dataclasses.replace(guest, **changes), "16", date(2026, 1, 2), 1)
