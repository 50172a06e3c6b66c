"""Celery tasks of the Italian obligations: thin adapters over booking/italy services."""

from celery import shared_task

from booking.italy import channel_checkin, guest_mail, identity, registration, short_let


@shared_task(name="booking.italy.tasks.send_police_registrations")
def send_police_registrations() -> int:
    """Send the day's complete check-ins to Alloggiati Web (only with the credentials set)."""
    return registration.send_due_registrations()


@shared_task(name="booking.italy.tasks.send_check_in_emails")
def send_check_in_emails() -> int:
    """The check-in link to channel bookings' guests; check-in reminders 7 and 2 days before
    arrival; arrival instructions once checked in."""
    return channel_checkin.invite_channel_guests() + guest_mail.queue_check_in_emails()


@shared_task(name="booking.italy.tasks.erase_guest_documents")
def erase_guest_documents() -> int:
    """Erase identity documents `document_retention_days` after check-out."""
    return guest_mail.erase_documents()


@shared_task(name="booking.italy.tasks.remind_owner_of_short_let_dates")
def remind_owner_of_short_let_dates() -> int:
    """Email the owner 60 days before the regional authorisation lapses and 14 days before a
    safety check is due (once per date)."""
    return short_let.remind_owner()


@shared_task(name="booking.italy.tasks.flag_unverified_identities")
def flag_unverified_identities() -> int:
    """Flag a stay whose guests' identity is still unverified 12 hours into its check-in day, and
    email the owner once per stay."""
    return identity.flag_unverified_stays()
