"""The official Alloggiati Web code tables: states (with their ISO 3166-1 alpha-2 code), comuni
with their province, and document types. Read from CSV files, no database: the shipped copy in
booking/italy/tables/ (SOURCE.json says where and when from), unless `refresh_alloggiati_tables`
has written a newer copy under DATA_DIR/alloggiati-tables/.

Names are compared folded (ASCII, upper case, apostrophes and dashes as spaces), so "Forlì",
"FORLI'" and "forli" are the same comune.
"""

import csv
import json
import os
import unicodedata
from dataclasses import dataclass
from datetime import date
from functools import cached_property, lru_cache
from pathlib import Path

from django.conf import settings

SHIPPED_DIR = Path(__file__).resolve().parent / "tables"
TABLE_FILES = ("states.csv", "comuni.csv", "document_types.csv")
ITALY = "IT"
# The three document types the check-in asks for, as the police tables code them.
DOCUMENT_CODES = {"identity_card": "IDENT", "passport": "PASOR", "driving_licence": "PATEN"}


@dataclass(frozen=True)
class Place:
    code: str  # 9 digits
    name: str
    province: str  # two letters for a comune, "ES" for a state
    valid_until: date | None  # a comune or state that no longer exists (still valid for old births)

    def valid_on(self, day: date) -> bool:
        return self.valid_until is None or day <= self.valid_until


@dataclass(frozen=True)
class State(Place):
    iso_alpha2: str = ""


def tables_dir() -> Path:
    refreshed = Path(settings.DATA_DIR) / "alloggiati-tables"
    return refreshed if all((refreshed / name).exists() for name in TABLE_FILES) else SHIPPED_DIR


def fold(text: str) -> str:
    """Upper-case ASCII with single spaces: the form names are compared in."""
    for mark in "'’`-.,()":
        text = text.replace(mark, " ")
    return " ".join(unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().upper().split())


def _date(value: str) -> date | None:
    return date.fromisoformat(value) if value else None


def _rows(directory: str, name: str) -> list[dict]:
    with open(Path(directory) / name, encoding="utf-8", newline="") as file:
        return list(csv.DictReader(file))


@dataclass(frozen=True)
class Tables:
    states: tuple[State, ...]
    comuni: tuple[Place, ...]
    document_types: dict[str, str]
    source: dict

    def state_for_iso(self, iso_alpha2: str) -> State | None:
        current = [s for s in self.states if s.iso_alpha2 == iso_alpha2.upper() and s.valid_until is None]
        return current[0] if current else None

    @cached_property
    def comuni_by_name(self) -> dict[str, list[Place]]:
        """Folded name -> the comuni of that name, built once (a lookup is then a dict access)."""
        index: dict[str, list[Place]] = {}
        for comune in self.comuni:
            index.setdefault(fold(comune.name), []).append(comune)
        return index

    def comune(self, name: str, province: str, born_on: date | None = None) -> Place | None:
        """The comune of that name in that province; of several (a comune re-founded), the one
        that existed on the day, else the current one."""
        province = province.strip().upper()
        matches = [c for c in self.comuni_by_name.get(fold(name), []) if c.province == province]
        if born_on is not None:
            on_the_day = [c for c in matches if c.valid_on(born_on)]
            matches = on_the_day or matches
        return sorted(matches, key=lambda c: c.valid_until or date.max)[-1] if matches else None

    def current_comuni_named(self, name: str) -> list[Place]:
        return [c for c in self.comuni_by_name.get(fold(name), []) if c.valid_until is None]

    def search_comuni(self, prefix: str, limit: int = 10) -> list[Place]:
        key = fold(prefix)
        if len(key) < 2:
            return []
        found = [c for folded, same in self.comuni_by_name.items() if folded.startswith(key) for c in same if c.valid_until is None]
        return sorted(found, key=lambda c: (len(c.name), c.name))[:limit]

    def countries(self) -> list[State]:
        return sorted((s for s in self.states if s.iso_alpha2 and s.valid_until is None), key=lambda s: s.name)


@lru_cache(maxsize=2)
def _load(directory: str, stamp: tuple[tuple[int, int] | None, ...]) -> Tables:
    states = tuple(
        State(code=r["code"], name=r["name"], province="ES", valid_until=_date(r["valid_until"]), iso_alpha2=r["iso_alpha2"])
        for r in _rows(directory, "states.csv")
    )
    comuni = tuple(Place(code=r["code"], name=r["name"], province=r["province"], valid_until=_date(r["valid_until"])) for r in _rows(directory, "comuni.csv"))
    document_types = {r["code"]: r["name"] for r in _rows(directory, "document_types.csv")}
    source_file = Path(directory) / "SOURCE.json"
    source = json.loads(source_file.read_text()) if source_file.exists() else {}
    return Tables(states=states, comuni=comuni, document_types=document_types, source=source)


def tables() -> Tables:
    """The tables, read once per process and version of the files (reading them takes about 0.2 s):
    keyed by the directory and each file's modification time and size, so a refresh
    (`refresh_alloggiati_tables`, in any process) is read at the next call in every process."""
    directory = tables_dir()
    return _load(str(directory), _stamp(directory))


def _stamp(directory: Path) -> tuple[tuple[int, int] | None, ...]:
    stamps: list[tuple[int, int] | None] = []
    for name in (*TABLE_FILES, "SOURCE.json"):
        try:
            status = os.stat(directory / name)
        except FileNotFoundError:
            stamps.append(None)
        else:
            stamps.append((status.st_mtime_ns, status.st_size))
    return tuple(stamps)
