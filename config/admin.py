"""The back office's site: Django's admin, with the dashboard on its home page (docs/contract.md, "Back office").

Installed in INSTALLED_APPS in place of "django.contrib.admin"; every ModelAdmin registered with
`admin.site` / `@admin.register` lands on this site, since it is the default site.
"""

from decimal import Decimal

from django.conf import settings
from django.contrib import admin
from django.contrib.admin.apps import AdminConfig
from django.core.exceptions import PermissionDenied
from django.utils import timezone, translation
from django.utils.cache import patch_vary_headers
from django.utils.dateformat import format as date_format
from django.utils.formats import number_format
from django.utils.translation import gettext as _


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
        if action and action not in self.get_actions(request) and action in {name for _, name, _ in self._get_base_actions()}:
            raise PermissionDenied
        return super().changelist_view(request, extra_context)


class BookingAdminConfig(AdminConfig):
    default_site = "config.admin.BookingAdminSite"


class BookingAdminSite(admin.AdminSite):
    def index(self, request, extra_context=None):
        extra_context = dict(extra_context or {})
        # Guests' names and money: only for users who may read reservations; others get the stock index.
        if request.user.has_perm("booking.view_reservation"):
            extra_context["dashboard"] = dashboard_context(timezone.now())
        return super().index(request, extra_context)


def dashboard_context(now) -> dict:
    # Imported here, not at the top: this module is loaded while the app registry is being filled
    # (it holds the AppConfig), before models can be imported.
    from booking import dashboard
    from booking.charts import bar_chart_svg

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
            [m.occupancy_percent for m in months], labels, title=_("Occupancy per month (%)"), maximum=100, highlight=current,
            value_labels=["–" if m.occupancy_percent is None else f"{number_format(m.occupancy_percent, 0)}%" for m in months],
        ),
        "revenue_chart": bar_chart_svg(
            revenue, labels, title=_("Revenue per month (%(currency)s)") % {"currency": currency}, highlight=current,
            value_labels=[number_format(amount, 0, force_grouping=True) for amount in revenue],
        ),
        "revenue_total": sum(revenue, start=Decimal(0)),
        "average_nightly_rate": dashboard.average_nightly_rate(window),
        "channels": dashboard.nights_by_channel(window, feeds),
        "attention": dashboard.needs_attention(now),
    }
