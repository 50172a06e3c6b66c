from django.apps import AppConfig


class PagesConfig(AppConfig):
    name = "pages"
    verbose_name = "Website content"

    def ready(self):
        # Marks an inquiry as emailed when the outbox delivers it, in every process (web and worker).
        from pages import inquiries  # noqa: F401
