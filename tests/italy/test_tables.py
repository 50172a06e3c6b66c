"""The official code tables: what ships (with its source and date), lookups, and the refresh
command reading the police's files from a local HTTP server or a folder."""

import functools
import shutil
import threading
from datetime import date
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from booking.italy import tables as tables_module
from booking.italy.tables import SHIPPED_DIR, fold, tables


def test_shipped_tables_and_their_source():
    codes = tables()
    assert codes.source["published_as_of"] == "2025-04-18" and "Polizia di Stato" in codes.source["publisher"]
    assert codes.state_for_iso("IT").code == "100000100" and codes.state_for_iso("DE").code == "100000216"
    assert codes.state_for_iso("US").code == "100000536" and codes.state_for_iso("XX") is None
    assert codes.comune("Firenze", "FI").code == "409048017"
    assert codes.document_types["PASOR"] == "PASSAPORTO ORDINARIO"
    assert len({s.iso_alpha2 for s in codes.countries()}) == len(codes.countries()) > 190


def test_a_comune_is_found_as_it_was_on_the_day_of_birth():
    codes = tables()
    assert codes.comune("Forlì", "FO", date(1960, 1, 1)).code == "408040012"  # province Forlì, until 1994
    assert codes.comune("Forli'", "FC", date(2000, 1, 1)).code == "408140012"
    assert fold("Sant’Angelo d'Alife") == "SANT ANGELO D ALIFE"


def police_files(folder):
    """The shipped tables written back in the police's own format (Codice, Descrizione, ...)."""
    rows = {
        "comuni.csv": ("Codice,Descrizione,Provincia,DataFineVal", [f"{c.code},{c.name},{c.province}," for c in tables().comuni]),
        "stati.csv": ("Codice,Descrizione,Provincia,DataFineVal", [f"{s.code},{s.name},ES," for s in tables().states] + ["100009999,NUOVO STATO,ES,"]),
        "documenti.csv": ("Codice,Descrizione", [f"{code},{name}" for code, name in tables().document_types.items()]),
    }
    for name, (header, lines) in rows.items():
        (folder / name).write_bytes(("\r\n".join([header, *lines]) + "\r\n").encode("cp1252"))


@pytest.fixture
def fresh_tables(settings, tmp_path):
    settings.DATA_DIR = tmp_path / "data"
    return settings.DATA_DIR / "alloggiati-tables"


def test_refresh_from_a_local_http_server(tmp_path, fresh_tables, capsys):
    published = tmp_path / "published"
    published.mkdir()
    police_files(published)
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(SimpleHTTPRequestHandler, directory=str(published)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        call_command("refresh_alloggiati_tables", "--source", f"http://127.0.0.1:{server.server_address[1]}/")
    finally:
        server.shutdown()
        server.server_close()
    assert (fresh_tables / "comuni.csv").exists() and tables_module.tables_dir() == fresh_tables
    assert tables().state_for_iso("DE").code == "100000216" and tables().source["retrieved_from"].startswith("http://127.0.0.1")
    assert "100009999 NUOVO STATO has no ISO code" in capsys.readouterr().err


def test_a_broken_source_writes_nothing(tmp_path, fresh_tables):
    broken = tmp_path / "broken"
    broken.mkdir()
    police_files(broken)
    (broken / "comuni.csv").write_text("<html>maintenance</html>")
    with pytest.raises(CommandError):
        call_command("refresh_alloggiati_tables", "--source", str(broken))
    assert not fresh_tables.exists() and tables_module.tables_dir() == SHIPPED_DIR
    shutil.rmtree(broken)
    with pytest.raises(CommandError):
        call_command("refresh_alloggiati_tables", "--source", str(broken))


def test_a_second_refresh_is_read_at_once_by_a_running_process(tmp_path, fresh_tables):
    """The tables are remembered by their files' times and sizes, not only their folder: a refresh
    into the folder a process already reads (by the command, run in another process) is what its
    next check-in sees, without a restart."""
    published = tmp_path / "published"
    published.mkdir()
    police_files(published)
    call_command("refresh_alloggiati_tables", "--source", str(published))
    assert tables_module.tables_dir() == fresh_tables and tables().comune("Nuovo Borgo", "FI") is None

    # The refresh run again in another process (the command's own process forgets nothing here).
    with (fresh_tables / "comuni.csv").open("a", newline="") as comuni:
        comuni.write("099999999,Nuovo Borgo,FI,\r\n")

    assert tables().comune("Nuovo Borgo", "FI").code == "099999999"
