from django.apps import AppConfig


class DiscoveryConfig(AppConfig):
    name = "discovery"
    verbose_name = "Agent interfaces and discovery files"
