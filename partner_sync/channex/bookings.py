"""Bookings in: Channex booking revisions stored, applied once, and acknowledged after commit.

A revision reaches us two ways: the webhook (a trigger: `fetch_revision` gets it by id) and the
feed (`drain_feed`, every 60 s, every page, oldest first). Either way `process_revision`:

1. stores it, keyed by its id (a unique row: a second worker, or the same revision from the feed
   and the webhook, finds the row);
2. applies it in one transaction holding that row's lock (select_for_update; on SQLite the writer
   queue): only the first to get there applies it, the others find it applied. An older revision
   than the one already applied to its booking changes nothing (`superseded`); one that cannot be
   applied (another property, an unmapped room or rate, bad dates, no customer) is stored with its
   problem (`rejected`), flagged to the owner, and still acknowledged: it is in the PMS, as seen;
3. after commit, pushes the resulting availability at once and acknowledges it (once: the
   acknowledgement is claimed on the row). An acknowledgement that fails is retried by the next drain.

A revision whose application fails unexpectedly is left unapplied and unacknowledged: Channex keeps
serving it, and the next drain tries again.
"""

import logging
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from booking.catalog.selectors import get_property, today
from booking.italy.collectors import collecting_channels
from booking.reservations.services.channel_bookings import apply_channel_booking
from booking.reservations.services.locking import writer_transaction
from partner_sync import alerts
from partner_sync.channex import push
from partner_sync.channex.client import ChannexClient, ChannexError
from partner_sync.channex.connection import client_for, mapping_of
from partner_sync.channex.push import first_connection
from partner_sync.channex.revisions import RevisionProblem, inserted_at, to_stay
from partner_sync.models import ChannexConnection, ChannexRevision

logger = logging.getLogger("partner_sync.channex")
Outcome = ChannexRevision.Outcome
MAX_PAGES = 200  # a bound on one drain (20,000 revisions)


@dataclass(frozen=True)
class ProcessReport:
    revision_id: str
    outcome: str
    acked: bool
    applied_now: bool = False


def fetch_revision(revision_id: str) -> ProcessReport | None:
    """The webhook's job: get the revision by id, then process it. A revision we already applied
    and acknowledged is not fetched again."""
    connection = first_connection()
    if connection is None or not revision_id or len(revision_id) > 64:
        return None
    done = ChannexRevision.objects.filter(revision_id=revision_id, acked_at__isnull=False).exists()
    if done:
        return ProcessReport(revision_id, "already acknowledged", acked=True)
    client = client_for(connection)
    try:
        answer = client.get_revision(revision_id)
    except ChannexError as error:
        logger.warning("Channex revision %s could not be fetched: %s (the feed will bring it)", revision_id, error)
        return None
    data = answer.get("data")
    if not isinstance(data, dict):
        return None
    return process_revision(connection, client, data)


def drain_feed() -> list[ProcessReport]:
    """The periodic job: every unacknowledged revision of the property, oldest first, every page.
    Acknowledged revisions leave the feed, so a page whose revisions were all acknowledged is asked
    for again; a page with one that could not be is left behind for the next."""
    connection = first_connection()
    if connection is None:
        return []
    mapping = mapping_of(connection)
    if not mapping.property_id:
        return []
    client = client_for(connection)
    reports: list[ProcessReport] = []
    page, seen = 1, set[str]()
    for _ in range(MAX_PAGES):
        try:
            answer = client.feed_page(property_id=mapping.property_id, page=page)
        except ChannexError as error:
            logger.warning("Channex feed: %s", error)
            ChannexConnection.objects.filter(pk=connection.pk).update(last_error=f"Bookings feed: {error}"[:300], last_error_at=timezone.now())
            break
        data = [item for item in answer.get("data") or [] if isinstance(item, dict)]
        if not data:
            break
        fresh = [item for item in data if item.get("id") not in seen]
        seen.update(str(item.get("id")) for item in data)
        page_reports = [process_revision(connection, client, item) for item in fresh]
        reports += page_reports
        if not fresh or not all(report.acked for report in page_reports):
            page += 1  # what is left on this page stays unacknowledged; look further
    return reports


