"""The back office of the Italian obligations: the owner's settings (arrival instructions in every
language), each stay's check-in (documents only for users with `italy.view_guest_documents`), the
police registration per arrival day with its file (and one file for a month or a date range), and
the city-tax and statistics reports per month or quarter with their CSV. Stays are named by their
lead guest ("Rossi, Mario") and dates, for users who may see guest data; never by their id."""

import re
from datetime import date, timedelta

from django import forms
from django.contrib import admin
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpResponse
from django.template.response import TemplateResponse
from django.urls import path
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from modeltranslation.admin import TranslationAdmin

from booking.admin_display import local_time, time_column
from booking.italy import police, reports, short_let
from booking.italy.checkin import masked
from booking.italy.citytax import month_bounds, quarter_bounds
from booking.italy.collectors import collector_label
from booking.italy.countries import country_name
from booking.italy.models import CheckIn, Guest, ItalySettings, PoliceRegistration, SafetyCheck
from booking.italy.settings_form import ItalySettingsForm

DOCUMENT_FIELDS = ("document_type", "document_number", "document_issued_in")
PERIOD = re.compile(r"^([1-9]\d{3})-(?:(0[1-9]|1[0-2])|Q([1-4]))$")
MONTH = re.compile(r"([1-9]\d{3})-(0[1-9]|1[0-2])")
ISO_DATE = ["%Y-%m-%d"]  # as the command takes it, and as a browser's date field sends it
DAY = {"type": "date"}


def sees_documents(request) -> bool:
    return request.user.has_perm("italy.view_guest_documents")


def sees_guests(request) -> bool:
    """Guest data (names) is for users who may view guests (both roles of setup_roles)."""
    return request.user.has_perm("italy.view_guest")


class PolicePeriodForm(forms.Form):
    """A month, or a date range of arrival days (both included): the police file for it, under the
    same rule as `manage.py alloggiati_file --from --to` (police.check_period)."""

    month = forms.CharField(label=gettext_lazy("Month"), required=False, widget=forms.TextInput(attrs={"placeholder": "2026-06", "size": 8}))
    first = forms.DateField(
        label=gettext_lazy("First arrival day"), required=False, input_formats=ISO_DATE, widget=forms.DateInput(format=ISO_DATE[0], attrs=DAY)
    )
    last = forms.DateField(
        label=gettext_lazy("Last arrival day"), required=False, input_formats=ISO_DATE, widget=forms.DateInput(format=ISO_DATE[0], attrs=DAY)
    )

    def clean(self):
        super().clean()
        data = self.cleaned_data
        if self.errors:
            return data
        month, first, last = data.get("month", "").strip(), data.get("first"), data.get("last")
        if month and (first or last):
            raise ValidationError(_("Give a month or a date range, not both."))
        if month:
            match = MONTH.fullmatch(month)
            if not match:
                self.add_error("month", _("Give the month as YYYY-MM, for example 2026-06."))
                return data
            first, last = month_bounds(int(match[1]), int(match[2]))
        elif not (first and last):
            raise ValidationError(_("Give a month, or the first and the last arrival day."))
        try:
            police.check_period(first, last)
        except police.PeriodRefused as error:
            raise ValidationError(str(error)) from error
        data["period"] = (first, last)
        return data


@admin.register(ItalySettings)
class ItalySettingsAdmin(TranslationAdmin):
    form = ItalySettingsForm
    list_display = ("property", "arrival_info_days", "document_retention_days", "regional_authorisation_number", "authorisation")
    readonly_fields = ("authorisation",)

    @admin.display(description=gettext_lazy("Regional authorisation"))
    def authorisation(self, italy: ItalySettings) -> str:
        """Whether it lapses soon (the owner is emailed 60 days before) or has lapsed."""
        expires = italy.regional_authorisation_expires
        if not expires:
            return "—"
        state = short_let.authorisation_state(italy)
        if state == "expired":
            return _("Expired on %(date)s: renew it") % {"date": f"{expires:%d/%m/%Y}"}
        if state == "expiring":
            return _("Expires on %(date)s: renew it soon") % {"date": f"{expires:%d/%m/%Y}"}
        return _("Valid until %(date)s") % {"date": f"{expires:%d/%m/%Y}"}


