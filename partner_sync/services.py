"""Partner sync: every write of the iCal import, the listing probe and the calendar export.

Celery tasks (partner_sync/tasks.py), the admin and the views are thin adapters over these
functions. Blocks are written only through booking.reservations.services.blocks; this module writes
partner_sync's own tables.

A sync of one feed has three steps: claim it (a short lease on the row, so the beat, a busy worker
and a pre-checkout refresh never fetch the same feed at once), fetch it (network only, outside any
transaction, several feeds in parallel), apply the result (one transaction: blocks, conflicts, state).
"""

import logging
from concurrent.futures import ThreadPoolExecutor, wait
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.crypto import salted_hmac

from booking.catalog.selectors import get_property, hot_query, today
from booking.errors import BookingError
from booking.reservations.models import DateBlock, Reservation
from booking.reservations.selectors import blocking_reservations, blocks_between
from booking.reservations.services.blocks import PartnerEvent, remove_partner_blocks, replace_partner_blocks
from partner_sync import alerts, fetching
from partner_sync.ical_export import ExportedStay, fingerprint, render_calendar
from partner_sync.ical_import import FeedInvalid, parse_feed
from partner_sync.models import HTTP_URL, Conflict, ExportedCalendar, Feed, ListingProbe, SyncOutcome

logger = logging.getLogger("partner_sync")

# Just before a checkout the guest is waiting: a refresh gets a few seconds, not the full timeout.
REFRESH_TIMEOUT_SECONDS = 4.0
MAX_PARALLEL_FETCHES = 4
FETCH_GRACE_SECONDS = 1.0
PLATFORM_NAMES = [
    ("airbnb.", "Airbnb"),
    ("booking.com", "Booking.com"),
    ("vrbo.", "Vrbo"),
    ("homeaway.", "Vrbo"),
    ("expedia.", "Expedia"),
    ("tripadvisor.", "Tripadvisor"),
    ("google.com", "Google Calendar"),
]


# --- Configuration from the environment ---------------------------------------------------------


def ensure_configured_feeds() -> None:
    """Create a feed for each PARTNER_ICAL_URLS entry that has none yet. Idempotent: one query
    when nothing is missing, and an owner's edits (name, URL, enabled) are never overwritten."""
    wanted = configured_feed_urls()
    if not wanted:
        return
    existing = set(Feed.objects.filter(environment_url__in=wanted).values_list("environment_url", flat=True))
    for url in wanted:
        if url not in existing:
            Feed.objects.get_or_create(environment_url=url, defaults={"url": url, "name": platform_name(url)})


def configured_feed_urls() -> list[str]:
    urls = []
    for url in (u.strip() for u in settings.PARTNER_ICAL_URLS):
        if not url or url in urls or len(url) > 2000:
            continue
        try:
            HTTP_URL(url)
        except ValidationError:
            logger.warning("PARTNER_ICAL_URLS: ignoring an entry that is not an http(s) URL")
            continue
        urls.append(url)
    return urls


def platform_name(url: str) -> str:
    host = (urlsplit(url).hostname or "").lower()
    for marker, name in PLATFORM_NAMES:
        if marker in host:
            return name
    return host.removeprefix("www.")[:100] or "Listing platform"


def ensure_listing_probe() -> ListingProbe | None:
    """The probe row, seeded from PARTNER_LISTING_URL; None when neither the environment nor the
    admin configured one. A changed PARTNER_LISTING_URL is followed unless the owner edited the URL."""
    env_url = settings.PARTNER_LISTING_URL.strip()
    probe = ListingProbe.objects.filter(pk=ListingProbe.SINGLETON_PK).first()
    if probe is None:
        if not env_url:
            return None
        probe, _ = ListingProbe.objects.get_or_create(pk=ListingProbe.SINGLETON_PK, defaults={"url": env_url, "environment_url": env_url})
    elif env_url and env_url != probe.environment_url and probe.url == probe.environment_url:
        ListingProbe.objects.filter(pk=probe.pk).update(url=env_url, environment_url=env_url)
        probe.refresh_from_db()
    return probe


# --- Importing the feeds -------------------------------------------------------------------------


@dataclass(frozen=True)
class FeedSyncReport:
    feed_id: int
    feed_name: str
    outcome: str  # a SyncOutcome value, or "skipped" when the feed changed while it was fetched
    error: str = ""
    created: int = 0
    updated: int = 0
    deleted: int = 0
    conflicts: int = 0