def process_revision(connection: ChannexConnection, client: ChannexClient, data: dict[str, Any]) -> ProcessReport:
    revision_id = str(data.get("id") or "")[:64]
    raw_attributes = data.get("attributes")
    attributes: dict[str, Any] = raw_attributes if isinstance(raw_attributes, dict) else {}
    revision_id = revision_id or str(attributes.get("id") or "")[:64]
    if not revision_id:
        logger.warning("Channex sent a revision without an id; ignored")
        return ProcessReport("", "no id", acked=False)
    row = _store(revision_id, attributes)
    applied_now = False
    if row.applied_at is None:
        try:
            applied_now = _apply(connection, row.pk)
        except Exception:
            logger.exception("applying Channex revision %s failed; it stays unacknowledged and is tried again", revision_id)
            return ProcessReport(revision_id, Outcome.PENDING, acked=False)
    row.refresh_from_db()
    if applied_now and row.outcome in (Outcome.APPLIED, Outcome.OVERBOOKING):
        push.push_pending()  # the resulting availability, at once (within the 6-second spacing)
    acked = row.acked_at is not None or _ack(client, row)
    return ProcessReport(revision_id, row.outcome, acked=acked, applied_now=applied_now)


def _store(revision_id: str, attributes: dict[str, Any]) -> ChannexRevision:
    """The revision as seen, once (a unique row per id)."""
    existing = ChannexRevision.objects.filter(revision_id=revision_id).first()
    if existing is not None:
        return existing
    fields = {
        "booking_id": str(attributes.get("booking_id") or "")[:64],
        "property_id": str(attributes.get("property_id") or "")[:64],
        "status": str(attributes.get("status") or "")[:16],
        "unique_id": str(attributes.get("unique_id") or "")[:100],
        "inserted_at": inserted_at(attributes),
        "payload": attributes,
    }
    try:
        with writer_transaction():
            return ChannexRevision.objects.create(revision_id=revision_id, **fields)
    except IntegrityError:  # another worker stored it first
        return ChannexRevision.objects.get(revision_id=revision_id)


def _apply(connection: ChannexConnection, pk: int) -> bool:
    """Apply the stored revision unless someone already has; True when this call applied it."""
    connection.refresh_from_db()
    mapping = mapping_of(connection)
    with writer_transaction():
        row = ChannexRevision.objects.select_for_update().get(pk=pk)
        if row.applied_at is not None:
            return False
        now = timezone.now()
        try:
            stay = to_stay(
                row.payload,
                property_id=mapping.property_id,
                room_type_id=mapping.room_type_id,
                rate_plan_id=mapping.rate_plan_id,
                today=today(),
                city_tax_collectors=collecting_channels(get_property()),
            )
        except RevisionProblem as problem:
            row.outcome, row.problem = Outcome.REJECTED, str(problem)[:300]
            logger.warning("Channex revision %s not applied: %s", row.revision_id, problem)
            alerts.alert_channex_bad_revision(revision_id=row.revision_id, pk=row.pk, problem=row.problem)
        else:
            result = apply_channel_booking(stay)
            row.reservation = result.reservation
            if not result.applied:
                row.outcome = Outcome.SUPERSEDED
            elif result.collisions:
                row.outcome = Outcome.OVERBOOKING
                row.problem = ("Overbooking: " + ", ".join(c.label for c in result.collisions))[:300]
                alerts.alert_channex_overbooking(revision_id=row.revision_id, reservation=result.reservation, collisions=result.collisions)
            else:
                row.outcome = Outcome.APPLIED
            ChannexConnection.objects.filter(pk=connection.pk).update(last_revision_at=now)
        row.applied_at = now
        row.save(update_fields=["outcome", "problem", "reservation", "applied_at"])
    return True


def _ack(client: ChannexClient, row: ChannexRevision) -> bool:
    """Acknowledge once: the row's acked_at is claimed first, and given back if Channex refuses."""
    now = timezone.now()
    with transaction.atomic():
        claimed = ChannexRevision.objects.filter(pk=row.pk, acked_at__isnull=True).update(acked_at=now)
    if not claimed:
        return True  # another worker acknowledges it
    try:
        client.ack_revision(row.revision_id)
    except ChannexError as error:
        if error.status == 404:
            return True  # Channex no longer has it (acknowledged already, or deleted): nothing to serve again
        logger.warning("Channex ack of %s failed: %s (tried again by the next drain)", row.revision_id, error)
        with transaction.atomic():
            ChannexRevision.objects.filter(pk=row.pk, acked_at=now).update(acked_at=None)
        return False
    return True