@admin.register(SafetyCheck)
class SafetyCheckAdmin(admin.ModelAdmin):
    """The safety register: each check with its date and who made it; the next one due (6 months
    for an extinguisher, 12 for a detector unless set), emailed to the owner 14 days before."""

    list_display = ("kind", "location", "checked_on", "checked_by", "next_due", "due_state", "property")
    list_filter = ("kind",)
    readonly_fields = ("next_due",)
    date_hierarchy = "checked_on"

    def get_queryset(self, request):
        return short_let.with_superseded(super().get_queryset(request))

    @admin.display(description=gettext_lazy("State"))
    def due_state(self, check: SafetyCheck) -> str:
        if getattr(check, "superseded", False):
            return _("Checked again since")
        days = (check.next_due - timezone.localdate()).days
        if days < 0:
            return _("Overdue")
        if days <= short_let.SAFETY_NOTICE_DAYS:
            return _("Due soon")
        return _("Up to date")


class GuestInline(admin.TabularInline):
    model = Guest
    extra = 0
    can_delete = False
    # Countries by name in the reader's language, never a code to decode.
    base_fields = (
        "position",
        "first_name",
        "last_name",
        "sex",
        "date_of_birth",
        "citizenship_name",
        "country_of_birth_name",
        "comune_of_birth",
        "province_of_birth",
    )

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False  # guests change their own check-in; staff read it

    def get_fields(self, request, obj=None):
        return [*self.base_fields, *(DOCUMENT_FIELDS if sees_documents(request) else ("document",)), "identity"]

    def get_readonly_fields(self, request, obj=None):
        return self.get_fields(request, obj)

    @admin.display(description=gettext_lazy("Citizenship"))
    def citizenship_name(self, guest: Guest) -> str:
        return country_name(guest.citizenship) if guest.citizenship else "—"

    @admin.display(description=gettext_lazy("Country of birth"))
    def country_of_birth_name(self, guest: Guest) -> str:
        return country_name(guest.country_of_birth) if guest.country_of_birth else "—"

    @admin.display(description=gettext_lazy("Identity verified"))
    def identity(self, guest: Guest) -> str:
        """How and when staff saw the guest (booking/italy/identity.py), or a dash."""
        if not guest.identity_method or guest.identity_verified_at is None:
            return "—"
        return f"{guest.get_identity_method_display()} · {local_time(guest.identity_verified_at)} · {guest.identity_verified_by}"

    @admin.display(description=gettext_lazy("Document"))
    def document(self, guest: Guest) -> str:
        return masked(guest.document_number) if guest.document_number else "—"


