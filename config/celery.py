"""Celery: background jobs and their beat schedule.

Broker: CELERY_BROKER_URL (redis://… in production). Without it, kombu's filesystem transport
under DATA_DIR/queue, so `make run` runs the worker and beat on a fresh machine with no services.
"""

import os
from datetime import timedelta

from celery import Celery
from celery.schedules import crontab

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("direct_booking")


def configure(app: Celery) -> None:
    from django.conf import settings

    queue_dir = str(settings.CELERY_QUEUE_DIR)
    app.conf.update(
        broker_url=settings.CELERY_BROKER_URL or "filesystem://",
        broker_transport_options=(
            {}
            if settings.CELERY_BROKER_URL
            else {"data_folder_in": queue_dir, "data_folder_out": queue_dir, "control_folder": f"{queue_dir}/control", "store_processed": False}
        ),
        broker_connection_retry_on_startup=True,
        task_ignore_result=True,
        # Only for a single-process setup or tests: run tasks in the caller instead of a worker.
        task_always_eager=settings.CELERY_TASK_ALWAYS_EAGER,
        result_backend=None,
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        worker_prefetch_multiplier=1,
        timezone=settings.TIME_ZONE,
        beat_schedule_filename=settings.CELERY_BEAT_SCHEDULE_FILE,
        beat_schedule={
            "expire-lapsed-holds": {"task": "booking.tasks.expire_lapsed_holds", "schedule": timedelta(seconds=settings.HOLD_SWEEP_SECONDS)},
            "reconcile-open-checkouts": {"task": "booking.tasks.reconcile_open_checkouts", "schedule": timedelta(minutes=5)},
            "purge-idempotency-records": {"task": "booking.tasks.purge_idempotency_records", "schedule": timedelta(hours=1)},
            "deliver-due-emails": {"task": "booking.tasks.deliver_due_emails", "schedule": timedelta(seconds=60)},
            "send-pre-arrival-emails": {"task": "booking.tasks.send_pre_arrival_emails", "schedule": timedelta(hours=1)},
            # Hourly, though a balance is tried once a day: a run missed or failed is made up within the hour.
            "charge-due-balances": {"task": "booking.tasks.charge_due_balances", "schedule": timedelta(hours=1)},
            "place-security-deposits": {"task": "booking.tasks.place_security_deposits", "schedule": timedelta(hours=1)},
            "release-security-deposits": {"task": "booking.tasks.release_security_deposits", "schedule": timedelta(hours=1)},
            "send-review-requests": {"task": "booking.tasks.send_review_requests", "schedule": timedelta(hours=1)},
            "retry-pending-refunds": {"task": "booking.tasks.retry_pending_refunds", "schedule": timedelta(minutes=10)},
            "send-police-registrations": {"task": "booking.italy.tasks.send_police_registrations", "schedule": timedelta(minutes=30)},
            "send-check-in-emails": {"task": "booking.italy.tasks.send_check_in_emails", "schedule": timedelta(hours=1)},
            "erase-guest-documents": {"task": "booking.italy.tasks.erase_guest_documents", "schedule": timedelta(hours=6)},
            "remind-owner-of-short-let-dates": {"task": "booking.italy.tasks.remind_owner_of_short_let_dates", "schedule": timedelta(hours=12)},
            "flag-unverified-identities": {"task": "booking.italy.tasks.flag_unverified_identities", "schedule": timedelta(minutes=30)},
            "send-hold-reminders": {"task": "booking.tasks.send_hold_reminders", "schedule": timedelta(seconds=60)},
            "sync-partner-calendars": {"task": "partner_sync.tasks.sync_all_feeds", "schedule": timedelta(seconds=settings.PARTNER_SYNC_SECONDS)},
            "probe-partner-listing": {"task": "partner_sync.tasks.probe_listing", "schedule": timedelta(seconds=settings.PARTNER_SYNC_SECONDS)},
            **channex_schedule(settings),
        },
    )


def channex_schedule(settings) -> dict:
    """The channel manager's jobs, only when it is connected (CHANNEX_API_KEY): the coalesced ARI
    push every 6 s (Channex's advice; at most one call of each kind per 6 s), the bookings feed
    every 60 s, and the nightly repair (a full sync at most once a day, off-peak)."""
    if not settings.CHANNEX_API_KEY:
        return {}
    return {
        "push-channex-ari": {"task": "partner_sync.tasks.push_channex_ari", "schedule": timedelta(seconds=6), "options": {"expires": 6}},
        "drain-channex-feed": {"task": "partner_sync.tasks.drain_channex_feed", "schedule": timedelta(seconds=60), "options": {"expires": 60}},
        "channex-nightly-full-sync": {"task": "partner_sync.tasks.channex_nightly_full_sync", "schedule": crontab(hour=3, minute=30)},
    }


configure(app)
app.autodiscover_tasks(["booking", "booking.italy", "partner_sync"])
