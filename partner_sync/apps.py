from django.apps import AppConfig


class PartnerSyncConfig(AppConfig):
    name = "partner_sync"
    verbose_name = "Listing platform sync"