def sync_all_feeds() -> list[FeedSyncReport]:
    """The periodic job (every PARTNER_SYNC_SECONDS): seed feeds from the environment, drop the
    blocks of disabled feeds, and sync every enabled feed.

    Feeds attempted within the last half interval are skipped, so a backlog of beat messages (a
    worker that was down) does not fetch the same feed over and over.
    """
    ensure_configured_feeds()
    clear_disabled_feeds()
    half_interval = timedelta(seconds=settings.PARTNER_SYNC_SECONDS / 2)
    reports = _sync(Feed.objects.filter(enabled=True), attempted_before=timezone.now() - half_interval, timeout=fetching.FETCH_TIMEOUT_SECONDS)
    for report in reports:
        log = logger.warning if report.error else logger.info
        log("partner feed %s: %s %s", report.feed_name, report.outcome, report.error)
    return reports


def refresh_stale_feeds(max_age_seconds: int = 300) -> None:
    """Re-sync, now and synchronously, the enabled feeds not attempted in the last `max_age_seconds`.

    Called just before a hold becomes a checkout, so that a booking made on a platform minutes ago
    is seen. Short timeout (REFRESH_TIMEOUT_SECONDS per fetch, feeds fetched in parallel). Never
    raises: whatever fails is logged and recorded on the feed, and the caller carries on with the
    blocks already stored. Call it outside transaction.atomic(): it does network I/O.
    """
    try:
        if connection.in_atomic_block:  # works (savepoints), but the caller's transaction stays open during the fetch
            logger.debug("refresh_stale_feeds() called inside a transaction")
        ensure_configured_feeds()
        now = timezone.now()
        cutoff = now - timedelta(seconds=max(0, max_age_seconds))
        due = feeds_due(cutoff, now)
        if due:
            _sync(Feed.objects.filter(enabled=True, pk__in=due), attempted_before=cutoff, timeout=REFRESH_TIMEOUT_SECONDS)
    except Exception:
        logger.exception("refreshing the partner feeds failed; carrying on with the blocks already stored")


# Asked before every hold, and nearly always answered with no row (no feed, or all synced within
# the last minutes): in SQL, so that answer costs one round trip and no ORM compilation, which
# was half of what a refused hold cost. The claim (_claim) still decides, row by row.
FEEDS_DUE_SQL = f"""
SELECT id FROM {Feed._meta.db_table}
 WHERE enabled AND (last_attempt_at IS NULL OR last_attempt_at < %s) AND (claimed_until IS NULL OR claimed_until < %s)
"""


def feeds_due(attempted_before: datetime, now: datetime) -> list[int]:
    """The enabled feeds not attempted since `attempted_before` and not claimed by anyone now."""
    adapt = connection.ops.adapt_datetimefield_value
    return [feed_id for (feed_id,) in hot_query(FEEDS_DUE_SQL, [adapt(attempted_before), adapt(now)])]


def sync_feeds_now(feed_ids: list[int]) -> list[FeedSyncReport]:
    """Sync these feeds at once, however recently they were attempted (the admin's "Sync now")."""
    return _sync(Feed.objects.filter(enabled=True, pk__in=feed_ids), attempted_before=None, timeout=fetching.FETCH_TIMEOUT_SECONDS)


def _sync(candidates, *, attempted_before: datetime | None, timeout: float) -> list[FeedSyncReport]:
    claimed = [feed for feed in candidates.order_by("pk") if _claim(feed, attempted_before=attempted_before, timeout=timeout)]
    if not claimed:
        return []
    try:
        responses = _fetch_all(claimed, timeout=timeout)
        reports = []
        for feed, response in zip(claimed, responses, strict=True):
            try:
                with transaction.atomic():
                    reports.append(_apply(feed, response))
            except BookingError as error:  # no property yet, the calendar lock timed out, …
                _record_failure(feed, status_code=response.status_code, error=error.detail)
                reports.append(FeedSyncReport(feed.pk, feed.name, SyncOutcome.FAILED, error.detail))
            except Exception as error:  # one broken feed must not stop the others
                logger.exception("applying partner feed %s failed", feed.pk)
                message = f"Internal error while importing ({type(error).__name__}); see the logs."
                _record_failure(feed, status_code=response.status_code, error=message)
                reports.append(FeedSyncReport(feed.pk, feed.name, SyncOutcome.FAILED, message))
        return reports
    finally:
        _release(claimed)


