"""The back office: the owner edits the property and its rates; staff review reservations and
block dates. Admin actions are thin adapters over booking services, like every other interface."""

import calendar as pycalendar
from datetime import date, timedelta
from decimal import Decimal

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.admin.utils import quote
from django.db.models import Q
from django.http import HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from modeltranslation.admin import TranslationAdmin

from booking.errors import BookingError
from booking.models import (
    WEEKDAYS,
    Amenity,
    ArrivalDayMinimum,
    CancellationTier,
    DateBlock,
    DisplayCurrency,
    LengthOfStayDiscount,
    OutboundEmail,
    Photo,
    Property,
    Reservation,
    ReservationEvent,
    Review,
    Season,
)
from booking.payments import services as payment_services
from booking.selectors import blocking_reservations, get_property
from booking.services import blocks as block_services
from booking.services import cancellation as cancellation_services


class WeekdaysField(forms.TypedMultipleChoiceField):
    def __init__(self, **kwargs):
        kwargs.pop("encoder", None)
        kwargs.pop("decoder", None)
        kwargs.pop("max_length", None)
        super().__init__(choices=WEEKDAYS, coerce=int, required=False, widget=forms.CheckboxSelectMultiple, **kwargs)


class PropertyForm(forms.ModelForm):
    closed_to_arrival = WeekdaysField(help_text="Guests may not arrive on these days.")
    closed_to_departure = WeekdaysField(help_text="Guests may not leave on these days.")

    class Meta:
        model = Property
        fields = "__all__"


class AmenityInline(admin.TabularInline):
    model = Amenity
    extra = 1


class PhotoInline(admin.TabularInline):
    model = Photo
    extra = 1


class ReviewInline(admin.StackedInline):
    model = Review
    extra = 0


class SeasonInline(admin.TabularInline):
    model = Season
    extra = 1
    fields = ["name", "start_date", "end_date", "recurring", "nightly_rate", "weekend_nightly_rate", "min_nights", "priority"]


class ArrivalDayMinimumInline(admin.TabularInline):
    model = ArrivalDayMinimum
    extra = 0


class DiscountInline(admin.TabularInline):
    model = LengthOfStayDiscount
    extra = 0


class DisplayCurrencyInline(admin.TabularInline):
    model = DisplayCurrency
    extra = 0


class CancellationTierFormSet(forms.BaseInlineFormSet):
    def clean(self):
        # Before Django's own uniqueness check, whose message ("duplicate data") says less.
        kept = [f for f in self.forms if getattr(f, "cleaned_data", None) and not f.cleaned_data.get("DELETE")]
        if not kept:
            raise forms.ValidationError("The cancellation policy needs at least one tier (e.g. 0 days before arrival: 0 %).")
        days = [f.cleaned_data["days_before_arrival"] for f in kept if f.cleaned_data.get("days_before_arrival") is not None]
        if len(days) != len(set(days)):
            raise forms.ValidationError("Each tier needs its own number of days: two tiers cannot both start at the same day.")
        super().clean()


class CancellationTierInline(admin.TabularInline):
    """The cancellation policy: the site, the emails and the API show it in words generated from these
    tiers, and cancellations are refunded by them."""

    model = CancellationTier
    formset = CancellationTierFormSet
    extra = 0
    min_num = 1
    verbose_name = "cancellation tier"
    verbose_name_plural = "Cancellation policy (cancel at least N days before arrival → this % refunded; the city tax always in full)"


