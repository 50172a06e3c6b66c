"""The owner's emails about the partner calendars: a platform booking that overlaps a confirmed
direct stay (a double booking, at once) and a feed that has failed for more than an hour (its
nights may be sold twice meanwhile). At most one email per problem per day
(booking.reservations.services.owner_alerts); the dashboard shows both for as long as they last."""

from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.admin.utils import quote
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from booking.formatting import format_date
from booking.reservations.models import Reservation
from booking.reservations.services.owner_alerts import alert_owner, in_owner_language
from partner_sync.models import Conflict, Feed

FAILING_FOR = timedelta(hours=1)


def admin_link(name: str, *args) -> str:
    # Quoted as the admin quotes its own links: a "res_…" id may hold "_5F" or "_2F", which the
    # admin would read back as "_" or "/" and answer 404.
    return settings.BASE_URL + reverse(name, args=[quote(str(arg)) for arg in args])


def alert_overlap(feed_name: str, conflict: Conflict) -> None:
    with in_owner_language():
        values = {
            "platform": feed_name,
            "start": format_date(conflict.start, "j M Y"),
            "end": format_date(conflict.end, "j M Y"),
            # The number people search the back office by (docs/contract.md "Reservations").
            "reservation": Reservation.objects.filter(pk=conflict.reservation_id).values_list("booking_number", flat=True).first() or conflict.reservation_id,
        }
        subject = _("Double booking: %(platform)s has a booking from %(start)s to %(end)s that overlaps a direct stay") % values
        body = "\n\n".join(
            [
                _(
                    "The %(platform)s calendar now lists a booking from %(start)s to %(end)s, and the direct stay "
                    "%(reservation)s, already paid, has some of the same nights."
                )
                % values,
                _("Both bookings are real. Contact the platform or the guest, and cancel one of them."),
                admin_link("admin:reservations_reservation_change", conflict.reservation_id),
            ]
        )
    alert_owner(problem=f"partner-overlap:{conflict.feed_id}:{conflict.external_uid}:{conflict.reservation_id}", subject=subject, body=body)


def alert_if_failing_long(feed_id: int, now: datetime) -> None:
    """Called after a failed fetch: email the owner once the feed has had no good answer for an hour."""
    feed = Feed.objects.filter(pk=feed_id).values("name", "last_success_at", "created_at", "last_error").first()
    if feed is None:
        return
    failing_since = feed["last_success_at"] or feed["created_at"]
    if now - failing_since < FAILING_FOR:
        return
    with in_owner_language():
        local = timezone.localtime(failing_since)
        values = {"platform": feed["name"], "since": f"{format_date(local, 'j M Y H:i')} ({local.tzname()})", "error": feed["last_error"]}
        subject = _("The %(platform)s calendar has been failing for over an hour") % values
        body = "\n\n".join(
            [
                _("The last good answer from the %(platform)s calendar was at %(since)s. Its last error: %(error)s") % values
                if feed["last_success_at"]
                else _("The %(platform)s calendar has not answered well since it was added (%(since)s). Its last error: %(error)s") % values,
                _(
                    "Its last known bookings still block their nights, but new platform bookings are not seen: "
                    "check the calendar's address in the platform and in the back office."
                ),
                admin_link("admin:partner_sync_feed_change", feed_id),
            ]
        )
    alert_owner(problem=f"feed-failing:{feed_id}", subject=subject, body=body, now=now)


# --- The channel manager (Channex) ---------------------------------------------------------------


def _stay_line(label: str, start, end) -> str:
    return f"{label}: {format_date(start, 'j M Y')} – {format_date(end, 'j M Y')}"


def alert_channex_overbooking(*, revision_id: str, reservation, collisions) -> None:
    """A channel booking stored over nights already sold: both stays named, at once."""
    with in_owner_language():
        values = {
            "channel": reservation.get_source_display(),
            "code": reservation.channel_code or reservation.channel_booking_id,
            "start": format_date(reservation.check_in, "j M Y"),
            "end": format_date(reservation.check_out, "j M Y"),
        }
        subject = _("Overbooking: a %(channel)s booking (%(code)s) takes nights already sold") % values
        others = [_stay_line(c.label, c.start, c.end) for c in collisions]
        body = "\n\n".join(
            [
                _("%(channel)s has confirmed booking %(code)s from %(start)s to %(end)s, but some of its nights were already sold:") % values,
                "\n".join(others),
                _("Both bookings are real. Contact the platform or the guest, and move or cancel one of them."),
                admin_link("admin:reservations_reservation_change", reservation.pk),
            ]
        )
    alert_owner(problem=f"channex-overbooking:{revision_id}", subject=subject, body=body)


def alert_channex_bad_revision(*, revision_id: str, pk: int, problem: str) -> None:
    """A booking from the channel manager that could not be applied: stored, and shown to the owner."""
    with in_owner_language():
        subject = _("A booking from the channel manager could not be added to the calendar")
        body = "\n\n".join(
            [
                _("Channex sent a booking revision that was stored but not applied: %(problem)s") % {"problem": problem},
                _("Check the booking in Channex and add or block its nights by hand if it is real."),
                admin_link("admin:partner_sync_channexrevision_change", pk),
            ]
        )
    alert_owner(problem=f"channex-bad-revision:{revision_id}", subject=subject, body=body)


def alert_channex_failing(*, since: datetime, error: str, now: datetime) -> None:
    """The ARI push has failed for over an hour: the platforms may sell nights that are taken."""
    with in_owner_language():
        local = timezone.localtime(since)
        values = {"since": f"{format_date(local, 'j M Y H:i')} ({local.tzname()})", "error": error}
        subject = _("The channel manager has not accepted updates for over an hour")
        body = "\n\n".join(
            [
                _("Availability and prices have not reached Channex since %(since)s. Its last error: %(error)s") % values,
                _("Until it recovers, the platforms may sell nights that are taken here: check the connection in the back office."),
                admin_link("admin:partner_sync_channexconnection_changelist"),
            ]
        )
    alert_owner(problem="channex-failing", subject=subject, body=body, now=now)
