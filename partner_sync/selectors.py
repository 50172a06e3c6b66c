"""Reads of the partner sync's runtime state, for GET /api/v1/partner/status and the admin.

A feed or the probe is stale when it has had no success for three sync intervals
(3 × PARTNER_SYNC_SECONDS), counted from its creation until its first success.
"""

from datetime import datetime, timedelta
from urllib.parse import urlsplit

from django.conf import settings
from django.db.models import Count, Q
from django.utils import timezone

from booking.reservations.models import Reservation
from partner_sync.channex.status import channel_manager_status
from partner_sync.models import Feed, ListingProbe, SyncOutcome

STALE_AFTER_INTERVALS = 3

# Worst first: the overall state of the import is that of its worst enabled feed.
FEED_STATES = ["stale", "error", "held_back", "never_synced", "ok"]


def stale_after() -> timedelta:
    return timedelta(seconds=STALE_AFTER_INTERVALS * settings.PARTNER_SYNC_SECONDS)


def is_stale(*, enabled: bool, last_success_at: datetime | None, created_at: datetime, now: datetime) -> bool:
    if not enabled:
        return False  # nobody expects news from a switched-off sync
    return now - (last_success_at or created_at) > stale_after()


def feed_state(feed: Feed, *, now: datetime) -> str:
    """disabled, stale, error, held_back (empty-feed guard), never_synced or ok."""
    if not feed.enabled:
        return "disabled"
    if is_stale(enabled=True, last_success_at=feed.last_success_at, created_at=feed.created_at, now=now):
        return "stale"
    return {
        SyncOutcome.FAILED: "error",
        SyncOutcome.HELD_BACK: "held_back",
        SyncOutcome.IMPORTED: "ok",
        SyncOutcome.NOT_MODIFIED: "ok",
    }.get(feed.last_outcome, "never_synced")


def mask_url(url: str) -> str:
    """scheme://host[:port]/path: feed URLs carry secret tokens in their query strings (and
    sometimes credentials before the host), which the public status must not show."""
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
        port = parts.port
    except ValueError:
        return ""
    if ":" in host:
        host = f"[{host}]"
    return f"{parts.scheme}://{host}{f':{port}' if port else ''}{parts.path}" if host else ""


def with_open_conflicts(feeds):
    """Annotate `open_conflicts`: overlaps with stays that are still confirmed (cancelling the
    direct stay ends a conflict as surely as the platform dropping its booking)."""
    return feeds.annotate(
        open_conflicts=Count(
            "conflicts",
            filter=Q(
                conflicts__resolved_at__isnull=True,
                conflicts__reservation__status=Reservation.Status.CONFIRMED,
            ),
        )
    )


def partner_status(*, now: datetime | None = None) -> dict:
    """The body of GET /api/v1/partner/status: {"ical": {...}, "listing_probe": {...},
    "channel_manager": {...} or null}."""
    now = now or timezone.now()
    return {"ical": ical_status(now=now), "listing_probe": listing_probe_status(now=now), "channel_manager": channel_manager_status()}


def ical_status(*, now: datetime) -> dict:
    configured_urls = set(u.strip() for u in settings.PARTNER_ICAL_URLS)
    feeds = []
    states = []
    for feed in with_open_conflicts(Feed.objects.order_by("name", "pk")):
        state = feed_state(feed, now=now)
        if feed.enabled:
            states.append(state)
        feeds.append(
            {
                "name": feed.name,
                "url": mask_url(feed.url),
                "source": "environment" if feed.from_environment else "admin",
                # False only for a feed seeded from PARTNER_ICAL_URLS and since removed from it.
                "configured": not feed.from_environment or feed.environment_url in configured_urls,
                "enabled": feed.enabled,
                "state": state,
                "last_attempt_at": _iso(feed.last_attempt_at),
                "last_success_at": _iso(feed.last_success_at),
                "last_error": feed.last_error or None,
                "last_status_code": feed.last_status_code,
                "events": feed.event_count,
                "conflicts": feed.open_conflicts,
                "stale": state == "stale",
            }
        )
    if not feeds:
        overall = "not_configured"
    elif not states:
        overall = "disabled"
    else:
        overall = min(states, key=FEED_STATES.index)
    return {"state": overall, "interval_seconds": settings.PARTNER_SYNC_SECONDS, "feeds": feeds}


def listing_probe_status(*, now: datetime) -> dict:
    probe = ListingProbe.objects.filter(pk=ListingProbe.SINGLETON_PK).first()
    if probe is None or not probe.configured:
        return {
            "configured": False,
            "enabled": bool(probe and probe.enabled),
            "url": None,
            "last_attempt_at": None,
            "last_success_at": None,
            "last_error": None,
            "last_status_code": None,
            "latency_ms": None,
            "stale": False,
        }
    return {
        "configured": True,
        "enabled": probe.enabled,
        "url": mask_url(probe.url),
        "last_attempt_at": _iso(probe.last_attempt_at),
        "last_success_at": _iso(probe.last_success_at),
        "last_error": probe.last_error or None,
        "last_status_code": probe.last_status_code,
        "latency_ms": probe.latency_ms,
        "stale": is_stale(enabled=probe.enabled, last_success_at=probe.last_success_at, created_at=probe.created_at, now=now),
    }


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment else None