@admin.register(Property)
class PropertyAdmin(TranslationAdmin):  # the owner's texts in every language (booking/translation.py)
    form = PropertyForm
    list_display = ["name", "city", "max_guests", "base_nightly_rate", "updated_at"]
    inlines = [SeasonInline, ArrivalDayMinimumInline, DiscountInline, CancellationTierInline, DisplayCurrencyInline, AmenityInline, PhotoInline, ReviewInline]
    prepopulated_fields = {"slug": ["name"]}
    fieldsets = [
        ("The property", {"fields": ["name", "slug", "property_type", "headline", "summary", "description", "national_code"]}),
        ("Where it is", {"fields": ["street_address", "postal_code", "city", "region", "country_code", "neighbourhood", "latitude", "longitude"]}),
        ("Capacity", {"fields": ["max_guests", "bedrooms", "beds", "bathrooms", "size_sqm"]}),
        ("Arrival, departure and rules", {"fields": ["check_in_from", "check_in_until", "check_out_until", "house_rules", "payment_policy"]}),
        ("Host and contact", {"fields": ["host_name", "contact_email", "contact_phone", "languages"]}),
        ("Arrival email", {
            "description": "Sent to every guest this many days before check-in, with the address, the check-in times and your phone number.",
            "fields": ["pre_arrival_days", "pre_arrival_message"],
        }),
        ("Nightly rates", {
            "description": "Seasons (below) override these rates on their nights. Overlapping seasons: the higher priority wins.",
            "fields": ["base_nightly_rate", "weekend_nightly_rate", "base_occupancy", "extra_guest_fee"],
        }),
        ("Stay rules", {"fields": ["min_nights", "max_nights", "closed_to_arrival", "closed_to_departure", "booking_window_days"]}),
        ("Fees and city tax", {"fields": ["cleaning_fee", "cleaning_fee_label", "city_tax_per_person_night", "city_tax_max_nights", "city_tax_exempt_under_age"]}),
    ]


class ReservationEventInline(admin.TabularInline):
    model = ReservationEvent
    extra = 0
    can_delete = False
    readonly_fields = ["at", "action", "from_status", "to_status", "actor", "note"]

    def has_add_permission(self, request, obj=None):
        return False


class OutboundEmailInline(admin.TabularInline):
    """The emails this stay sent or still owes (retried while the mail server is down)."""

    model = OutboundEmail
    extra = 0
    can_delete = False
    fields = readonly_fields = ["kind", "recipient", "status", "attempts", "next_attempt_at", "sent_at", "last_error"]
    verbose_name_plural = "emails"

    def has_add_permission(self, request, obj=None):
        return False


class StayDatesFilter(admin.SimpleListFilter):
    title = "stay dates"
    parameter_name = "stay"

    def lookups(self, request, model_admin):
        return [("current", "In the house now"), ("upcoming", "Arriving in the next 30 days"), ("past", "Past stays")]

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
    amount = forms.DecimalField(
        max_digits=10, decimal_places=2, min_value=Decimal("0.01"), required=False,
        help_text="Leave empty to refund everything not yet refunded.",
    )
    reason = forms.CharField(max_length=300, required=False, help_text="Kept in the reservation's history.")
    cancel_reservation = forms.BooleanField(required=False, label="Also cancel the reservation (its dates become free)")


class CancelForm(forms.Form):
    REFUND_CHOICES = [
        ("policy", "As the cancellation policy gives today (suggested below)"),
        ("full", "Everything paid and not yet refunded"),
        ("none", "No refund"),
        ("amount", "This amount (one reservation only):"),
    ]
    refund = forms.ChoiceField(choices=REFUND_CHOICES, initial="policy", widget=forms.RadioSelect)
    amount = forms.DecimalField(max_digits=10, decimal_places=2, min_value=Decimal("0"), required=False)
    reason = forms.CharField(max_length=300, required=False, help_text="Kept in the reservation's history.")

    def __init__(self, *args, single: bool, **kwargs):
        super().__init__(*args, **kwargs)
        self.single = single

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("refund") == "amount":
            if not self.single:
                raise forms.ValidationError("An amount can be given for one reservation at a time.")
            if cleaned.get("amount") is None:
                raise forms.ValidationError("Give the amount to refund.")
        return cleaned

    def refund_for(self, reservation: Reservation) -> Decimal | None:
        """None means: by the policy (the service computes it under the lock)."""
        choice = self.cleaned_data["refund"]
        refundable = max(reservation.amount_paid - reservation.amount_refunded, Decimal("0"))
        if choice == "full":
            return refundable
        if choice == "none":
            return Decimal("0")
        if choice == "amount":
            amount = self.cleaned_data["amount"]
            if amount > refundable:
                raise BookingAdminError(f"At most {refundable} {reservation.currency} is left to refund.")
            return amount
        return None


class BookingAdminError(BookingError):
    status = 409
    code = "refund_not_possible"


