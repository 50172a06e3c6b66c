from django.apps import AppConfig


class PagesConfig(AppConfig):
    name = "pages"
    verbose_name = "Website content"

    def ready(self):
        # inquiries: marks an inquiry as emailed when the outbox delivers it, in every process (web
        # and worker); signals: edits of what the public pages show change the version remembered
        # pages are keyed by (pages/caching.py).
        from pages import inquiries, signals  # noqa: F401
