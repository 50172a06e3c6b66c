"""The SECRET_KEY when none is configured: generated once, kept under DATA_DIR, owner-only."""

import os
import secrets
from pathlib import Path


def load_or_create_secret_key(data_dir: Path) -> str:
    path = data_dir / "secret_key"
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        pass
    data_dir.mkdir(parents=True, exist_ok=True)
    key = secrets.token_urlsafe(50)
    # O_EXCL: when several processes start at once, exactly one writes the key; the rest read it.
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return path.read_text().strip()
    with os.fdopen(fd, "w") as handle:
        handle.write(key)
    return key
