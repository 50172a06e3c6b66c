"""Refresh the official code tables from the files the Polizia di Stato publishes for Alloggiati
Web (comuni.csv, stati.csv, documenti.csv: Codice, Descrizione[, Provincia, DataFineVal]).

    manage.py refresh_alloggiati_tables [--source URL-or-folder] [--into folder]

The source defaults to ALLOGGIATI_TABLES_URL; the tables go to DATA_DIR/alloggiati-tables (every
process reads them at its next use), or with --into booking/italy/tables to update the copy shipped in the
repository. Nothing is written unless all three files read well. The ISO codes of the states
are not in the police's table: they are kept by code, and new states without one are listed."""

import csv
import io
import json
import os
import tempfile
from datetime import date
from pathlib import Path

import requests
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from booking.italy.tables import tables

SOURCES = {"comuni": "comuni.csv", "states": "stati.csv", "documents": "documenti.csv"}
MINIMUM_ROWS = {"comuni": 7000, "states": 150, "documents": 3}


class Command(BaseCommand):
    help = "Refresh the Alloggiati Web code tables (states, comuni, document types) from the Polizia di Stato's files."

    def add_arguments(self, parser):
        parser.add_argument("--source", default=settings.ALLOGGIATI_TABLES_URL, help="base URL or folder holding comuni.csv, stati.csv, documenti.csv")
        parser.add_argument("--into", default=str(Path(settings.DATA_DIR) / "alloggiati-tables"), help="folder to write the tables to")

    def handle(self, *args, source: str, into: str, **options):
        raw = {name: read_rows(source, filename) for name, filename in SOURCES.items()}
        for name, rows in raw.items():
            if len(rows) < MINIMUM_ROWS[name] or not {"Codice", "Descrizione"} <= set(rows[0]):
                raise CommandError(f"{SOURCES[name]} from {source} does not look like the police's table ({len(rows)} rows); nothing written")
        iso_by_code = {s.code: s.iso_alpha2 for s in tables().states}
        states = [
            [r["Codice"].strip(), r["Descrizione"].strip(), iso_by_code.get(r["Codice"].strip(), ""), iso_date(r.get("DataFineVal", ""))] for r in raw["states"]
        ]
        comuni = [[r["Codice"].strip(), r["Descrizione"].strip(), r["Provincia"].strip(), iso_date(r.get("DataFineVal", ""))] for r in raw["comuni"]]
        documents = [[r["Codice"].strip(), r["Descrizione"].strip()] for r in raw["documents"]]
        target = Path(into)
        target.mkdir(parents=True, exist_ok=True)
        write(target / "states.csv", ["code", "name", "iso_alpha2", "valid_until"], states)
        write(target / "comuni.csv", ["code", "name", "province", "valid_until"], comuni)
        write(target / "document_types.csv", ["code", "name"], documents)
        source_note = {
            "publisher": "Polizia di Stato, Alloggiati Web",
            "published_as_of": date.today().isoformat(),
            "retrieved_from": source,
            "refreshed_by": "manage.py refresh_alloggiati_tables",
        }
        (target / "SOURCE.json").write_text(json.dumps(source_note, indent=2) + "\n")
        for code, name, iso, valid_until in states:
            if not iso and not valid_until:
                self.stderr.write(f"state {code} {name} has no ISO code: add it to {target / 'states.csv'} for guests to choose it")
        self.stdout.write(f"{len(comuni)} comuni, {len(states)} states, {len(documents)} document types written to {target}")


def read_rows(source: str, filename: str) -> list[dict]:
    if source.startswith(("http://", "https://")):
        try:
            response = requests.get(source.rstrip("/") + "/" + filename, timeout=30)
            response.raise_for_status()
        except requests.RequestException as error:
            raise CommandError(f"could not download {filename}: {error}; nothing written") from error
        data = response.content
    else:
        path = Path(source) / filename
        if not path.exists():
            raise CommandError(f"{path} not found; nothing written")
        data = path.read_bytes()
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("cp1252")  # the portal's files have been published in Windows' encoding
    return list(csv.DictReader(io.StringIO(text, newline="")))


def iso_date(value: str) -> str:
    value = (value or "").strip()[:10]
    if not value:
        return ""
    day, month, year = value.split("/")
    return f"{year}-{month}-{day}"


def write(path: Path, header: list[str], rows: list[list[str]]) -> None:
    """Atomically: a reader never sees half a table."""
    handle, temporary = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    with os.fdopen(handle, "w", encoding="utf-8", newline="") as file:
        writer = csv.writer(file, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(rows)
    os.replace(temporary, path)
