"""The back office's site: Django's admin, with the dashboard on its home page (docs/contract.md, "Back office").

Installed in INSTALLED_APPS in place of "django.contrib.admin"; every ModelAdmin registered with
`admin.site` / `@admin.register` lands on this site, since it is the default site.
"""

from decimal import Decimal
from typing import Any

from django.conf import settings
from django.contrib import admin
from django.contrib.admin.apps import AdminConfig
from django.core.exceptions import PermissionDenied
from django.utils import timezone, translation
from django.utils.cache import patch_vary_headers
from django.utils.dateformat import format as date_format
from django.utils.formats import number_format
from django.utils.text import format_lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy


class BackOfficeLanguageMiddleware:
    """The back office speaks the browser's language (language cookie, then Accept-Language, then
    English). Its paths carry no language prefix, so LocaleMiddleware (just before this one) gave
    them English; only requests under settings.ADMIN_PATH are changed, the guest site keeps its
    path-only rule."""

    def __init__(self, get_response):
        self.get_response = get_response
        self.prefix = "/" + settings.ADMIN_PATH

    def __call__(self, request):
        if not request.path_info.startswith(self.prefix):
            return self.get_response(request)
        language = translation.get_language_from_request(request, check_path=False)
        translation.activate(language)
        request.LANGUAGE_CODE = translation.get_language()
        response = self.get_response(request)
        patch_vary_headers(response, ("Accept-Language",))
        response.headers.setdefault("Content-Language", request.LANGUAGE_CODE)
        return response


class GuardedModelAdmin(admin.ModelAdmin):
    """A model admin whose actions are refused (403) to a user who may not run them.

    Django leaves an action the user lacks the permission for out of the menu, but answers a forged
    POST of it with "No action selected" and a redirect; this says no plainly, so a test (or a
    person) can tell a refusal from a slip."""

    def changelist_view(self, request, extra_context=None):
        action = request.POST.get("action") if request.method == "POST" else None
        if action and action not in self.get_actions(request) and action in self.action_names():
            raise PermissionDenied
        return super().changelist_view(request, extra_context)

    def action_names(self) -> set[str]:
        """Every action of this admin, whoever asks: the site's and its own."""
        own = {action if isinstance(action, str) else action.__name__ for action in self.actions or ()}
        return own | {name for name, _ in self.admin_site.actions}


class BookingAdminConfig(AdminConfig):
    default_site = "config.admin.BookingAdminSite"

    def ready(self):
        super().ready()
        translate_model_names()


# The apps whose models the back office shows: their names and field names are translated.
BACK_OFFICE_APPS = ("catalog", "reservations", "payments", "outbox", "italy", "pages", "partner_sync")


# Choice labels that end up in stored text (the notes of booking/outbox/notifications.py): kept in English.
UNTRANSLATED_CHOICES = {("outbox.OutboundEmail", "kind")}


def translate_model_names() -> None:
    """Model and field names the models leave to Django (a field `check_in` reads "check in", a
    model `DateBlock` "date block") and the labels of choices ("Confirmed") are made translatable at
    start-up, so admin labels, list columns, filters and titles follow the back office's language
    without a verbose_name on every field.

    Only the running objects change (`field.verbose_name`, `_meta.verbose_name[_plural]`); the
    migrations read the declared `_verbose_name` and `Meta` options, so no migration follows. The
    msgids are these English names; their translations are in locale/back-office (they cannot be
    extracted by makemessages: see the comment at the top of those catalogs)."""
    from django.apps import apps

    with translation.override("en"):
        for label in BACK_OFFICE_APPS:
            app = apps.get_app_config(label)
            app.verbose_name = gettext_lazy(str(app.verbose_name))  # "Property, rates and reservations"
        for model in (m for label in BACK_OFFICE_APPS for m in apps.get_app_config(label).get_models()):
            opts = model._meta
            for option in ("verbose_name", "verbose_name_plural"):
                if option not in opts.original_attrs:  # derived by Django: English words, or "{}s" of a translated singular
                    setattr(opts, option, gettext_lazy(str(getattr(opts, option))))
            fields: list[Any] = [f for f in opts.get_fields() if not f.auto_created and hasattr(f, "verbose_name")]
            for field in fields:
                translate_field_words(opts, field)
            for field in fields:
                if hasattr(field, "translated_field"):  # modeltranslation's "title [it]": the base name, translated
                    field.verbose_name = format_lazy("{} [{}]", field.translated_field.verbose_name, field.language)


