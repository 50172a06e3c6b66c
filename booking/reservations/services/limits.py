"""Per-client abuse limits on holds: BOOKING_RATE_LIMIT (e.g. "20/h") and a cap on unpaid holds.

Counted in the default cache, which every process shares (Redis in production, a file cache under
DATA_DIR otherwise). If the cache is down the rate limit degrades open (logged), so guests can still
book; the unpaid-hold cap is counted in the database and keeps working.
"""

import fcntl
import logging
import os
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache, caches
from django.core.cache.backends.filebased import FileBasedCache
from django.utils import timezone

from booking.errors import RateLimited
from booking.reservations.models import Reservation

logger = logging.getLogger(__name__)
PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


@dataclass(frozen=True)
class RateLimit:
    count: int
    seconds: int


def parse_rate(value: str) -> RateLimit | None:
    """ "20/h" → 20 per hour; "off" (or empty) → no limit."""
    value = (value or "").strip().lower()
    if value in {"", "off", "none", "0"}:
        return None
    match = re.fullmatch(r"(\d+)\s*/\s*(\d*)\s*([smhd])", value)
    if not match:
        raise ValueError(f"BOOKING_RATE_LIMIT must look like '20/h' or 'off', not {value!r}")
    count, multiple, unit = int(match[1]), int(match[2] or 1), match[3]
    return RateLimit(count, multiple * PERIODS[unit])


def check_hold_rate(client_ip: str | None) -> None:
    """Raise RateLimited when this client asked for too many holds in the current window."""
    limit = parse_rate(settings.BOOKING_RATE_LIMIT)
    if limit is None or not client_ip:
        return
    now = int(time.time())
    window = now - now % limit.seconds
    try:
        count = count_in_window(f"hold-rate:{client_ip}:{window}", limit.seconds + 5)
    except Exception:  # the shared cache is down: degrade open rather than refuse every guest
        logger.warning("rate-limit cache unavailable; hold allowed without counting", exc_info=True)
        return
    if count > limit.count:
        raise RateLimited(
            f"Too many holds from this client: at most {limit.count} per {limit.seconds} seconds.",
            retry_after=window + limit.seconds - now,
        )


def check_unpaid_holds(client_ip: str | None) -> None:
    """Raise RateLimited when this client already has MAX_UNPAID_HOLDS_PER_CLIENT unpaid holds.

    Counted in the database inside the hold's calendar transaction, so a burst cannot slip past it.
    """
    if parse_rate(settings.BOOKING_RATE_LIMIT) is None or not client_ip:
        return
    unpaid = Reservation.objects.filter(client_ip=client_ip, status=Reservation.Status.HELD, hold_expires_at__gt=timezone.now()).count()
    if unpaid >= settings.MAX_UNPAID_HOLDS_PER_CLIENT:
        raise RateLimited(f"This client already has {unpaid} unpaid holds; pay or let one expire first.", retry_after=60)


def count_in_window(key: str, timeout: int) -> int:
    """Add one to a counter shared by every process and return it. Redis increments atomically;
    the file cache reads and writes, so there a file lock makes the two steps one."""
    with _file_cache_lock():
        cache.add(key, 0, timeout=timeout)
        return cache.incr(key)


@contextmanager
def _file_cache_lock() -> Iterator[None]:
    backend = caches["default"]
    directory = getattr(backend, "_dir", None)
    if not isinstance(backend, FileBasedCache) or directory is None:
        yield
        return
    os.makedirs(directory, exist_ok=True)
    fd = os.open(os.path.join(directory, ".counters.lock"), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)
