"""The back office: the owner edits the property and its rates; staff review reservations and
block dates. Admin actions are thin adapters over booking services, like every other interface."""

import calendar as pycalendar
import csv
from datetime import date, datetime, timedelta
from decimal import Decimal

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.admin.utils import quote, unquote
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.http import HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.dates import WEEKDAYS_ABBR
from django.utils.formats import date_format, number_format
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext
from modeltranslation.admin import TranslationAdmin

from booking.admin_display import local_time, with_currency
from booking.errors import BookingError
from booking.models import (
    WEEKDAYS,
    Amenity,
    ArrivalDayMinimum,
    CancellationTier,
    DateBlock,
    DisplayCurrency,
    LengthOfStayDiscount,
    NightRate,
    OutboundEmail,
    Photo,
    Property,
    Reservation,
    ReservationEvent,
    Review,
    Season,
)
from booking.payments import services as payment_services
from booking.rate_calendar import rate_month, source_label
from booking.selectors import blocking_reservations, get_property, refund_if_cancelled
from booking.services import blocks as block_services
from booking.services import cancellation as cancellation_services
from booking.services import rates as rate_services
from config.admin import GuardedModelAdmin


class WeekdaysField(forms.TypedMultipleChoiceField):
    def __init__(self, **kwargs):
        kwargs.pop("encoder", None)
        kwargs.pop("decoder", None)
        kwargs.pop("max_length", None)
        super().__init__(choices=WEEKDAYS, coerce=int, required=False, widget=forms.CheckboxSelectMultiple, **kwargs)


class SeasonDay:
    """A season's first or last night as typed: a day of every year, or of one year."""

    # Yearly seasons are stored in a leap year, so that 29/02 can be typed; the year is ignored.
    YEARLY_YEAR = 2000

    def __init__(self, day: date, yearly: bool):
        self.day, self.yearly = day, yearly


def season_day_text(day: date, yearly: bool) -> str:
    return f"{day:%d/%m}" if yearly else f"{day:%d/%m/%Y}"


class SeasonDayField(forms.CharField):
    def __init__(self, **kwargs):
        super().__init__(
            max_length=10, help_text=gettext_lazy("dd/mm, or dd/mm/yyyy"), widget=forms.TextInput(attrs={"size": 10, "placeholder": "20/12"}), **kwargs
        )

    def clean(self, value):
        text = (super().clean(value) or "").strip().replace(".", "/").replace("-", "/")
        parts = text.split("/")
        try:
            if len(parts) == 2:
                return SeasonDay(date(SeasonDay.YEARLY_YEAR, int(parts[1]), int(parts[0])), yearly=True)
            if len(parts) == 3:
                if len(parts[0]) == 4:  # 2027/12/20, as ISO dates come
                    parts = parts[::-1]
                return SeasonDay(date(int(parts[2]), int(parts[1]), int(parts[0])), yearly=False)
        except ValueError:
            pass
        raise forms.ValidationError(_("Write the night as day/month, e.g. 20/12 (every year), or 20/12/2027 (that year only)."))


class PropertyForm(forms.ModelForm):
    closed_to_arrival = WeekdaysField(help_text=gettext_lazy("Guests may not arrive on these days."))
    closed_to_departure = WeekdaysField(help_text=gettext_lazy("Guests may not leave on these days."))

    class Meta:
        model = Property
        fields = "__all__"


class AmenityInline(admin.TabularInline):
    model = Amenity
    classes = ["tab-listing"]
    extra = 1


class PhotoInline(admin.TabularInline):
    """Photos in the order the site shows them: move a row with its arrows (property-form.js
    renumbers `position`), or type the positions."""

    model = Photo
    extra = 1
    fields = ["thumbnail", "image", "static_path", "alt_text", "caption", "position"]
    readonly_fields = ["thumbnail"]
    classes = ["photo-inline", "tab-listing"]

    @admin.display(description=gettext_lazy("photo"))
    def thumbnail(self, obj):
        if not obj or not obj.pk or not (obj.image or obj.static_path):
            return "–"
        return format_html('<img src="{}" alt="{}" class="photo-thumbnail" width="96" height="64" loading="lazy">', obj.url, obj.alt_text)


class ReviewInline(admin.StackedInline):
    model = Review
    classes = ["tab-listing"]
    extra = 0