def _claim(feed: Feed, *, attempted_before: datetime | None, timeout: float) -> bool:
    """Take the feed's lease (compare-and-set on the row); False if another process holds it or the
    feed was attempted after `attempted_before`."""
    now = timezone.now()
    due = Q()
    if attempted_before is not None:
        due = Q(last_attempt_at__isnull=True) | Q(last_attempt_at__lt=attempted_before)
    lease = timedelta(seconds=timeout * 2 + 30)  # outlives any fetch; a crashed worker's lease lapses
    with transaction.atomic():
        claimed = Feed.objects.filter(due, Q(claimed_until__isnull=True) | Q(claimed_until__lt=now), pk=feed.pk, enabled=True).update(
            last_attempt_at=now, claimed_until=now + lease
        )
    return claimed == 1


def _release(feeds: list[Feed]) -> None:
    try:
        with transaction.atomic():
            Feed.objects.filter(pk__in=[f.pk for f in feeds]).update(claimed_until=None)
    except Exception:
        logger.exception("could not release partner feed leases (they lapse by themselves)")


def _fetch_all(feeds: list[Feed], *, timeout: float) -> list[fetching.FeedResponse]:
    """Fetch in parallel threads (network only, no database), with a hard bound on the wait:
    requests' timeouts are per connect and per read, so a fetch that is not back after `timeout`
    (plus a little grace) is recorded as timed out and left to finish on its own."""

    def fetch(feed: Feed) -> fetching.FeedResponse:
        try:
            return fetching.fetch_feed(feed.url, etag=feed.etag, last_modified=feed.last_modified, timeout=timeout)
        except Exception as error:
            logger.exception("fetching partner feed %s failed unexpectedly", feed.pk)
            return fetching.FeedResponse(error=f"The request failed ({type(error).__name__}).")

    pool = ThreadPoolExecutor(max_workers=min(MAX_PARALLEL_FETCHES, len(feeds)), thread_name_prefix="partner-feed")
    try:
        futures = [pool.submit(fetch, feed) for feed in feeds]
        wait(futures, timeout=timeout + FETCH_GRACE_SECONDS)
        return [future.result() if future.done() else fetching.FeedResponse(error=f"Timed out after {timeout:g} s.") for future in futures]
    finally:
        pool.shutdown(wait=False, cancel_futures=True)


def _apply(feed: Feed, response: fetching.FeedResponse) -> FeedSyncReport:
    """Record one fetch of a claimed feed; runs in one transaction (blocks, conflicts and state)."""
    now = timezone.now()
    current = Feed.objects.filter(pk=feed.pk).values("url", "enabled", "name", "event_count", "empty_since").first()
    if current is None or current["url"] != feed.url or not current["enabled"]:
        # Edited, disabled or deleted in the admin while we fetched: this answer is for a feed that no longer is.
        return FeedSyncReport(feed.pk, feed.name, "skipped")
    name = current["name"]
    if response.error:
        _record_failure(feed, status_code=response.status_code, error=response.error)
        return FeedSyncReport(feed.pk, name, SyncOutcome.FAILED, response.error)
    if response.not_modified:
        Feed.objects.filter(pk=feed.pk).update(
            last_success_at=now,
            last_outcome=SyncOutcome.NOT_MODIFIED,
            last_error="",
            last_status_code=304,
            empty_since=None,
        )
        return FeedSyncReport(feed.pk, name, SyncOutcome.NOT_MODIFIED)
    try:
        imported = parse_feed(
            response.body or b"",
            today=today(),
            local_tz=ZoneInfo(settings.TIME_ZONE),
            label=name,
            own_host=own_host(),
        )
    except FeedInvalid as error:
        _record_failure(feed, status_code=response.status_code, error=str(error))
        return FeedSyncReport(feed.pk, name, SyncOutcome.FAILED, str(error))

    if not imported.events and current["event_count"] > 0 and current["empty_since"] is None:
        # A platform glitch (or a half-rendered export) must not free every night at once: wait for
        # a second consecutive empty answer. The validators are not stored, so the next fetch is full.
        message = f"The feed suddenly lists no current or future events; its {current['event_count']} blocks stay until the next fetch confirms it."
        Feed.objects.filter(pk=feed.pk).update(
            last_outcome=SyncOutcome.HELD_BACK,
            last_error=message,
            last_status_code=response.status_code,
            empty_since=now,
        )
        return FeedSyncReport(feed.pk, name, SyncOutcome.HELD_BACK, message)

    result = replace_partner_blocks(feed_key=feed.block_key, events=imported.events)
    open_conflicts = _record_conflicts(feed, imported.events, result.conflicts, now)
    Feed.objects.filter(pk=feed.pk).update(
        last_success_at=now,
        last_outcome=SyncOutcome.IMPORTED,
        last_error="",
        last_status_code=response.status_code,
        event_count=len(imported.events),
        etag=response.etag,
        last_modified=response.last_modified,
        empty_since=None,
    )
    return FeedSyncReport(feed.pk, name, SyncOutcome.IMPORTED, "", result.created, result.updated, result.deleted, open_conflicts)


