"""The property screen: the owner edits the listing, its rates, stay rules, policies and photos.
The property and its inlines are configuration, saved by the admin's forms; reservations are never
written here."""

from datetime import date

from django import forms
from django.contrib import admin
from django.urls import path
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from modeltranslation.admin import TranslationAdmin, TranslationTabularInline

from booking.catalog.admin.rate_calendar import rate_calendar_view
from booking.catalog.models import (
    WEEKDAYS,
    Amenity,
    ArrivalDayMinimum,
    CancellationTier,
    DisplayCurrency,
    LengthOfStayDiscount,
    NightRate,
    Photo,
    Property,
    Season,
)
from booking.reservations.models import Review


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
    closed_to_arrival = WeekdaysField(label=gettext_lazy("Closed to arrival"), help_text=gettext_lazy("Guests may not arrive on these days."))
    closed_to_departure = WeekdaysField(label=gettext_lazy("Closed to departure"), help_text=gettext_lazy("Guests may not leave on these days."))

    class Meta:
        model = Property
        fields = "__all__"


class AmenityInline(TranslationTabularInline):
    model = Amenity
    classes = ["tab-listing"]
    extra = 1


class PhotoInline(TranslationTabularInline):
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


class SeasonInline(TranslationTabularInline):
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


class DiscountInline(TranslationTabularInline):
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
class PropertyAdmin(TranslationAdmin):  # the owner's texts in every language (booking/catalog/translation.py)
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
    change_form_template = "admin/catalog/property/change_form.html"

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
            {"classes": ["tab-stay"], "fields": ["check_in_from", "check_in_until", "check_out_until", "house_rules"]},
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
        (
            gettext_lazy("Automatic discounts"),
            {
                "classes": ["tab-rates"],
                "description": gettext_lazy(
                    "The best single discount a stay earns applies (length of stay, early-bird, last-minute, gap nights), unless they stack; a promo code adds on top."
                ),
                "fields": [
                    ("early_bird_days", "early_bird_percent"),
                    ("last_minute_days", "last_minute_percent"),
                    ("gap_nights", "gap_nights_percent"),
                    "stack_discounts",
                ],
            },
        ),
        (
            gettext_lazy("Deposit, balance and security deposit"),
            {
                "classes": ["tab-rates"],
                "description": gettext_lazy("Terms copied onto each reservation when it is made: editing them changes only new bookings."),
                "fields": [
                    ("deposit_percent", "balance_due_days", "balance_grace_days"),
                    ("security_deposit", "security_deposit_days_before", "security_deposit_release_days"),
                ],
            },
        ),
        (
            gettext_lazy("Receipts"),
            {"classes": ["tab-stay"], "fields": ["booking_number_prefix", "receipt_host_address", "receipt_tax_code", "receipt_stamp_duty"]},
        ),
    ]

    def get_urls(self):
        return [path("rates/", self.admin_site.admin_view(self.rate_calendar), name="catalog_property_rates"), *super().get_urls()]

    def rate_calendar(self, request):
        return rate_calendar_view(self, request)
