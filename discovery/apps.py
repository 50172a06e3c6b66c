from django.apps import AppConfig

from discovery import sdk_logs


class DiscoveryConfig(AppConfig):
    name = "discovery"
    verbose_name = "Agent interfaces and discovery files"

    def ready(self):
        sdk_logs.install()