def _record_failure(feed: Feed, *, status_code: int | None, error: str) -> None:
    """The last good blocks stay; only the feed's state says what went wrong."""
    try:
        with transaction.atomic():
            Feed.objects.filter(pk=feed.pk).update(last_outcome=SyncOutcome.FAILED, last_error=error[:300], last_status_code=status_code)
            alerts.alert_if_failing_long(feed.pk, timezone.now())
    except Exception:
        logger.exception("could not record the failure of partner feed %s", feed.pk)


def _record_conflicts(feed: Feed, events: list[PartnerEvent], conflicts: list[tuple[str, str]], now: datetime) -> int:
    """Open a Conflict for each new (event, confirmed stay) overlap; resolve those that are gone."""
    dates = {event.uid: (event.start, event.end) for event in events}
    open_conflicts = {(c.external_uid, c.reservation_id): c for c in Conflict.objects.filter(feed=feed, resolved_at=None)}
    current = dict.fromkeys(_other_stays(feed, conflicts, dates))  # ordered and deduplicated
    for uid, reservation_id in current:
        start, end = dates[uid]
        conflict = open_conflicts.get((uid, reservation_id))
        if conflict is None:
            conflict = Conflict.objects.create(
                feed=feed, reservation_id=reservation_id, external_uid=uid, start=start, end=end, first_seen_at=now, last_seen_at=now
            )
            alerts.alert_overlap(feed.name, conflict)
            logger.warning("partner feed %s: a platform booking %s→%s overlaps a confirmed direct stay", feed.name, start, end)
        else:
            Conflict.objects.filter(pk=conflict.pk).update(start=start, end=end, last_seen_at=now)
    gone = [c.pk for key, c in open_conflicts.items() if key not in current]
    Conflict.objects.filter(pk__in=gone).update(resolved_at=now)
    return len(current)


# The channel a platform's feed URL belongs to, as Reservation.source names it.
PLATFORM_SOURCES = {"Airbnb": "airbnb", "Booking.com": "booking_com", "Vrbo": "vrbo", "Expedia": "expedia"}


def _platform_source(feed: Feed) -> str | None:
    """The platform of a feed, by its URL's host, else by the name the owner gave it."""
    by_url = PLATFORM_SOURCES.get(platform_name(feed.url))
    if by_url:
        return by_url
    name = feed.name.casefold()
    return next((source for platform, source in PLATFORM_SOURCES.items() if platform.casefold().removesuffix(".com") in name), None)


def _other_stays(feed: Feed, conflicts: list[tuple[str, str]], dates: dict[str, tuple[date, date]]) -> list[tuple[str, str]]:
    """The conflicts that are two stays: a platform's event whose nights are exactly those of a
    booking received from the same platform through the channel manager is that booking, seen twice."""
    if not conflicts:
        return conflicts
    source = _platform_source(feed)
    channel_stays = {
        pk: (check_in, check_out)
        for pk, check_in, check_out in Reservation.objects.filter(
            pk__in={r for _, r in conflicts}, source=source, channel_booking_id__isnull=False
        ).values_list("pk", "check_in", "check_out")
    }
    return [(uid, reservation_id) for uid, reservation_id in conflicts if channel_stays.get(reservation_id) != dates[uid]]


# --- Feeds edited in the admin -------------------------------------------------------------------


def feed_settings_changed(feed: Feed, *, changed: set[str]) -> None:
    """After the owner saved a feed: a new URL is fetched from scratch, a disabled feed frees its nights."""
    if "url" in changed:
        Feed.objects.filter(pk=feed.pk).update(etag="", last_modified="", empty_since=None, last_attempt_at=None)
    if "enabled" in changed:
        if feed.enabled:
            Feed.objects.filter(pk=feed.pk).update(last_attempt_at=None)  # due at the next run
        else:
            _clear_feed(feed)


def clear_disabled_feeds() -> None:
    """Disabled feeds hold no blocks. The admin clears them at once; this catches any other way a
    feed got disabled (and a clearing that failed)."""
    for feed in Feed.objects.filter(Q(event_count__gt=0) | ~Q(etag="") | ~Q(last_modified=""), enabled=False):
        try:
            _clear_feed(feed)
        except Exception:
            logger.exception("could not remove the blocks of disabled partner feed %s", feed.pk)