@admin.register(CheckIn)
class CheckInAdmin(admin.ModelAdmin):
    list_display = ("reservation", "arrival", "party", "completed_at_local", "documents_erased_at_local")
    list_filter = ("party",)
    readonly_fields = (
        "reservation",
        "party",
        "completed_at_local",
        "documents_erased_at_local",
        "reminder_7_sent_at_local",
        "reminder_2_sent_at_local",
        "arrival_info_sent_at_local",
    )
    exclude = ("completed_at",)  # shown as completed_at_local
    # Times on the property's clock with its zone (booking/admin_display.py).
    completed_at_local = time_column(CheckIn, "completed_at")
    documents_erased_at_local = time_column(CheckIn, "documents_erased_at")
    reminder_7_sent_at_local = time_column(CheckIn, "reminder_7_sent_at")
    reminder_2_sent_at_local = time_column(CheckIn, "reminder_2_sent_at")
    arrival_info_sent_at_local = time_column(CheckIn, "arrival_info_sent_at")
    inlines = [GuestInline]

    def has_add_permission(self, request):
        return False

    @admin.display(description=gettext_lazy("Arrival"), ordering="reservation__check_in")
    def arrival(self, check_in: CheckIn):
        return check_in.reservation.check_in

    def get_urls(self):
        view = self.admin_site.admin_view
        return [
            path("police/", view(self.police_day_view), name="italy_police_day"),
            path("reports/", view(self.reports_view), name="italy_reports"),
            *super().get_urls(),
        ]

    def police_day_view(self, request):
        """One arrival day: each stay complete or missing, hours left to the 24 h deadline, the
        registration sent by the web service if any, and the upload file (?download=1)."""
        if not request.user.has_perm("italy.view_checkin"):
            raise PermissionDenied
        day = _day(request.GET.get("date"))
        period_form = PolicePeriodForm(request.GET if request.GET.get("file") == "period" else None)
        if (request.GET.get("download") or period_form.is_bound) and not sees_documents(request):
            raise PermissionDenied  # the file carries document numbers
        if request.GET.get("download"):
            return _police_file(day, day)
        if period_form.is_valid():
            return _police_file(*period_form.cleaned_data["period"])
        arrivals = police.arrivals_on(day)
        names = reports.lead_names([a.reservation for a in arrivals]) if sees_guests(request) else {}
        context = {
            **self.admin_site.each_context(request),
            "title": _("Police registration — arrivals on %(day)s") % {"day": date_format(day)},
            "opts": self.model._meta,
            "day": day,
            "previous": day - timedelta(days=1),
            "following": day + timedelta(days=1),
            "rows": [
                {
                    "arrival": a,
                    "name": names.get(a.reservation.pk, ""),
                    "hours_left": police.hours_left(a.reservation),
                    "deadline": police.deadline(a.reservation),
                }
                for a in arrivals
            ],
            "can_download": sees_documents(request) and any(not a.missing for a in arrivals),
            "period_form": period_form if sees_documents(request) else None,
        }
        return TemplateResponse(request, "admin/italy/police_day.html", context)

    def reports_view(self, request):
        """The city-tax return and the statistics for a month (2026-06) or quarter (2026-Q2)."""
        if not request.user.has_perm("italy.view_checkin"):
            raise PermissionDenied
        this_month = f"{timezone.localdate():%Y-%m}"
        period = request.GET.get("period") or this_month
        match = PERIOD.match(period) or PERIOD.match(period := this_month)
        assert match is not None
        year, month, quarter = match.groups()
        first, last = quarter_bounds(int(year), int(quarter)) if quarter else month_bounds(int(year), int(month))
        which = request.GET.get("csv")
        if which in ("city_tax", "istat"):
            text = reports.city_tax_csv(first, last) if which == "city_tax" else reports.istat_csv(first, last)
            response = HttpResponse(text, content_type="text/csv; charset=utf-8")
            response["Content-Disposition"] = f'attachment; filename="{which}-{period}.csv"'
            return response
        tax_rows, total = reports.city_tax_rows(first, last)
        platform_rows, platform_total = reports.city_tax_rows(first, last, collected_by_platform=True)
        names = reports.lead_names([stay for stay, _tax in tax_rows + platform_rows]) if sees_guests(request) else {}
        context = {
            **self.admin_site.each_context(request),
            "title": _("City tax and statistics — %(period)s") % {"period": period},
            "opts": self.model._meta,
            "period": period,
            "first": first,
            "last": last,
            "tax_rows": [{"stay": stay, "tax": tax, "name": names.get(stay.pk, ""), "exempt": exempt_text(tax)} for stay, tax in tax_rows],
            "total": total,
            "platform_rows": [
                {"stay": stay, "tax": tax, "name": names.get(stay.pk, ""), "collector": collector_label(stay.city_tax_collected_by)}
                for stay, tax in platform_rows
            ],
            "platform_total": platform_total,
            "istat_rows": [(country_name(code) if code else "", arrivals, nights) for code, arrivals, nights in reports.istat_rows(first, last)],
        }
        return TemplateResponse(request, "admin/italy/reports.html", context)


def exempt_text(tax) -> str:
    """The guests exempt from the city tax and why, in the reader's language ("1: under 12, by the
    dates of birth of the check-in"); the CSV keeps its English `exemption_reasons`."""
    if not tax.guests_exempt:
        return "0"
    if tax.exempt_by == "date_of_birth":
        text = _("%(count)s: under %(age)s, by the dates of birth of the check-in")
    else:
        text = _("%(count)s: under %(age)s, by the children's ages given when booking")
    return text % {"count": tax.guests_exempt, "age": tax.exempt_under_age}


def _police_file(first: date, last: date) -> HttpResponse:
    """The upload file for arrivals from first to last, as `manage.py alloggiati_file` prints it."""
    text, _missing = police.period_file(first, last)
    response = HttpResponse(text, content_type="text/plain; charset=ascii")
    span = f"{first:%Y-%m-%d}" if first == last else f"{first:%Y-%m-%d}_{last:%Y-%m-%d}"
    response["Content-Disposition"] = f'attachment; filename="alloggiati-{span}.txt"'
    return response


def _day(value: str | None) -> date:
    try:
        return date.fromisoformat(value or "")
    except ValueError:
        return timezone.localdate()


@admin.register(PoliceRegistration)
class PoliceRegistrationAdmin(admin.ModelAdmin):
    list_display = ("reservation", "status", "records", "attempts", "sent_at_local", "last_error")
    list_filter = ("status",)
    readonly_fields = ("reservation", "status", "records", "attempts", "next_attempt_at_local", "answer", "last_error", "sent_at_local", "created_at_local")
    exclude = ("next_attempt_at", "sent_at", "created_at")  # shown with their zone below
    next_attempt_at_local = time_column(PoliceRegistration, "next_attempt_at")
    sent_at_local = time_column(PoliceRegistration, "sent_at")
    created_at_local = time_column(PoliceRegistration, "created_at")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


from booking.italy import admin_arrivals  # noqa: E402, F401  (registers the arrivals screen)
