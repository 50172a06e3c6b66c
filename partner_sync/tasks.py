"""Celery tasks: thin adapters over partner_sync.services, scheduled by config/celery.py every
PARTNER_SYNC_SECONDS."""

from celery import shared_task

from partner_sync import services
from partner_sync.channex import bookings, push


@shared_task(name="partner_sync.tasks.sync_all_feeds")
def sync_all_feeds() -> int:
    """Import every enabled listing-platform calendar; returns how many feeds were attempted."""
    return len(services.sync_all_feeds())


@shared_task(name="partner_sync.tasks.probe_listing")
def probe_listing() -> None:
    """Fetch the public listing page and record its status code and latency."""
    services.probe_listing()


# --- The channel manager (Channex): scheduled only when CHANNEX_API_KEY is set (config/celery.py) ---


@shared_task(name="partner_sync.tasks.push_channex_ari")
def push_channex_ari() -> int:
    """Send the nights marked since the last push (every 6 s); returns how many nights went out."""
    report = push.push_pending()
    return report.availability_nights + report.restrictions_nights


@shared_task(name="partner_sync.tasks.drain_channex_feed")
def drain_channex_feed() -> int:
    """Apply and acknowledge every booking revision waiting in the feed (every 60 s)."""
    return len(bookings.drain_feed())


@shared_task(name="partner_sync.tasks.fetch_channex_revision")
def fetch_channex_revision(revision_id: str) -> None:
    """Queued by the webhook: get one revision by id, apply it, acknowledge it."""
    bookings.fetch_revision(revision_id)


@shared_task(name="partner_sync.tasks.channex_nightly_full_sync")
def channex_nightly_full_sync() -> bool:
    """At most once a day, at night: every night of the window sent again (a repair)."""
    return push.nightly_full_sync()
