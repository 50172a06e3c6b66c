from django.apps import AppConfig


class PartnerSyncConfig(AppConfig):
    name = "partner_sync"
    verbose_name = "Listing platform sync"

    def ready(self):
        # Every hold (any interface) first brings stale feeds up to date; see booking.reservations.services.holds.
        from booking.reservations.services.holds import before_every_hold
        from partner_sync.services import refresh_stale_feeds

        before_every_hold(refresh_stale_feeds)

        # Every change to what can be sold or its price marks its nights for the channel manager
        # (a no-op while CHANNEX_API_KEY is unset); see partner_sync/channex/push.py.
        from booking.reservations.calendar_changes import on_nights_changed
        from partner_sync.channex.connection import is_on
        from partner_sync.channex.push import mark

        on_nights_changed(mark, enabled=is_on)