def _clear_feed(feed: Feed) -> None:
    with transaction.atomic():
        remove_partner_blocks(feed_key=feed.block_key)
        Conflict.objects.filter(feed=feed, resolved_at=None).update(resolved_at=timezone.now())
        # Forget the validators too: once re-enabled, a 304 must not pass for blocks we dropped.
        Feed.objects.filter(pk=feed.pk).update(event_count=0, etag="", last_modified="", empty_since=None)


def delete_feed(feed: Feed) -> None:
    """Delete a feed and the blocks it created."""
    with transaction.atomic():
        remove_partner_blocks(feed_key=feed.block_key)
        feed.delete()


# --- The listing probe ---------------------------------------------------------------------------


def probe_listing() -> ListingProbe | None:
    """Fetch the public listing page and record status code, latency and error (the periodic job)."""
    probe = ensure_listing_probe()
    if probe is None or not probe.enabled or not probe.url:
        return probe
    started_at = timezone.now()
    answer = fetching.probe_url(probe.url)
    changes = {
        "last_attempt_at": started_at,
        "last_status_code": answer.status_code,
        "latency_ms": answer.latency_ms,
        "last_error": answer.error[:300],
    }
    if answer.ok:
        changes["last_success_at"] = started_at
    else:
        logger.warning("listing probe: %s", answer.error)
    ListingProbe.objects.filter(pk=probe.pk).update(**changes)
    probe.refresh_from_db()
    return probe


# --- The exported calendar -----------------------------------------------------------------------


@dataclass(frozen=True)
class CalendarExport:
    body: bytes
    etag: str
    last_modified: datetime


def export_calendar() -> CalendarExport:
    """Our blocking stays for the platforms: confirmed stays and unexpired holds ("Booked") and
    staff blocks ("Blocked") from today on. Partner blocks are left out: a platform would import
    its own bookings back as ours."""
    prop = get_property()
    stays = exported_stays(prop)
    description = f"CIN: {prop.national_code}" if prop.national_code else ""
    content = fingerprint(stays, description)
    changed_at = _content_changed_at(content)
    body = render_calendar(stays, name=f"{prop.name}: direct bookings", stamped_at=changed_at, description=description)
    return CalendarExport(body=body, etag=f'"{content[:32]}"', last_modified=changed_at)


def own_host() -> str:
    """The domain of our exported UIDs; events carrying it are ours, echoed back by a platform."""
    return urlsplit(settings.BASE_URL).hostname or "localhost"


def exported_stays(prop) -> list[ExportedStay]:
    first_night = today()
    host = own_host()
    stays = [
        ExportedStay(_stay_uid(reservation_id, host), check_in, check_out, "Booked")
        for reservation_id, check_in, check_out in blocking_reservations(prop, first_night, date.max).values_list("pk", "check_in", "check_out")
    ]
    stays += [
        ExportedStay(f"block-{block_id}@{host}", start, end, "Blocked")
        for block_id, start, end in blocks_between(prop, first_night, date.max).filter(source=DateBlock.Source.STAFF).values_list("pk", "start", "end")
    ]
    return stays


def _stay_uid(reservation_id: str, host: str) -> str:
    """Stable for the life of a reservation (held, then confirmed) without revealing its id."""
    digest = salted_hmac("partner_sync.calendar_export", reservation_id, algorithm="sha256").hexdigest()[:32]
    return f"stay-{digest}@{host}"


def _content_changed_at(content: str) -> datetime:
    """When the export last changed content, recorded the first time a new fingerprint is served.
    Second precision, as HTTP dates have."""
    now = timezone.now().replace(microsecond=0)
    state = ExportedCalendar.objects.filter(pk=ExportedCalendar.SINGLETON_PK).first()
    if state is not None and state.fingerprint == content:
        return state.changed_at
    if state is None:
        try:
            with transaction.atomic():
                state = ExportedCalendar.objects.create(pk=ExportedCalendar.SINGLETON_PK, fingerprint=content, changed_at=now)
            return state.changed_at
        except IntegrityError:  # another request created it first
            pass
    # Compare-and-set, so that two processes serving the same new content agree on one date.
    ExportedCalendar.objects.filter(pk=ExportedCalendar.SINGLETON_PK).exclude(fingerprint=content).update(fingerprint=content, changed_at=now)
    return ExportedCalendar.objects.get(pk=ExportedCalendar.SINGLETON_PK).changed_at
