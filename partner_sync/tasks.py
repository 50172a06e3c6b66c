"""Celery tasks: thin adapters over partner_sync.services, scheduled by config/celery.py every
PARTNER_SYNC_SECONDS."""

from celery import shared_task

from partner_sync import services


@shared_task(name="partner_sync.tasks.sync_all_feeds")
def sync_all_feeds() -> int:
    """Import every enabled listing-platform calendar; returns how many feeds were attempted."""
    return len(services.sync_all_feeds())


@shared_task(name="partner_sync.tasks.probe_listing")
def probe_listing() -> None:
    """Fetch the public listing page and record its status code and latency."""
    services.probe_listing()
