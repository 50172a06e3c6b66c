from django.apps import AppConfig


class PagesConfig(AppConfig):
    name = "pages"
    verbose_name = "Website content"
