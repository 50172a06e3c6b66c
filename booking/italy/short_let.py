"""The city's short-let rules (docs/italy.md, the "short-let rules" section): the owner is emailed 60
days before the regional authorisation lapses and 14 days before a safety check is due.

Each email goes once per date it warns about, however often the daily job runs and on however many
workers: the job claims it by a conditional update of the date it was sent for
(ItalySettings.authorisation_reminder_sent_for, SafetyCheck.reminder_sent_for) in the transaction
that queues the email. A new expiry or due date (the authorisation renewed, a check recorded) is
a new claim. Written in the site's main language, like the owner's other notices."""

from datetime import date, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, F, OuterRef, Q, QuerySet
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from booking.italy.models import ItalySettings, SafetyCheck
from booking.outbox.models import OutboundEmail
from booking.outbox.notifications import queue_notice
from booking.reservations.services.owner_alerts import owner_address

AUTHORISATION_NOTICE_DAYS = 60
SAFETY_NOTICE_DAYS = 14


def authorisation_state(italy: ItalySettings, today: date | None = None) -> str:
    """For the back office: "expired", "expiring" (within 60 days), or "" (nothing to say)."""
    expires = italy.regional_authorisation_expires
    if not expires:
        return ""
    today = today or timezone.localdate()
    if expires < today:
        return "expired"
    return "expiring" if expires <= today + timedelta(days=AUTHORISATION_NOTICE_DAYS) else ""


def remind_owner(*, today: date | None = None) -> int:
    """Queue the authorisation and safety-check reminders that are due; the number queued."""
    today = today or timezone.localdate()
    return _authorisation_reminders(today) + _safety_reminders(today)


def _authorisation_reminders(today: date) -> int:
    queued = 0
    due = ItalySettings.objects.filter(
        regional_authorisation_expires__isnull=False,
        regional_authorisation_expires__lte=today + timedelta(days=AUTHORISATION_NOTICE_DAYS),
        regional_authorisation_expires__gte=today,
    ).exclude(authorisation_reminder_sent_for=F("regional_authorisation_expires"))
    for italy in due.select_related("property"):
        expires = italy.regional_authorisation_expires
        assert expires is not None
        with transaction.atomic():
            claimed = (
                ItalySettings.objects.filter(pk=italy.pk, regional_authorisation_expires=expires)
                .exclude(authorisation_reminder_sent_for=expires)
                .update(authorisation_reminder_sent_for=expires)
            )
            if not claimed:
                continue
            with translation.override(settings.LANGUAGE_CODE):
                values = {
                    "name": italy.property.name,
                    "number": italy.regional_authorisation_number or "—",
                    "date": f"{expires:%d/%m/%Y}",
                    "days": (expires - today).days,
                }
                subject = _("The regional authorisation of %(name)s expires on %(date)s") % values
                body = "\n\n".join(
                    [
                        _(
                            "The regional short-let authorisation of %(name)s (number %(number)s) expires on %(date)s, in %(days)s days. Renew it before then: without it the unit may not be let."
                        )
                        % values,
                        _("Once renewed, enter the new number and dates in the Italian settings:"),
                        _settings_url(italy),
                    ]
                )
            queued += bool(queue_notice(kind=OutboundEmail.Kind.OWNER_ALERT, subject=subject, body=body, to=owner_address()))
    return queued


def _safety_reminders(today: date) -> int:
    queued = 0
    due = with_superseded(SafetyCheck.objects.all()).filter(superseded=False, next_due__lte=today + timedelta(days=SAFETY_NOTICE_DAYS), next_due__gte=today)
    for check in due.exclude(reminder_sent_for=F("next_due")).select_related("property"):
        with transaction.atomic():
            claimed = (
                SafetyCheck.objects.filter(pk=check.pk, next_due=check.next_due)
                .exclude(reminder_sent_for=check.next_due)
                .update(reminder_sent_for=check.next_due)
            )
            if not claimed:
                continue
            with translation.override(settings.LANGUAGE_CODE):
                values = {
                    "device": check.get_kind_display(),
                    "where": check.location or "—",
                    "name": check.property.name,
                    "date": f"{check.next_due:%d/%m/%Y}",
                    "last": f"{check.checked_on:%d/%m/%Y}",
                    "by": check.checked_by,
                }
                subject = _("Safety check due on %(date)s: %(device)s, %(name)s") % values
                body = "\n\n".join(
                    [
                        _("The next check of the %(device)s (%(where)s) of %(name)s is due on %(date)s. The last one was on %(last)s, by %(by)s.") % values,
                        _("Once it is done, record it in the safety register:"),
                        settings.BASE_URL + reverse("admin:italy_safetycheck_changelist"),
                    ]
                )
            queued += bool(queue_notice(kind=OutboundEmail.Kind.OWNER_ALERT, subject=subject, body=body, to=owner_address()))
    return queued


def with_superseded(checks: QuerySet[SafetyCheck]) -> QuerySet[SafetyCheck]:
    """Annotate `superseded`: the device (property, kind, place) was checked again since. Only a
    device's latest check is due."""
    later = SafetyCheck.objects.filter(property=OuterRef("property"), kind=OuterRef("kind"), location__iexact=OuterRef("location")).filter(
        Q(checked_on__gt=OuterRef("checked_on")) | Q(checked_on=OuterRef("checked_on"), pk__gt=OuterRef("pk"))
    )
    return checks.annotate(superseded=Exists(later))


def _settings_url(italy: ItalySettings) -> str:
    return settings.BASE_URL + reverse("admin:italy_italysettings_change", args=[italy.pk])
