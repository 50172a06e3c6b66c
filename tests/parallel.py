"""Loaded by pytest before Django's settings (`-p tests.parallel` in pyproject.toml).

`make test` runs the suite in parallel, one pytest-xdist worker per core, each in its own process.
Everything a worker writes to disk must then be its own: its SQLite test database (named after the
process already), but also the file cache (which every test clears), the Celery queue under
DATA_DIR and the static files a live server serves (collectstatic rewrites them). So each worker
gets its own DATA_DIR and STATIC_ROOT, set in the environment before the settings are read; the
live servers it starts inherit them. On PostgreSQL pytest-django gives each worker its own
database (test_<name>_gw0, …)."""

import os
from pathlib import Path

_worker = os.environ.get("PYTEST_XDIST_WORKER")
if _worker:
    _data_dir = Path(os.environ.get("DATA_DIR") or Path(__file__).resolve().parent.parent / "var") / f"xdist-{_worker}"
    os.environ["DATA_DIR"] = str(_data_dir)
    os.environ["STATIC_ROOT"] = str(_data_dir / "staticfiles")
