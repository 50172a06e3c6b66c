"""`channel_manager` in GET /api/v1/partner/status, and the back office's summary of the connection."""

from datetime import datetime

from partner_sync.channex.connection import ensure_connection, is_on, mapping_of
from partner_sync.models import ChannexDirtyNight


def channel_manager_status() -> dict | None:
    """{"provider": "channex", "connected", "last_push_at", "pending_dates", "last_revision_at",
    "last_error"}; None when the connection is off (no CHANNEX_API_KEY).

    `connected`: configured (the three ids) and the last exchange with Channex went well.
    `pending_dates`: nights marked and not yet accepted by Channex."""
    if not is_on():
        return None
    connection = ensure_connection()
    if connection is None:
        return None
    return {
        "provider": "channex",
        "connected": mapping_of(connection).complete and not connection.last_error and connection.failing_since is None,
        "last_push_at": _iso(connection.last_push_at),
        "pending_dates": ChannexDirtyNight.objects.values("night").distinct().count(),
        "last_revision_at": _iso(connection.last_revision_at),
        "last_error": connection.last_error or None,
    }


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment else None
