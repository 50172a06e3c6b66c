from django.apps import AppConfig


class DiscoveryConfig(AppConfig):
    name = "discovery"
    verbose_name = "Agent interfaces and discovery files"

    def ready(self):
        from discovery import sdk_logs

        sdk_logs.install()
