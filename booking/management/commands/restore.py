"""`manage.py restore <backup dir>` (`make restore BACKUP=<dir>`): put a backup back.

Stop the service first. SQLite: the backup replaces the database through the backup API.
PostgreSQL: pg_restore --clean into the configured database. Uploaded files are unpacked into
DATA_DIR/media, and the backup's secret_key replaces DATA_DIR/secret_key (restart the service), so
the signed links issued before the backup still open.
"""

import shutil
import sqlite3
import subprocess
import tarfile
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from booking.management.commands.backup import copy_private, postgres_env_and_args


class Command(BaseCommand):
    help = "Restore a backup made by `manage.py backup` (stop the service first)."

    def add_arguments(self, parser):
        parser.add_argument("backup", help="the folder `manage.py backup` printed")

    def handle(self, *args, backup, **options):
        source = Path(backup)
        if not source.is_dir():
            raise CommandError(f"{source} is not a backup folder.")
        connection.close()
        if connection.vendor == "sqlite":
            if not (source / "db.sqlite3").exists():
                raise CommandError(f"{source} holds no SQLite backup (db.sqlite3).")
            backup_db = sqlite3.connect(source / "db.sqlite3")
            live = sqlite3.connect(connection.settings_dict["NAME"])
            with live:
                backup_db.backup(live)
            backup_db.close()
            live.close()
        elif connection.vendor == "postgresql":
            if not (source / "db.dump").exists():
                raise CommandError(f"{source} holds no PostgreSQL backup (db.dump).")
            if not shutil.which("pg_restore"):
                raise CommandError("pg_restore is not installed (apt-get install postgresql-client).")
            env, base = postgres_env_and_args()
            subprocess.run(
                ["pg_restore", *base, "--clean", "--if-exists", "--no-owner", "-d", connection.settings_dict["NAME"], str(source / "db.dump")],
                env=env,
                check=True,
            )
        media = source / "media.tar.gz"
        if media.exists():
            with tarfile.open(media) as archive:
                archive.extractall(Path(settings.MEDIA_ROOT).parent, filter="data")
        if (source / "secret_key").exists():
            settings.DATA_DIR.mkdir(parents=True, exist_ok=True)
            copy_private(source / "secret_key", settings.DATA_DIR / "secret_key")
        self.stdout.write(f"Restored {source}.")