class SeasonForm(forms.ModelForm):
    """First and last night as day/month ("20/12") for a season that repeats every year, or with
    the year ("20/12/2027") for one year only: the owner never types a placeholder year."""

    first_night = SeasonDayField(label=gettext_lazy("first night"))
    last_night = SeasonDayField(label=gettext_lazy("last night"))

    class Meta:
        model = Season
        fields = ["name", "nightly_rate", "weekend_nightly_rate", "min_nights", "priority"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk:
            self.initial["first_night"] = season_day_text(self.instance.start_date, self.instance.recurring)
            self.initial["last_night"] = season_day_text(self.instance.end_date, self.instance.recurring)

    def clean(self):
        cleaned = super().clean()
        first, last = cleaned.get("first_night"), cleaned.get("last_night")
        if first and last:
            if first.yearly != last.yearly:
                raise forms.ValidationError(_("Give both nights as day/month (every year) or both with the year (that year only)."))
            if not first.yearly and last.day < first.day:
                raise forms.ValidationError(_("The last night must not be before the first night."))
            self.instance.start_date, self.instance.end_date, self.instance.recurring = first.day, last.day, first.yearly
        return cleaned


class SeasonInline(admin.TabularInline):
    model = Season
    classes = ["tab-rates"]
    form = SeasonForm
    extra = 1
    fields = ["name", "first_night", "last_night", "nightly_rate", "weekend_nightly_rate", "min_nights", "priority"]
    verbose_name_plural = gettext_lazy("Seasons (nights as day/month, e.g. 20/12 → 06/01, repeat every year; add the year, 20/12/2027, for one year only)")


class NightRateInline(admin.TabularInline):
    """What the rate calendar set, night by night (edited more easily in the calendar itself)."""

    model = NightRate
    extra = 0
    classes = ["collapse", "tab-rates"]
    verbose_name_plural = gettext_lazy("Nights set in the rate calendar")


class ArrivalDayMinimumInline(admin.TabularInline):
    model = ArrivalDayMinimum
    classes = ["tab-rates"]
    extra = 0


class DiscountInline(admin.TabularInline):
    model = LengthOfStayDiscount
    classes = ["tab-rates"]
    extra = 0


class DisplayCurrencyInline(admin.TabularInline):
    model = DisplayCurrency
    classes = ["tab-policies"]
    extra = 0


class CancellationTierFormSet(forms.BaseInlineFormSet):
    def clean(self):
        # Before Django's own uniqueness check, whose message ("duplicate data") says less.
        kept = [f for f in self.forms if getattr(f, "cleaned_data", None) and not f.cleaned_data.get("DELETE")]
        if not kept:
            raise forms.ValidationError(_("The cancellation policy needs at least one tier (e.g. 0 days before arrival: 0 %)."))
        days = [f.cleaned_data["days_before_arrival"] for f in kept if f.cleaned_data.get("days_before_arrival") is not None]
        if len(days) != len(set(days)):
            raise forms.ValidationError(_("Each tier needs its own number of days: two tiers cannot both start at the same day."))
        super().clean()


class CancellationTierInline(admin.TabularInline):
    """The cancellation policy: the site, the emails and the API show it in words generated from these
    tiers, and cancellations are refunded by them."""

    model = CancellationTier
    classes = ["tab-policies"]
    formset = CancellationTierFormSet
    extra = 0
    min_num = 1
    verbose_name = gettext_lazy("cancellation tier")
    verbose_name_plural = gettext_lazy("Cancellation policy (cancel at least N days before arrival → this % refunded; the city tax always in full)")


@admin.register(Property)
class PropertyAdmin(TranslationAdmin):  # the owner's texts in every language (booking/translation.py)
    form = PropertyForm
    list_display = ["name", "city", "max_guests", "base_nightly_rate", "updated_at"]
    inlines = [
        SeasonInline,
        ArrivalDayMinimumInline,
        DiscountInline,
        CancellationTierInline,
        DisplayCurrencyInline,
        NightRateInline,
        AmenityInline,
        PhotoInline,
        ReviewInline,
    ]
    prepopulated_fields = {"slug": ["name"]}
    change_form_template = "admin/booking/property/change_form.html"

    class Media:
        # Tabs over the fieldsets and inlines, and arrows to order photos; without script the form
        # is one long page and positions are typed.
        css = {"all": ["admin_booking/property-form.css"]}
        js = ["admin_booking/property-form.js"]

    fieldsets = [
        (
            gettext_lazy("The property"),
            {"classes": ["tab-listing"], "fields": ["name", "slug", "property_type", "headline", "summary", "description", "national_code"]},
        ),
        (
            gettext_lazy("Where it is"),
            {
                "classes": ["tab-listing"],
                "fields": ["street_address", "postal_code", "city", "region", "country_code", "neighbourhood", "latitude", "longitude"],
            },
        ),
        (gettext_lazy("Capacity"), {"classes": ["tab-listing"], "fields": ["max_guests", "bedrooms", "beds", "bathrooms", "size_sqm"]}),
        (
            gettext_lazy("Arrival, departure and rules"),
            {"classes": ["tab-stay"], "fields": ["check_in_from", "check_in_until", "check_out_until", "house_rules", "payment_policy"]},
        ),
        (gettext_lazy("Host and contact"), {"classes": ["tab-stay"], "fields": ["host_name", "contact_email", "contact_phone", "languages"]}),
        (
            gettext_lazy("Arrival email"),
            {
                "classes": ["tab-stay"],
                "description": gettext_lazy("Sent to every guest this many days before check-in, with the address, the check-in times and your phone number."),
                "fields": ["pre_arrival_days", "pre_arrival_message"],
            },
        ),
        (
            gettext_lazy("Nightly rates"),
            {
                "classes": ["tab-rates"],
                "description": gettext_lazy("Seasons (below) override these rates on their nights. Overlapping seasons: the higher priority wins."),
                "fields": ["base_nightly_rate", "weekend_nightly_rate", "base_occupancy", "extra_guest_fee"],
            },
        ),
        (
            gettext_lazy("Stay rules"),
            {"classes": ["tab-rates"], "fields": ["min_nights", "max_nights", "closed_to_arrival", "closed_to_departure", "booking_window_days"]},
        ),
        (
            gettext_lazy("Fees and city tax"),
            {
                "classes": ["tab-rates"],
                "fields": ["cleaning_fee", "cleaning_fee_label", "city_tax_per_person_night", "city_tax_max_nights", "city_tax_exempt_under_age"],
            },
        ),
    ]

    def get_urls(self):
        return [path("rates/", self.admin_site.admin_view(self.rate_calendar_view), name="booking_rate_calendar"), *super().get_urls()]

    def rate_calendar_view(self, request):
        """A month of nights: each one's price, minimum stay and what takes it; choose nights (click
        the first, then the last) and set a price, a minimum stay or a block over them. Writing goes
        through the services every other interface uses (rates.set_night_rates, blocks.block_dates)."""
        user = request.user
        if not (user.has_perm("booking.view_property") or user.has_perm("booking.view_reservation")):
            raise PermissionDenied
        prop = get_property()
        first = month_from_query(request.GET.get("month"))
        form = RateCalendarForm(request.POST or None)
        if request.method == "POST":
            if not user.has_perm(RateCalendarForm.PERMISSIONS.get(request.POST.get("what"), "booking.change_property")):
                raise PermissionDenied
            if form.is_valid():
                try:
                    message = form.apply(actor=f"staff {user.get_username()}")
                except BookingError as error:
                    form.add_error(None, error.detail)
                else:
                    self.message_user(request, message, messages.SUCCESS)
                    return HttpResponseRedirect(f"{request.path}?month={form.cleaned_data['first_night']:%Y-%m}")
        context = {
            **self.admin_site.each_context(request),
            "title": _("Rates and availability — %(month)s") % {"month": date_format(first, "F Y")},
            "opts": self.model._meta,
            "month": rate_month(prop, first),
            "form": form,
            "can_set_rates": user.has_perm("booking.change_property"),
            "can_block": user.has_perm("booking.add_dateblock"),
            "today": timezone.localdate(),
        }
        return TemplateResponse(request, "admin/booking/rate_calendar.html", context)


def month_from_query(value: str | None) -> date:
    """?month=2027-03 → 1 March 2027; anything else → this month."""
    try:
        year, month = (int(part) for part in (value or "").split("-"))
        return date(year, month, 1)
    except ValueError:
        return timezone.localdate().replace(day=1)


class RateCalendarForm(forms.Form):
    WHAT = [
        ("price", gettext_lazy("Set the nightly price")),
        ("min_nights", gettext_lazy("Set the minimum stay")),
        ("clear", gettext_lazy("Back to the seasons and base rates")),
        ("block", gettext_lazy("Block these nights (not for sale)")),
    ]
    PERMISSIONS = {
        "price": "booking.change_property",
        "min_nights": "booking.change_property",
        "clear": "booking.change_property",
        "block": "booking.add_dateblock",
    }

    # An <input type="date"> takes and gives ISO dates whatever the language (the browser shows
    # them the user's way): never the locale's 14/03/2027 in its value.
    first_night = forms.DateField(label=gettext_lazy("First night"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))
    last_night = forms.DateField(
        label=gettext_lazy("Last night"),
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        help_text=gettext_lazy("Included."),
    )
    what = forms.ChoiceField(label=gettext_lazy("What"), choices=WHAT, widget=forms.RadioSelect, initial="price")
    nightly_rate = forms.DecimalField(label=gettext_lazy("Price a night"), max_digits=10, decimal_places=2, min_value=Decimal("0"), required=False)
    min_nights = forms.IntegerField(label=gettext_lazy("Minimum stay (nights)"), min_value=1, max_value=365, required=False)
    reason = forms.CharField(label=gettext_lazy("Reason for the block"), max_length=200, required=False)

    def clean(self):
        cleaned = super().clean()
        first, last, what = cleaned.get("first_night"), cleaned.get("last_night"), cleaned.get("what")
        if first and last and last < first:
            self.add_error("last_night", _("The last night must not be before the first night."))
        if what == "price" and cleaned.get("nightly_rate") is None:
            self.add_error("nightly_rate", _("Give the price a night."))
        if what == "min_nights" and cleaned.get("min_nights") is None:
            self.add_error("min_nights", _("Give the minimum stay."))
        return cleaned

    def apply(self, *, actor: str) -> str:
        data = self.cleaned_data
        start, end = data["first_night"], data["last_night"] + timedelta(days=1)
        span = f"{date_format(data['first_night'], 'j M Y')} – {date_format(data['last_night'], 'j M Y')}"
        if data["what"] == "block":
            block_services.block_dates(start=start, end=end, reason=data["reason"] or "blocked in the rate calendar", actor=actor)
            return _("Blocked %(nights)s.") % {"nights": span}
        change = rate_services.set_night_rates(
            start,
            end,
            actor=actor,
            clear=data["what"] == "clear",
            nightly_rate=data["nightly_rate"] if data["what"] == "price" else None,
            min_nights=data["min_nights"] if data["what"] == "min_nights" else None,
        )
        nights = ngettext("%(count)d night", "%(count)d nights", change.nights) % {"count": change.nights}
        return f"{span} ({nights}): {change.what}."


class ReservationEventInline(admin.TabularInline):
    model = ReservationEvent
    extra = 0
    can_delete = False
    fields = readonly_fields = ["when", "action", "from_status", "to_status", "actor", "note"]

    @admin.display(description=gettext_lazy("when"))
    def when(self, obj):
        return local_time(obj.at)

    def has_add_permission(self, request, obj=None):
        return False


class OutboundEmailInline(admin.TabularInline):
    """The emails this stay sent or still owes (retried while the mail server is down)."""

    model = OutboundEmail
    extra = 0
    can_delete = False
    fields = readonly_fields = ["kind", "recipient", "status", "attempts", "next_attempt", "sent", "last_error"]
    verbose_name_plural = gettext_lazy("emails")

    @admin.display(description=gettext_lazy("next attempt"))
    def next_attempt(self, obj):
        return local_time(obj.next_attempt_at) if obj.status != "sent" else "–"

    @admin.display(description=gettext_lazy("sent"))
    def sent(self, obj):
        return local_time(obj.sent_at)

    def has_add_permission(self, request, obj=None):
        return False


RESERVATION_CSV_COLUMNS = [
    "id",
    "status",
    "check_in",
    "check_out",
    "nights",
    "guests",
    "guest",
    "email",
    "channel",
    "total",
    "paid",
    "refunded",
    "currency",
    "city_tax",
    "created",
    "confirmed",
    "cancelled",
]


def parse_search_date(term: str) -> date | None:
    for pattern in ("%Y-%m-%d", "%d/%m/%Y", "%d.%m.%Y"):
        try:
            return datetime.strptime(term.strip(), pattern).date()
        except ValueError:
            continue
    return None


class StayDatesFilter(admin.SimpleListFilter):
    title = gettext_lazy("stay dates")
    parameter_name = "stay"

    def lookups(self, request, model_admin):
        return [("current", _("In the house now")), ("upcoming", _("Arriving in the next 30 days")), ("past", _("Past stays"))]

    def queryset(self, request, queryset):
        today = timezone.localdate()
        if self.value() == "current":
            return queryset.filter(check_in__lte=today, check_out__gt=today)
        if self.value() == "upcoming":
            return queryset.filter(check_in__gte=today, check_in__lte=today + timedelta(days=30))
        if self.value() == "past":
            return queryset.filter(check_out__lte=today)
        return queryset


class RefundForm(forms.Form):
    """The refund confirmation: how much (at most what is left), why, and whether to cancel too.
    `refunded_before` is what the page showed as refunded: a second send of the same page refunds
    nothing (payments.services.refund_payment)."""

    amount = forms.DecimalField(
        max_digits=10, decimal_places=2, min_value=Decimal("0.01"), label=gettext_lazy("Amount"), help_text=gettext_lazy("At most what is left to refund.")
    )
    reason = forms.CharField(label=gettext_lazy("Reason"), max_length=300, required=False, help_text=gettext_lazy("Kept in the reservation's history."))
    cancel_reservation = forms.BooleanField(required=False, label=gettext_lazy("Also cancel the reservation (its dates become free; the guest is emailed)"))
    refunded_before = forms.DecimalField(max_digits=10, decimal_places=2, widget=forms.HiddenInput)

    def __init__(self, *args, refundable: Decimal, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["amount"].max_value = refundable
        self.fields["amount"].validators.append(MaxRefund(refundable))
        self.fields["amount"].widget.attrs["max"] = str(refundable)


class MaxRefund:
    def __init__(self, refundable: Decimal):
        self.refundable = refundable

    def __call__(self, value):
        if value is not None and value > self.refundable:
            raise forms.ValidationError(_("At most %(amount)s is left to refund.") % {"amount": number_format(self.refundable, 2)})


class CancelForm(forms.Form):
    REFUND_CHOICES = [
        ("policy", gettext_lazy("As the cancellation policy gives today (suggested above)")),
        ("full", gettext_lazy("Everything paid and not yet refunded")),
        ("none", gettext_lazy("No refund")),
        ("amount", gettext_lazy("This amount (one reservation only):")),
    ]
    refund = forms.ChoiceField(label=gettext_lazy("Refund"), choices=REFUND_CHOICES, initial="policy", widget=forms.RadioSelect)
    amount = forms.DecimalField(label=gettext_lazy("Amount"), max_digits=10, decimal_places=2, min_value=Decimal("0"), required=False)
    reason = forms.CharField(label=gettext_lazy("Reason"), max_length=300, required=False, help_text=gettext_lazy("Kept in the reservation's history."))

    def __init__(self, *args, reservations: list[Reservation], **kwargs):
        super().__init__(*args, **kwargs)
        self.reservations = reservations

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("refund") == "amount":
            if len(self.reservations) != 1:
                raise forms.ValidationError(_("An amount can be given for one reservation at a time."))
            amount, refundable = cleaned.get("amount"), refundable_now(self.reservations[0])
            if amount is None:
                self.add_error("amount", _("Give the amount to refund."))
            elif amount > refundable:
                self.add_error("amount", _("At most %(amount)s is left to refund.") % {"amount": with_currency(refundable, self.reservations[0].currency)})
        return cleaned

    def refund_for(self, reservation: Reservation) -> Decimal | None:
        """None means: by the policy (the service computes it under the lock)."""
        choice = self.cleaned_data["refund"]
        if choice == "full":
            return refundable_now(reservation)
        if choice == "none":
            return Decimal("0")
        if choice == "amount":
            return self.cleaned_data["amount"]
        return None


def refundable_now(reservation: Reservation) -> Decimal:
    return max(reservation.amount_paid - reservation.amount_refunded, Decimal("0"))


@admin.register(Reservation)
class ReservationAdmin(GuardedModelAdmin):
    # Fits a 1366 px screen beside the admin's menu: the guest (or the id of a hold without one)
    # links to the reservation; the full id, the creation time and the agent are on its page.
    list_display = ["guest_or_id", "state", "stay", "guests", "total_with_currency", "payment_state", "source"]
    list_display_links = ["guest_or_id"]
    list_filter = ["status", StayDatesFilter, "source", "agent_name", ("needs_attention", admin.EmptyFieldListFilter)]
    search_fields = ["id", "guest_first_name", "guest_last_name", "guest_email", "guest_phone", "agent_name", "checkout_session_id"]
    search_help_text = gettext_lazy("Name, email, phone, reservation id, or a date (2027-03-14 or 14/03/2027): the stays over that night or leaving that day.")
    date_hierarchy = "check_in"
    inlines = [ReservationEventInline, OutboundEmailInline]
    actions = ["cancel_selected", "refund_selected", "export_csv"]

    class Media:
        css = {"all": ["admin_booking/reservations.css"]}

    readonly_fields = [
        "id",
        "property",
        "status",
        "source",
        "check_in",
        "check_out",
        "guests",
        "hold_expires_until",
        "breakdown_table",
        "total_with_currency",
        "client_ip",
        "payment_provider",
        "checkout_session_id",
        "checkout_url",
        "checkout_open_until",
        "paid",
        "refunded",
        "payment_intent_id",
        "confirmed",
        "cancelled",
        "created",
        "updated",
        "refund_still_pending",
        "language",
    ]
    fieldsets = [
        (gettext_lazy("Stay"), {"fields": ["id", "status", "check_in", "check_out", "guests", "hold_expires_until", "source", "agent_name"]}),
        (gettext_lazy("Guest"), {"fields": ["guest_first_name", "guest_last_name", "guest_email", "guest_phone", "special_requests", "language"]}),
        (gettext_lazy("Price (frozen when the dates were held)"), {"fields": ["breakdown_table", "total_with_currency"]}),
        (
            gettext_lazy("Payment"),
            {
                "fields": [
                    "payment_provider",
                    "checkout_session_id",
                    "checkout_url",
                    "checkout_open_until",
                    "paid",
                    "refunded",
                    "refund_still_pending",
                    "payment_intent_id",
                    "needs_attention",
                ]
            },
        ),
        (gettext_lazy("Times (the property's time zone)"), {"fields": ["created", "confirmed", "cancelled", "updated", "client_ip"]}),
    ]

    def has_add_permission(self, request):
        return False  # holds are made through the booking services (site, API, agents)

    def has_delete_permission(self, request, obj=None):
        return False  # reservations are cancelled, never deleted: the audit trail stays

    def has_refund_permission(self, request, obj=None):
        return request.user.has_perm("booking.refund_reservation")

    # --- How a reservation reads: money with its currency, times on the property's clock --------

    @admin.display(description=gettext_lazy("guest"), ordering="guest_last_name")
    def guest_or_id(self, obj):
        return obj.guest_name or (obj.pk[:10] + "…" if len(obj.pk) > 11 else obj.pk)

    @admin.display(description=gettext_lazy("status"), ordering="status")
    def state(self, obj):
        if obj.needs_attention:
            return format_html(
                '{} <strong class="needs-attention" title="{}">· {}</strong>', obj.get_status_display(), obj.needs_attention, _("needs attention")
            )
        return obj.get_status_display()

    @admin.display(description=gettext_lazy("stay"), ordering="check_in")
    def stay(self, obj):
        nights = (obj.check_out - obj.check_in).days
        return format_html(
            '<span class="stay-dates">{} → {}</span> {}',
            date_format(obj.check_in, "d M"),
            date_format(obj.check_out, "d M Y"),
            ngettext("%(count)d night", "%(count)d nights", nights) % {"count": nights},
        )

    @admin.display(description=gettext_lazy("total"), ordering="total")
    def total_with_currency(self, obj):
        return with_currency(obj.total, obj.currency)

    @admin.display(description=gettext_lazy("payment"))
    def payment_state(self, obj):
        if obj.amount_refunded > 0:
            return _("refunded %(amount)s") % {"amount": with_currency(obj.amount_refunded, obj.currency)}
        if obj.amount_paid >= obj.total > 0:
            return pgettext("payment", "paid")
        return pgettext("payment", "part paid") if obj.amount_paid > 0 else pgettext("payment", "unpaid")

    @admin.display(description=gettext_lazy("paid"))
    def paid(self, obj):
        return with_currency(obj.amount_paid, obj.currency)

    @admin.display(description=gettext_lazy("refunded"))
    def refunded(self, obj):
        return with_currency(obj.amount_refunded, obj.currency)

    @admin.display(description=gettext_lazy("refund pending (retried automatically)"))
    def refund_still_pending(self, obj):
        return with_currency(obj.refund_pending, obj.currency)

    @admin.display(description=gettext_lazy("hold expires"))
    def hold_expires_until(self, obj):
        return local_time(obj.hold_expires_at)

    @admin.display(description=gettext_lazy("checkout open until"))
    def checkout_open_until(self, obj):
        return local_time(obj.checkout_expires_at)

    @admin.display(description=gettext_lazy("created"), ordering="created_at")
    def created(self, obj):
        return local_time(obj.created_at)

    @admin.display(description=gettext_lazy("confirmed"))
    def confirmed(self, obj):
        return local_time(obj.confirmed_at)

    @admin.display(description=gettext_lazy("cancelled"))
    def cancelled(self, obj):
        return local_time(obj.cancelled_at)

    @admin.display(description=gettext_lazy("updated"))
    def updated(self, obj):
        return local_time(obj.updated_at)

    @admin.display(description=gettext_lazy("needs attention"), boolean=True)
    def attention(self, obj):
        return bool(obj.needs_attention)

    @admin.display(description=gettext_lazy("Price breakdown"))
    def breakdown_table(self, obj):
        b = obj.price_breakdown or {}
        currency = b.get("currency") or obj.currency

        def amount(value):
            return "" if value in (None, "") else with_currency(Decimal(str(value)), currency)

        rows = [(n["date"], source_label(n["source"]), amount(n["amount"])) for n in b.get("nightly_rates", [])]
        rows += [
            (_("Accommodation"), "", amount(b.get("accommodation"))),
            (b.get("discount_label") or _("Discount"), "", amount(b.get("discount_amount"))),
            (b.get("cleaning_fee_label") or _("Cleaning"), "", amount(b.get("cleaning_fee"))),
            (_("City tax"), b.get("city_tax_note", ""), amount(b.get("city_tax"))),
            (_("Total"), "", amount(b.get("total"))),
        ]
        return format_html("<table>{}</table>", format_html_join("", "<tr><td>{}</td><td>{}</td><td style='text-align:right'>{}</td></tr>", rows))

    def get_search_results(self, request, queryset, search_term):
        """Also by date: a term that reads as a date finds the stays over that night and those leaving that day."""
        results, may_have_duplicates = super().get_search_results(request, queryset, search_term)
        night = parse_search_date(search_term)
        if night is not None:
            results |= queryset.filter(Q(check_in__lte=night, check_out__gt=night) | Q(check_out=night))
        return results, may_have_duplicates

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        if change and form.changed_data:
            ReservationEvent.objects.create(
                reservation=obj,
                action="edit",
                actor=f"staff {request.user.get_username()}",
                from_status=obj.status,
                to_status=obj.status,
                note="changed: " + ", ".join(form.changed_data),
            )

    # --- Acting: cancel and refund, each behind its permission and a confirmation page ----------

    def change_view(self, request, object_id, form_url="", extra_context=None):
        reservation = self.get_object(request, unquote(object_id))
        extra_context = dict(extra_context or {})
        if reservation is not None:
            extra_context["can_cancel"] = self.has_change_permission(request, reservation) and reservation.status in (
                Reservation.Status.HELD,
                Reservation.Status.CONFIRMED,
            )
            extra_context["can_refund"] = self.has_refund_permission(request) and refundable_now(reservation) > 0 and bool(reservation.payment_intent_id)
        return super().change_view(request, object_id, form_url, extra_context)

    @admin.action(description=gettext_lazy("Cancel the selected reservations (with the refund the policy gives, or another)"), permissions=["change"])
    def cancel_selected(self, request, queryset):
        reservations = list(queryset.select_related("property"))
        return self.cancel_confirmation(request, reservations, from_list=True)

    def cancel_view(self, request, object_id):
        reservation = self.get_object(request, unquote(object_id))
        if reservation is None:
            return self._get_obj_does_not_exist_redirect(request, self.opts, object_id)
        if not self.has_change_permission(request, reservation):
            raise PermissionDenied
        return self.cancel_confirmation(request, [reservation], from_list=False)

    def cancel_confirmation(self, request, reservations: list[Reservation], *, from_list: bool):
        """A confirmation page first: each stay with the refund its policy gives today; staff may
        choose a full refund, none, or (for one stay) an amount up to what is left. Then the guest's
        own cancel path (services.cancellation.cancel_stay): emails, refund through the provider."""
        form = CancelForm(request.POST if "apply" in request.POST else None, reservations=reservations)
        if form.is_bound and form.is_valid():
            actor = f"staff {request.user.get_username()}"
            done = 0
            for reservation in reservations:
                if reservation.status == Reservation.Status.CANCELLED:
                    self.message_user(request, _("%(reservation)s was already cancelled: nothing was done.") % {"reservation": reservation.pk}, messages.INFO)
                    continue
                try:
                    cancelled = cancellation_services.cancel_stay(
                        reservation.pk,
                        actor=actor,
                        refund=form.refund_for(reservation),
                        reason=form.cleaned_data["reason"] or "cancelled in the back office",
                    )
                except BookingError as error:
                    self.message_user(request, f"{reservation.pk}: {error.detail}", messages.ERROR)
                    continue
                done += 1
                if cancelled.refund_pending > 0:
                    self.message_user(
                        request,
                        _("%(reservation)s: the refund of %(amount)s is pending (the provider did not answer); it is retried automatically.")
                        % {
                            "reservation": reservation.pk,
                            "amount": with_currency(cancelled.refund_pending, cancelled.currency),
                        },
                        messages.WARNING,
                    )
            if done:
                self.message_user(
                    request,
                    ngettext(
                        "Cancelled %(count)d reservation(s); the guests are emailed.",
                        "Cancelled %(count)d reservation(s); the guests are emailed.",
                        done,
                    )
                    % {"count": done},
                    messages.SUCCESS,
                )
            if from_list:
                return None
            return HttpResponseRedirect(reverse("admin:booking_reservation_change", args=[quote(reservations[0].pk)]))
        rows = [
            {
                "reservation": r,
                "paid": with_currency(r.amount_paid, r.currency),
                "refundable": with_currency(refundable_now(r), r.currency),
                "suggested": with_currency(refund_if_cancelled(r).amount, r.currency) if r.status == Reservation.Status.CONFIRMED else "–",
            }
            for r in reservations
        ]
        context = {
            **self.admin_site.each_context(request),
            "title": _("Cancel reservations") if from_list else _("Cancel reservation %(reservation)s") % {"reservation": reservations[0].pk},
            "opts": self.model._meta,
            "rows": rows,
            "form": form,
            "action": "cancel_selected" if from_list else "",
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
        }
        return TemplateResponse(request, "admin/booking/cancel_confirmation.html", context)

    @admin.action(description=gettext_lazy("Refund the payment of the selected reservation (full or partial)"), permissions=["refund"])
    def refund_selected(self, request, queryset):
        if queryset.count() != 1:
            self.message_user(request, _("Choose exactly one reservation to refund."), messages.WARNING)
            return None
        return HttpResponseRedirect(reverse("admin:booking_reservation_refund", args=[quote(queryset.get().pk)]))

    def refund_view(self, request, object_id):
        """The refund confirmation page: what was paid and refunded, how much is left; refunds
        through the provider (payments.services.refund_payment), never more than is left."""
        if not self.has_refund_permission(request):
            raise PermissionDenied
        reservation = self.get_object(request, unquote(object_id))
        if reservation is None:
            return self._get_obj_does_not_exist_redirect(request, self.opts, object_id)
        change_url = reverse("admin:booking_reservation_change", args=[quote(reservation.pk)])
        refundable = refundable_now(reservation)
        if refundable <= 0 or not reservation.payment_intent_id:
            self.message_user(
                request,
                _("%(reservation)s: nothing is left to refund (no payment was taken, or it was refunded in full).") % {"reservation": reservation.pk},
                messages.WARNING,
            )
            return HttpResponseRedirect(change_url)
        initial = {"amount": refundable, "refunded_before": reservation.amount_refunded}
        form = RefundForm(request.POST if request.method == "POST" else None, initial=initial, refundable=refundable)
        if form.is_bound and form.is_valid():
            actor = f"staff {request.user.get_username()}"
            data = form.cleaned_data
            try:
                if data["cancel_reservation"] and reservation.status == Reservation.Status.CONFIRMED:
                    if data["refunded_before"] != reservation.amount_refunded:
                        raise payment_services.RefundNotPossible(_("Nothing was done: the reservation was refunded meanwhile. Check it before acting again."))
                    # The guest-facing cancel path: the stay's nights freed, the guest emailed, this refund through the provider.
                    reservation = cancellation_services.cancel_stay(
                        reservation.pk, actor=actor, refund=data["amount"], reason=data["reason"] or "cancelled with a refund"
                    )
                else:
                    reservation = payment_services.refund_payment(
                        reservation.pk,
                        actor=actor,
                        amount=data["amount"],
                        reason=data["reason"],
                        refunded_before=data["refunded_before"],
                    )
            except BookingError as error:
                self.message_user(request, f"{reservation.pk}: {error.detail}", messages.ERROR)
                return HttpResponseRedirect(change_url)
            if reservation.refund_pending > 0:
                self.message_user(
                    request,
                    _("%(reservation)s: cancelled; the refund of %(amount)s is pending (the provider did not answer) and is retried automatically.")
                    % {
                        "reservation": reservation.pk,
                        "amount": with_currency(reservation.refund_pending, reservation.currency),
                    },
                    messages.WARNING,
                )
            else:
                self.message_user(
                    request,
                    _("%(reservation)s: refunded so far %(amount)s.")
                    % {
                        "reservation": reservation.pk,
                        "amount": with_currency(reservation.amount_refunded, reservation.currency),
                    },
                    messages.SUCCESS,
                )
            return HttpResponseRedirect(change_url)
        context = {
            **self.admin_site.each_context(request),
            "title": _("Refund reservation %(reservation)s") % {"reservation": reservation.pk},
            "opts": self.model._meta,
            "reservation": reservation,
            "paid": with_currency(reservation.amount_paid, reservation.currency),
            "refunded": with_currency(reservation.amount_refunded, reservation.currency),
            "refundable": with_currency(refundable, reservation.currency),
            "suggested": with_currency(refund_if_cancelled(reservation).amount, reservation.currency)
            if reservation.status == Reservation.Status.CONFIRMED
            else None,
            "form": form,
        }
        return TemplateResponse(request, "admin/booking/reservation/refund_confirmation.html", context)

    @admin.action(description=gettext_lazy("Export the selected reservations as CSV (for the accountant)"), permissions=["view"])
    def export_csv(self, request, queryset):
        response = HttpResponse(content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="reservations-{timezone.localdate():%Y-%m-%d}.csv"'
        response.write("\ufeff")  # a BOM, so spreadsheet programs read the accents right
        writer = csv.writer(response)
        writer.writerow(RESERVATION_CSV_COLUMNS)
        for r in queryset.order_by("check_in"):
            writer.writerow(
                [
                    r.pk,
                    r.status,
                    r.check_in,
                    r.check_out,
                    (r.check_out - r.check_in).days,
                    r.guests,
                    r.guest_name,
                    r.guest_email,
                    r.get_source_display(),
                    r.total,
                    r.amount_paid,
                    r.amount_refunded,
                    r.currency,
                    (r.price_breakdown or {}).get("city_tax", ""),
                    local_time(r.created_at),
                    local_time(r.confirmed_at),
                    local_time(r.cancelled_at),
                ]
            )
        return response

    def get_urls(self):
        return [
            path("calendar/", self.admin_site.admin_view(self.calendar_view), name="booking_reservation_calendar"),
            path("<path:object_id>/cancel/", self.admin_site.admin_view(self.cancel_view), name="booking_reservation_cancel"),
            path("<path:object_id>/refund/", self.admin_site.admin_view(self.refund_view), name="booking_reservation_refund"),
            *super().get_urls(),
        ]

    def calendar_view(self, request):
        """Month by month: holds, confirmed stays and blocks, so staff see the calendar at a glance."""
        if not self.has_view_permission(request):
            raise PermissionDenied
        today = timezone.localdate()
        try:
            year, month = int(request.GET.get("year", today.year)), int(request.GET.get("month", today.month))
            first = date(year, month, 1)
        except ValueError:
            first = today.replace(day=1)
        last = date(first.year, first.month, pycalendar.monthrange(first.year, first.month)[1])
        stays = Reservation.objects.filter(
            Q(status=Reservation.Status.CONFIRMED) | Q(status=Reservation.Status.HELD, hold_expires_at__gt=timezone.now()),
            check_in__lte=last,
            check_out__gt=first,
        )
        blocks = DateBlock.objects.filter(start__lte=last, end__gt=first)
        weeks = []
        for week in pycalendar.Calendar().monthdatescalendar(first.year, first.month):
            row = []
            for day in week:
                entries = [
                    {
                        "label": f"{r.guest_name or r.pk[:12]} ({r.get_status_display()})",
                        "kind": r.status,
                        "url": reverse("admin:booking_reservation_change", args=[quote(r.pk)]),
                    }
                    for r in stays
                    if r.check_in <= day < r.check_out
                ] + [
                    {
                        "label": f"{b.get_source_display()}: {b.reason or _('blocked')}",
                        "kind": "block",
                        "url": reverse("admin:booking_dateblock_change", args=[b.pk]),
                    }
                    for b in blocks
                    if b.start <= day < b.end
                ]
                row.append({"date": day, "in_month": day.month == first.month, "entries": entries})
            weeks.append(row)
        previous = (first - timedelta(days=1)).replace(day=1)
        following = last + timedelta(days=1)
        context = {
            **self.admin_site.each_context(request),
            "title": _("Calendar — %(month)s") % {"month": date_format(first, "F Y")},
            "weekdays": [WEEKDAYS_ABBR[day] for day in range(7)],
            "weeks": weeks,
            "previous": previous,
            "following": following,
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "admin/booking/calendar.html", context)


class DateBlockForm(forms.ModelForm):
    class Meta:
        model = DateBlock
        fields = ["start", "end", "reason"]

    def clean(self):
        # A read-only look ahead so the usual clash comes back as a form error with the form
        # still filled in; the service re-checks under the calendar lock when saving.
        cleaned = super().clean()
        start, end = cleaned.get("start"), cleaned.get("end")
        if start and end:
            if end <= start:
                raise forms.ValidationError(_("The block must end after it starts."))
            clash = blocking_reservations(get_property(), start, end).first()
            if clash is not None:
                raise forms.ValidationError(
                    _("Reservation %(reservation)s (%(status)s) takes some of these nights; cancel it first.")
                    % {"reservation": clash.pk, "status": clash.get_status_display()}
                )
        return cleaned


@admin.register(DateBlock)
class DateBlockAdmin(GuardedModelAdmin):
    """Staff block nights here (with a reason); partner blocks arrive from the iCal sync."""

    list_display = ["start", "end", "source", "reason", "feed_key", "created_by"]
    list_filter = ["source", "feed_key"]
    search_fields = ["reason", "external_uid"]
    form = DateBlockForm

    def has_change_permission(self, request, obj=None):
        return obj is None or obj.source == DateBlock.Source.STAFF and super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None):
        return (obj is None or obj.source == DateBlock.Source.STAFF) and super().has_delete_permission(request, obj)

    def save_model(self, request, obj, form, change):
        actor = f"staff {request.user.get_username()}"
        try:
            if change:
                block = block_services.change_block(obj.pk, start=obj.start, end=obj.end, reason=obj.reason, actor=actor)
            else:
                block = block_services.block_dates(start=obj.start, end=obj.end, reason=obj.reason, actor=actor)
        except BookingError as error:
            # Lost a race with a hold after the form's check: nothing was written. Say only that.
            request.block_refused = error.detail
            return
        obj.pk = block.pk

    def log_addition(self, request, obj, message):
        if not getattr(request, "block_refused", None):
            return super().log_addition(request, obj, message)

    def log_change(self, request, obj, message):
        if not getattr(request, "block_refused", None):
            return super().log_change(request, obj, message)

    def _refused_response(self, request, obj):
        self.message_user(request, request.block_refused, messages.ERROR)
        target = reverse("admin:booking_dateblock_change", args=[obj.pk]) if obj.pk else reverse("admin:booking_dateblock_add")
        return HttpResponseRedirect(target)

    def response_add(self, request, obj, post_url_continue=None):
        if getattr(request, "block_refused", None):
            return self._refused_response(request, obj)
        return super().response_add(request, obj, post_url_continue)

    def response_change(self, request, obj):
        if getattr(request, "block_refused", None):
            return self._refused_response(request, obj)
        return super().response_change(request, obj)

    def delete_model(self, request, obj):
        block_services.unblock_dates(obj.pk, actor=f"staff {request.user.get_username()}")

    def delete_queryset(self, request, queryset):
        for block in queryset.filter(source=DateBlock.Source.STAFF):
            self.delete_model(request, block)


from booking import admin_offers, admin_reviews  # noqa: E402, F401  (promo codes and extras; guests' reviews: their own modules)
