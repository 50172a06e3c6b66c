"""`manage.py backup` (`make backup`): a consistent copy of the database and the uploads.

SQLite: the online backup API (safe while the service runs, WAL included). PostgreSQL: pg_dump in
its custom format. Uploaded files (DATA_DIR/media) go into a tarball beside it, and the generated
DATA_DIR/secret_key too (owner-only): without it a restore on a new machine would invalidate every
signed link (guests' manage links, sealed MCP states) and session. A SECRET_KEY set in the
environment is not in the backup: keep it with your other secrets. Backups land in
DATA_DIR/backups/<timestamp>/ unless --to says otherwise; restore with `manage.py restore <dir>`.
"""

import os
import shutil
import sqlite3
import subprocess
import tarfile
import time
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import connection


def postgres_env_and_args() -> tuple[dict, list[str]]:
    db = connection.settings_dict
    env = {**os.environ, "PGPASSWORD": db.get("PASSWORD") or ""}
    args = ["-h", db.get("HOST") or "127.0.0.1", "-p", str(db.get("PORT") or 5432), "-U", db.get("USER") or "postgres"]
    return env, args


class Command(BaseCommand):
    help = "Back up the database and uploaded files."

    def add_arguments(self, parser):
        parser.add_argument("--to", help="folder to write the backup into (default DATA_DIR/backups/<timestamp>)")

    def handle(self, *args, to=None, **options):
        target = Path(to) if to else settings.DATA_DIR / "backups" / time.strftime("%Y%m%d-%H%M%S")
        target.mkdir(parents=True, exist_ok=False)
        if connection.vendor == "sqlite":
            source = sqlite3.connect(connection.settings_dict["NAME"])
            destination = sqlite3.connect(target / "db.sqlite3")
            with destination:
                source.backup(destination)
            source.close()
            destination.close()
        elif connection.vendor == "postgresql":
            if not shutil.which("pg_dump"):
                raise CommandError("pg_dump is not installed (apt-get install postgresql-client).")
            env, base = postgres_env_and_args()
            subprocess.run(["pg_dump", *base, "-Fc", "-f", str(target / "db.dump"), connection.settings_dict["NAME"]], env=env, check=True)
        else:
            raise CommandError(f"Backups of {connection.vendor} databases are not supported.")
        media = Path(settings.MEDIA_ROOT)
        if media.exists():
            with tarfile.open(target / "media.tar.gz", "w:gz") as archive:
                archive.add(media, arcname="media")
        secret_key = settings.DATA_DIR / "secret_key"
        if secret_key.exists():
            copy_private(secret_key, target / "secret_key")
        else:
            self.stderr.write("SECRET_KEY comes from the environment and is not in this backup: keep it, or signed links break on restore.")
        self.stdout.write(str(target))


def copy_private(source: Path, destination: Path) -> None:
    """Copy a secret, readable by its owner only from the moment it exists."""
    fd = os.open(destination, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as handle:
        handle.write(source.read_bytes())
    os.chmod(destination, 0o600)