@admin.register(Reservation)
class ReservationAdmin(admin.ModelAdmin):
    list_display = ["id", "status", "check_in", "check_out", "guests", "guest_name", "total", "source", "agent_name", "attention", "created_at"]
    list_filter = ["status", StayDatesFilter, "source", "agent_name", ("needs_attention", admin.EmptyFieldListFilter)]
    search_fields = ["id", "guest_first_name", "guest_last_name", "guest_email", "guest_phone", "agent_name", "checkout_session_id"]
    date_hierarchy = "check_in"
    inlines = [ReservationEventInline, OutboundEmailInline]
    actions = ["cancel_selected", "refund_selected"]
    readonly_fields = [
        "id", "property", "status", "source", "check_in", "check_out", "guests", "hold_expires_at", "breakdown_table", "total", "currency",
        "client_ip", "payment_provider", "checkout_session_id", "checkout_url", "checkout_expires_at", "amount_paid", "amount_refunded",
        "payment_intent_id", "confirmed_at", "cancelled_at", "created_at", "updated_at", "refund_pending", "language",
    ]
    fieldsets = [
        ("Stay", {"fields": ["id", "status", "check_in", "check_out", "guests", "hold_expires_at", "source", "agent_name"]}),
        ("Guest", {"fields": ["guest_first_name", "guest_last_name", "guest_email", "guest_phone", "special_requests"]}),
        ("Price (frozen when the dates were held)", {"fields": ["breakdown_table", "total", "currency"]}),
        ("Payment", {"fields": ["payment_provider", "checkout_session_id", "checkout_url", "checkout_expires_at", "amount_paid", "amount_refunded", "refund_pending", "payment_intent_id", "needs_attention"]}),
        ("Times", {"fields": ["created_at", "confirmed_at", "cancelled_at", "updated_at", "client_ip"]}),
    ]

    def has_add_permission(self, request):
        return False  # holds are made through the booking services (site, API, agents)

    def has_delete_permission(self, request, obj=None):
        return False  # reservations are cancelled, never deleted: the audit trail stays

    @admin.display(description="needs attention", boolean=True)
    def attention(self, obj):
        return bool(obj.needs_attention)

    @admin.display(description="Price breakdown")
    def breakdown_table(self, obj):
        b = obj.price_breakdown or {}
        rows = [(n["date"], n["source"], n["amount"]) for n in b.get("nightly_rates", [])]
        rows += [
            ("Accommodation", "", b.get("accommodation")),
            (b.get("discount_label") or "Discount", "", b.get("discount_amount")),
            (b.get("cleaning_fee_label", "Cleaning"), "", b.get("cleaning_fee")),
            ("City tax", b.get("city_tax_note", ""), b.get("city_tax")),
            ("Total", b.get("currency", ""), b.get("total")),
        ]
        return format_html("<table>{}</table>", format_html_join("", "<tr><td>{}</td><td>{}</td><td style='text-align:right'>{}</td></tr>", rows))

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        if change and form.changed_data:
            ReservationEvent.objects.create(
                reservation=obj, action="edit", actor=f"staff {request.user.get_username()}",
                from_status=obj.status, to_status=obj.status, note="changed: " + ", ".join(form.changed_data),
            )

    @admin.action(description="Cancel the selected reservations (with the refund the policy gives, or another)", permissions=["change"])
    def cancel_selected(self, request, queryset):
        """A confirmation page first: each stay with the refund its policy gives today; staff may
        choose a full refund, none, or (for one stay) an amount. Then the guest's own cancel path."""
        reservations = list(queryset.select_related("property"))
        form = CancelForm(request.POST if "apply" in request.POST else None, single=len(reservations) == 1)
        if form.is_bound and form.is_valid():
            actor = f"staff {request.user.get_username()}"
            done = 0
            for reservation in reservations:
                try:
                    cancelled = cancellation_services.cancel_stay(
                        reservation.pk, actor=actor, refund=form.refund_for(reservation), reason=form.cleaned_data["reason"] or "cancelled in the back office",
                    )
                except BookingError as error:
                    self.message_user(request, f"{reservation.pk}: {error.detail}", messages.ERROR)
                    continue
                done += 1
                if cancelled.refund_pending > 0:
                    self.message_user(request, f"{reservation.pk}: the refund of {cancelled.refund_pending} {cancelled.currency} is pending (the provider did not answer); it is retried automatically.", messages.WARNING)
            if done:
                self.message_user(request, f"Cancelled {done} reservation(s); the guests are emailed.", messages.SUCCESS)
            return None
        rows = [
            {"reservation": r, "paid": r.amount_paid, "refundable": max(r.amount_paid - r.amount_refunded, Decimal("0")),
             "suggested": cancellation_services.refund_if_cancelled(r).amount}
            for r in reservations
        ]
        context = {
            **self.admin_site.each_context(request),
            "title": "Cancel reservations",
            "opts": self.model._meta,
            "rows": rows,
            "form": form,
            "action": "cancel_selected",
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
        }
        return TemplateResponse(request, "admin/booking/cancel_confirmation.html", context)

    @admin.action(description="Refund the payment of the selected reservation (full or partial)", permissions=["change"])
    def refund_selected(self, request, queryset):
        """An intermediate form (amount, reason, cancel too?); the refund itself is a payment service."""
        if queryset.count() != 1:
            self.message_user(request, "Choose exactly one reservation to refund.", messages.WARNING)
            return None
        reservation = queryset.get()
        form = RefundForm(request.POST if "apply" in request.POST else None)
        if form.is_bound and form.is_valid():
            actor = f"staff {request.user.get_username()}"
            try:
                if form.cleaned_data["cancel_reservation"] and reservation.status == Reservation.Status.CONFIRMED:
                    # Cancelling is the guest-facing path (emails, refund through the provider).
                    amount = form.cleaned_data["amount"]
                    reservation = cancellation_services.cancel_stay(
                        reservation.pk, actor=actor, refund=amount if amount is not None else reservation.amount_paid - reservation.amount_refunded,
                        reason=form.cleaned_data["reason"],
                    )
                else:
                    reservation = payment_services.refund_payment(
                        reservation.pk, actor=actor, amount=form.cleaned_data["amount"], reason=form.cleaned_data["reason"],
                        cancel=form.cleaned_data["cancel_reservation"],
                    )
            except BookingError as error:
                self.message_user(request, f"{reservation.pk}: {error.detail}", messages.ERROR)
            else:
                self.message_user(request, f"{reservation.pk}: refunded so far {reservation.amount_refunded} {reservation.currency}.", messages.SUCCESS)
                return None
        context = {
            **self.admin_site.each_context(request),
            "title": "Refund a payment",
            "opts": self.model._meta,
            "reservation": reservation,
            "refundable": reservation.amount_paid - reservation.amount_refunded,
            "form": form,
            "action": "refund_selected",
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
        }
        return TemplateResponse(request, "payments/admin_refund.html", context)

    def get_urls(self):
        return [path("calendar/", self.admin_site.admin_view(self.calendar_view), name="booking_reservation_calendar"), *super().get_urls()]

    def calendar_view(self, request):
        """Month by month: holds, confirmed stays and blocks, so staff see the calendar at a glance."""
        today = timezone.localdate()
        try:
            year, month = int(request.GET.get("year", today.year)), int(request.GET.get("month", today.month))
            first = date(year, month, 1)
        except ValueError:
            first = today.replace(day=1)
        last = date(first.year, first.month, pycalendar.monthrange(first.year, first.month)[1])
        stays = Reservation.objects.filter(Q(status=Reservation.Status.CONFIRMED) | Q(status=Reservation.Status.HELD, hold_expires_at__gt=timezone.now()), check_in__lte=last, check_out__gt=first)
        blocks = DateBlock.objects.filter(start__lte=last, end__gt=first)
        weeks = []
        for week in pycalendar.Calendar().monthdatescalendar(first.year, first.month):
            row = []
            for day in week:
                entries = [
                    {"label": f"{r.guest_name or r.pk[:12]} ({r.status})", "kind": r.status, "url": reverse("admin:booking_reservation_change", args=[quote(r.pk)])}
                    for r in stays if r.check_in <= day < r.check_out
                ] + [
                    {"label": f"{b.get_source_display()}: {b.reason or 'blocked'}", "kind": "block", "url": reverse("admin:booking_dateblock_change", args=[b.pk])}
                    for b in blocks if b.start <= day < b.end
                ]
                row.append({"date": day, "in_month": day.month == first.month, "entries": entries})
            weeks.append(row)
        previous = (first - timedelta(days=1)).replace(day=1)
        following = last + timedelta(days=1)
        context = {
            **self.admin_site.each_context(request),
            "title": f"Calendar — {first:%B %Y}",
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
                raise forms.ValidationError("The block must end after it starts.")
            clash = blocking_reservations(get_property(), start, end).first()
            if clash is not None:
                raise forms.ValidationError(f"Reservation {clash.pk} ({clash.status}) takes some of these nights; cancel it first.")
        return cleaned


@admin.register(DateBlock)
class DateBlockAdmin(admin.ModelAdmin):
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