def translate_field_words(opts, field) -> None:
    """A field's derived name, its help text ("The provider's payment intent id.") and its choices' labels."""
    if getattr(field, "_verbose_name", "") is None and not hasattr(field, "translated_field"):
        field.verbose_name = gettext_lazy(str(field.verbose_name))
    if isinstance(field.help_text, str) and field.help_text:
        field.help_text = gettext_lazy(field.help_text)
    if getattr(field, "choices", None) and (opts.label, field.name) not in UNTRANSLATED_CHOICES:
        field.choices = [(value, gettext_lazy(label) if isinstance(label, str) else label) for value, label in field.choices]


class BookingAdminSite(admin.AdminSite):
    # Not "Django administration": the owner's own back office, named after the property.
    site_header = gettext_lazy("Back office")
    site_title = gettext_lazy("Back office")
    index_title = gettext_lazy("Dashboard")

    def each_context(self, request):
        context = super().each_context(request)
        from booking.admin import dashboard  # the app registry is still loading when this module is imported

        name = dashboard.property_name()
        if name:
            context["site_header"] = format_lazy("{name} · {back_office}", name=name, back_office=self.site_header)
            context["site_title"] = context["site_header"]
        return context

    def index(self, request, extra_context=None):
        extra_context = dict(extra_context or {})
        # Guests' names and money: only for users who may read reservations; others get the stock index.
        if request.user.has_perm("reservations.view_reservation"):
            extra_context["dashboard"] = dashboard_context(timezone.now())
        return super().index(request, extra_context)


def dashboard_context(now) -> dict:
    # Imported here, not at the top: this module is loaded while the app registry is being filled
    # (it holds the AppConfig), before models can be imported.
    from booking.admin import dashboard
    from booking.admin.charts import bar_chart_svg

    today = timezone.localtime(now).date()
    window = dashboard.load_window(today)
    feeds = dashboard.feed_names()
    months = dashboard.monthly_occupancy_and_revenue(window)
    labels = [date_format(m.month, "M y") for m in months]
    current = next(i for i, m in enumerate(months) if m.month == today.replace(day=1))
    currency = dashboard.property_currency()
    revenue = [m.revenue for m in months]
    return {
        "now": now,
        "today": today,
        "time_zone": settings.TIME_ZONE,
        "currency": currency,
        "movements": dashboard.upcoming_movements(today, feeds),
        "movement_days": dashboard.MOVEMENT_DAYS,
        "holds": dashboard.open_holds(now),
        "months": months,
        "window_start": window.start,
        "window_last_month": dashboard.add_months(window.end, -1),
        "occupancy_chart": bar_chart_svg(
            [m.occupancy_percent for m in months],
            labels,
            title=_("Occupancy per month (%)"),
            maximum=100,
            highlight=current,
            value_labels=["–" if m.occupancy_percent is None else f"{number_format(m.occupancy_percent, 0)}%" for m in months],
        ),
        "revenue_chart": bar_chart_svg(
            revenue,
            labels,
            title=_("Revenue per month (%(currency)s)") % {"currency": currency},
            highlight=current,
            value_labels=[number_format(amount, 0, force_grouping=True) for amount in revenue],
        ),
        "revenue_total": sum(revenue, start=Decimal(0)),
        "average_nightly_rate": dashboard.average_nightly_rate(window),
        "channels": dashboard.nights_by_channel(window, feeds),
        "promo_codes": dashboard.promo_code_figures(),
        "attention": dashboard.needs_attention(now),
    }
