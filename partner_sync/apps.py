from django.apps import AppConfig


class PartnerSyncConfig(AppConfig):
    name = "partner_sync"
    verbose_name = "Listing platform sync"

    def ready(self):
        # Every hold (any interface) first brings stale feeds up to date; see booking.services.holds.
        from booking.services.holds import before_every_hold
        from partner_sync.services import refresh_stale_feeds

        before_every_hold(refresh_stale_feeds)
