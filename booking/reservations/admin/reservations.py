"""The reservations screen: the list (filters, search by name or date, CSV export) and each
reservation's page. Staff edit only the guest's details, saved through
services.reservations.edit_by_staff, and resolve the stay's open flags (audit.resolve_flag); cancel, refund and the calendar are their own screens
(cancel.py, refund.py, calendar.py)."""

import csv
from datetime import date, datetime, timedelta
from decimal import Decimal

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.utils import quote, unquote
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.http import Http404, HttpResponse, HttpResponseRedirect
from django.urls import path, reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from booking.admin_display import country_name, language_name, local_time, with_currency
from booking.catalog.breakdown_words import read_breakdown
from booking.catalog.payment_state import PaymentState, reservation_payment_state
from booking.italy.collectors import collector_label
from booking.outbox.models import OutboundEmail
from booking.payments.admin.cancel import cancel_confirmation
from booking.payments.admin.change_dates import change_dates_view
from booking.payments.admin.owner_booking import may_book_for_guests, owner_booking_view, payment_link_panel, resend_payment_link_view
from booking.payments.admin.refund import refund_view
from booking.payments.models import ProviderRefund
from booking.payments.money_lines import stay_lines
from booking.payments.services import refunds
from booking.reservations import event_messages
from booking.reservations.admin.calendar import calendar_view
from booking.reservations.admin.money_panel import MoneyAndArrivalFields, day
from booking.reservations.attention import attention_note, flag_text, open_flags_prefetch
from booking.reservations.models import AttentionFlag, Reservation, ReservationEvent
from booking.reservations.rate_calendar import source_label
from booking.reservations.services import audit
from booking.reservations.services import reservations as reservation_services
from config.admin import GuardedModelAdmin


class ReservationEventInline(admin.TabularInline):
    model = ReservationEvent
    extra = 0
    can_delete = False
    # Each line in the back office's language (booking/reservations/event_messages.py): a row written before the
    # codes shows its English note as written.
    fields = readonly_fields = ["when", "what", "status_change", "by", "details"]

    @admin.display(description=gettext_lazy("when"))
    def when(self, obj):
        return local_time(obj.at)

    @admin.display(description=gettext_lazy("what happened"))
    def what(self, obj):
        return event_messages.action_label(obj.action)

    @admin.display(description=gettext_lazy("status"))
    def status_change(self, obj):
        before, after = status_label(obj.from_status), status_label(obj.to_status)
        return after if before in ("", after) else f"{before} → {after}"

    @admin.display(description=gettext_lazy("by whom"))
    def by(self, obj):
        return event_messages.actor_label(obj.actor)

    @admin.display(description=gettext_lazy("details"))
    def details(self, obj):
        return event_messages.describe(obj.message, obj.params or {}, obj.note)

    def has_add_permission(self, request, obj=None):
        return False


def status_label(status: str) -> str:
    try:
        return _(str(Reservation.Status(status).label))
    except ValueError:
        return status


class OutboundEmailInline(admin.TabularInline):
    """The emails this stay sent or still owes (retried while the mail server is down)."""

    model = OutboundEmail
    extra = 0
    can_delete = False
    fields = readonly_fields = ["kind_shown", "recipient", "status", "attempts", "next_attempt", "sent", "last_error"]
    verbose_name_plural = gettext_lazy("emails")

    @admin.display(description=OutboundEmail._meta.get_field("kind").verbose_name)
    def kind_shown(self, obj):
        return _(obj.get_kind_display())  # the kinds' labels stay English in the model (stored notes use them)

    @admin.display(description=gettext_lazy("next attempt"))
    def next_attempt(self, obj):
        return local_time(obj.next_attempt_at) if obj.status == OutboundEmail.Status.PENDING else "–"

    @admin.display(description=gettext_lazy("sent"))
    def sent(self, obj):
        return local_time(obj.sent_at)

    def has_add_permission(self, request, obj=None):
        return False


class ProviderRefundInline(admin.TabularInline):
    """Each refund asked of the payment provider for this stay, with the provider's refund id:
    the money trail staff can match against the provider's dashboard (booking/payments/services/refunds.py)."""

    model = ProviderRefund
    extra = 0
    can_delete = False
    fields = readonly_fields = ["asked_at", "kind_shown", "refunded_amount", "state", "provider_refund_id", "asked_by", "reason_shown", "failure"]
    verbose_name_plural = gettext_lazy("refunds asked of the provider")

    @admin.display(description=gettext_lazy("asked at"))
    def asked_at(self, obj):
        return local_time(obj.requested_at)

    @admin.display(description=gettext_lazy("amount"))
    def refunded_amount(self, obj):
        return with_currency(obj.amount, obj.currency)

    @admin.display(description=gettext_lazy("kind"))
    def kind_shown(self, obj):
        return str(event_messages.REFUND_KINDS.get(obj.kind, obj.kind))

    @admin.display(description=gettext_lazy("state"))
    def state(self, obj):
        return str(event_messages.REFUND_STATES.get(obj.status, obj.status))

    @admin.display(description=gettext_lazy("asked by"))
    def asked_by(self, obj):
        return event_messages.actor_label(obj.actor)

    @admin.display(description=gettext_lazy("reason"))
    def reason_shown(self, obj):
        # A fixed sentence (a date change's refund) in the reader's language; staff's words as written.
        return event_messages.describe("", {}, obj.reason) if obj.reason else ""

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
    "kept",  # money kept: paid − refunded, whatever the status (DESIGN "Money, second round")
    "currency",
    "city_tax",
    "created",
    "confirmed",
    "cancelled",
]


def csv_instant(moment: datetime | None) -> str:
    """ISO 8601 on the property's clock with its offset, to the second: 2027-02-12T14:32:05+01:00."""
    return timezone.localtime(moment).replace(microsecond=0).isoformat() if moment else ""


def csv_city_tax(reservation: Reservation) -> str:
    """The city tax owed for the stay: only for nights stayed, so none for a cancelled stay (the
    money it kept is in `kept`), nor for a hold that lapsed."""
    if reservation.status in (Reservation.Status.CANCELLED, Reservation.Status.EXPIRED):
        return "0.00"
    tax = (reservation.price_breakdown or {}).get("city_tax")
    return "" if tax in (None, "") else f"{Decimal(str(tax)):.2f}"


def parse_search_date(term: str) -> date | None:
    for pattern in ("%Y-%m-%d", "%d/%m/%Y", "%d.%m.%Y"):
        try:
            return datetime.strptime(term.strip(), pattern).date()
        except ValueError:
            continue
    return None


class ResolveFlagForm(forms.ModelForm):
    resolve = forms.BooleanField(required=False, label=gettext_lazy("resolved"))

    class Meta:
        model = AttentionFlag
        fields: list[str] = []


class AttentionFlagInline(admin.TabularInline):
    """The stay's open flags, each in the reader's language; staff tick "resolved" once they acted
    (saved by ReservationAdmin.save_related through audit.resolve_flag, with who did it)."""

    model = AttentionFlag
    form = ResolveFlagForm
    extra = 0
    can_delete = False
    verbose_name = gettext_lazy("needs attention")
    verbose_name_plural = gettext_lazy("needs attention")
    fields = ["raised", "why", "resolve"]
    readonly_fields = ["raised", "why"]

    def get_queryset(self, request):
        return super().get_queryset(request).filter(resolved_at__isnull=True)

    @admin.display(description=gettext_lazy("when"))
    def raised(self, obj):
        return local_time(obj.raised_at)

    @admin.display(description=gettext_lazy("why it needs attention"))
    def why(self, obj):
        return flag_text(obj)

    def has_add_permission(self, request, obj=None):
        return False

    # Whoever may change the reservation may resolve its flags (no permission of the flag's own).
    def has_view_permission(self, request, obj=None):
        return request.user.has_perm("reservations.view_reservation") or request.user.has_perm("reservations.change_reservation")

    def has_change_permission(self, request, obj=None):
        return request.user.has_perm("reservations.change_reservation")


class NeedsAttentionFilter(admin.SimpleListFilter):
    title = gettext_lazy("needs attention")
    parameter_name = "attention"

    def lookups(self, request, model_admin):
        return [("yes", _("Yes")), ("no", _("No"))]

    def queryset(self, request, queryset):
        flagged = Q(pk__in=AttentionFlag.objects.filter(resolved_at__isnull=True).values("reservation_id"))
        if self.value() == "yes":
            return queryset.filter(flagged)
        if self.value() == "no":
            return queryset.exclude(flagged)
        return queryset


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


@admin.register(Reservation)
class ReservationAdmin(MoneyAndArrivalFields, GuardedModelAdmin):
    # Fits a 1366 px screen beside the admin's menu: the guest (or the id of a hold without one)
    # links to the reservation; the full id, the creation time and the agent are on its page.
    list_display = ["guest_or_id", "state", "stay", "guests", "total_with_currency", "payment_state", "source_and_code"]
    list_display_links = ["guest_or_id"]
    list_filter = ["status", StayDatesFilter, "source", "agent_name", NeedsAttentionFilter]
    search_fields = [
        "id",
        "booking_number",
        "guest_first_name",
        "guest_last_name",
        "guest_email",
        "guest_phone",
        "agent_name",
        "checkout_session_id",
        "channel_code",
    ]
    search_help_text = gettext_lazy(
        "Name, email, phone, booking number (FLR-27-0042), reservation id, or a date (2027-03-14 or 14/03/2027): the stays over that night or leaving that day."
    )
    date_hierarchy = "check_in"
    inlines = [AttentionFlagInline, ReservationEventInline, ProviderRefundInline, OutboundEmailInline]
    actions = ["cancel_selected", "refund_selected", "export_csv"]

    class Media:
        css = {"all": ["admin_booking/reservations.css"]}

    readonly_fields = [
        "id",
        "number",
        "property",
        "status",
        "source",
        "channel_code",
        "channel_commission",
        "channel_payment_collect",
        "guest_country_shown",
        "city_tax_collector",
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
        "payment_state",
        "paid",
        "refunded",
        "payment_intent_id",
        "confirmed",
        "cancelled",
        "created",
        "updated",
        "refund_still_pending",
        "language_shown",
        "attention_shown",
        "arrival",
        "departure",
        "language_shown",
        "money_shown",
        "security_deposit_shown",
        "check_in_shown",
    ]
    fieldsets = [
        (
            gettext_lazy("Stay"),
            {"fields": ["number", "id", "status", "arrival", "departure", "guests", "hold_expires_until", "source", "city_tax_collector", "agent_name"]},
        ),
        # A booking from a listing platform, received through the channel manager (docs/channex.md).
        (
            gettext_lazy("Channel"),
            {"fields": ["channel_code", "channel_commission", "channel_payment_collect", "guest_country_shown"], "classes": ["collapse"]},
        ),
        (gettext_lazy("Guest"), {"fields": ["guest_first_name", "guest_last_name", "guest_email", "guest_phone", "special_requests", "language_shown"]}),
        (gettext_lazy("Internal note (staff only: never shown or sent to the guest)"), {"fields": ["staff_note"]}),
        (gettext_lazy("Price (frozen when the dates were held)"), {"fields": ["breakdown_table"]}),
        (
            gettext_lazy("Payment"),
            {"fields": ["payment_state", "money_shown", "refund_still_pending", "security_deposit_shown", "attention_shown"]},
        ),
        (gettext_lazy("Online check-in"), {"fields": ["check_in_shown"]}),
        (gettext_lazy("Times (the property's time zone)"), {"fields": ["created", "confirmed", "cancelled", "updated"]}),
        # What only matters when matching the provider's dashboard or an abuse report: below, folded.
        (
            gettext_lazy("Technical details"),
            {
                "fields": ["payment_provider", "checkout_session_id", "checkout_url", "checkout_open_until", "payment_intent_id", "client_ip"],
                "classes": ["collapse"],
            },
        ),
    ]

    def has_add_permission(self, request):
        return False  # holds are made through the booking services (site, API, agents)

    def has_delete_permission(self, request, obj=None):
        return False  # reservations are cancelled, never deleted: the audit trail stays

    def has_refund_permission(self, request, obj=None):
        return request.user.has_perm("reservations.refund_reservation")

    # --- How a reservation reads: money with its currency, times on the property's clock --------

    @admin.display(description=gettext_lazy("City tax collected by"))
    def city_tax_collector(self, obj):
        return collector_label(obj.city_tax_collected_by)  # the host, or the platform that collects it (docs/italy.md)

    @admin.display(description=gettext_lazy("source"), ordering="source")
    def source_and_code(self, obj):
        """Where the stay was booked; a platform's own reservation code beside its name."""
        return f"{obj.get_source_display()} {obj.channel_code}".strip()

    @admin.display(description=gettext_lazy("guest"), ordering="guest_last_name")
    def guest_or_id(self, obj):
        # The booking number under the name, not a column of its own: the list fits a laptop's screen.
        name = obj.guest_name or (obj.pk[:10] + "…" if len(obj.pk) > 11 else obj.pk)
        if not obj.booking_number:
            return name
        return format_html('{}<br><span class="booking-number">{}</span>', name, obj.booking_number)

    @admin.display(description=gettext_lazy("booking number"), ordering="booking_number")
    def number(self, obj):
        return obj.booking_number or "—"

    @admin.display(description=gettext_lazy("status"), ordering="status")
    def state(self, obj):
        note = attention_note(obj)
        if note:
            return format_html('{} <strong class="needs-attention" title="{}">· {}</strong>', obj.get_status_display(), note, _("needs attention"))
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
        """The payment state the API and the dashboard show (booking/payments/state.py), in the
        reader's language; a refund names its amount ("partially refunded 200.00 EUR")."""
        state = reservation_payment_state(obj)
        if state in (PaymentState.REFUNDED, PaymentState.PARTIALLY_REFUNDED):
            return format_html('<span class="payment-{}">{} {}</span>', state.value, state.label, with_currency(obj.amount_refunded, obj.currency))
        return format_html('<span class="payment-{}">{}</span>', state.value, state.label)

    @admin.display(description=gettext_lazy("paid"))
    def paid(self, obj):
        return with_currency(obj.amount_paid, obj.currency)

    @admin.display(description=gettext_lazy("refunded"))
    def refunded(self, obj):
        return with_currency(obj.amount_refunded, obj.currency)

    @admin.display(description=gettext_lazy("guest country"))
    def guest_country_shown(self, obj):
        return country_name(obj.guest_country) if obj.guest_country else "–"

    @admin.display(description=gettext_lazy("language"))
    def language_shown(self, obj):
        return language_name(obj.language)  # the guest's emails' language, by its name

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

    @admin.display(description=gettext_lazy("why it needs attention"))
    def attention_shown(self, obj):
        # The open flags in the reader's language; staff resolve them in "needs attention" below.
        return attention_note(obj) or "–"

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related(open_flags_prefetch())

    @admin.display(description=gettext_lazy("needs attention"), boolean=True)
    def attention(self, obj):
        return bool(attention_note(obj))

    @admin.display(description=gettext_lazy("Price breakdown"))
    def breakdown_table(self, obj):
        b = read_breakdown(obj.price_breakdown or {}, obj.property)  # its labels in the admin's language
        currency = b.get("currency") or obj.currency
        # Each night as priced (a dated line), then the stay's lines as the guest paid from them:
        # extras included, summing to the total.
        rows = [
            (day(date.fromisoformat(n["date"])), source_label(n["source"]), with_currency(Decimal(str(n["amount"])), currency))
            for n in b.get("nightly_rates", [])
            if n.get("amount") not in (None, "")
        ]
        rows += [(line.label, "", with_currency(line.amount, currency)) for line in stay_lines(obj)]
        rows.append((format_html("<strong>{}</strong>", _("Total")), "", format_html("<strong>{}</strong>", with_currency(obj.total, obj.currency))))
        return format_html("<table>{}</table>", format_html_join("", "<tr><td>{}</td><td>{}</td><td style='text-align:right'>{}</td></tr>", rows))

    def get_search_results(self, request, queryset, search_term):
        """Also by date: a term that reads as a date finds the stays over that night and those leaving that day."""
        results, may_have_duplicates = super().get_search_results(request, queryset, search_term)
        night = parse_search_date(search_term)
        if night is not None:
            results |= queryset.filter(Q(check_in__lte=night, check_out__gt=night) | Q(check_out=night))
        return results, may_have_duplicates

    def get_form(self, request, obj=None, change=False, **kwargs):
        form = super().get_form(request, obj, change, **kwargs)
        # The page carries the values it showed: "changed" then means changed by this person, not
        # different from what a payment wrote since the page was opened (which must stay).
        for field in form.base_fields.values():
            field.show_hidden_initial = True
        return form

    def save_model(self, request, obj, form, change):
        """Only the fields the form changed, through the service, under the reservation's lock: a
        payment confirmed while the form was open is never undone (obj.save() would write every
        column, status and amounts included, from the form's stale read)."""
        if change and form.changed_data:
            reservation_services.edit_by_staff(
                obj.pk, changes={name: form.cleaned_data[name] for name in form.changed_data}, actor=f"staff {request.user.get_username()}"
            )

    def save_related(self, request, form, formsets, change):
        # The inlines (history, emails) are read-only: nothing is written, only what the admin's
        # change message reads (new, changed and deleted objects: none) is filled in. A flag ticked
        # "resolved" is resolved through the service, with who did it.
        for formset in formsets:
            if formset.model is AttentionFlag:
                for flag_form in formset.forms:
                    if flag_form.cleaned_data.get("resolve") and flag_form.instance.pk:
                        audit.resolve_flag(flag_form.instance.pk, by=f"staff {request.user.get_username()}")
            formset.save(commit=False)

    # --- Acting: cancel and refund, each behind its permission and a confirmation page ----------

    def change_view(self, request, object_id, form_url="", extra_context=None):
        reservation = self.get_object(request, unquote(object_id))
        extra_context = dict(extra_context or {})
        if reservation is not None:
            extra_context["can_cancel"] = self.has_change_permission(request, reservation) and reservation.status in (
                Reservation.Status.HELD,
                Reservation.Status.CONFIRMED,
            )
            extra_context["can_change_dates"] = (
                self.has_change_permission(request, reservation) and reservation.status == Reservation.Status.CONFIRMED and not reservation.channel_booking_id
            )
            extra_context["can_refund"] = self.has_refund_permission(request) and refunds.refundable(reservation) > 0
            extra_context["payment_link"] = payment_link_panel(self, request, reservation)
        return super().change_view(request, object_id, form_url, extra_context)

    @admin.action(description=gettext_lazy("Cancel the selected reservations (with the refund the policy gives, or another)"), permissions=["change"])
    def cancel_selected(self, request, queryset):
        reservations = list(queryset.select_related("property"))
        return cancel_confirmation(self, request, reservations, from_list=True)

    def cancel_view(self, request, object_id):
        reservation = self.get_object(request, unquote(object_id))
        if reservation is None:
            raise Http404(_("No reservation with this id."))
        if not self.has_change_permission(request, reservation):
            raise PermissionDenied
        return cancel_confirmation(self, request, [reservation], from_list=False)

    @admin.action(description=gettext_lazy("Refund the payment of the selected reservation (full or partial)"), permissions=["refund"])
    def refund_selected(self, request, queryset):
        if queryset.count() != 1:
            self.message_user(request, _("Choose exactly one reservation to refund."), messages.WARNING)
            return None
        return HttpResponseRedirect(reverse("admin:reservations_reservation_refund", args=[quote(queryset.get().pk)]))

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
                    r.check_in.isoformat(),
                    r.check_out.isoformat(),
                    (r.check_out - r.check_in).days,
                    r.guests,
                    r.guest_name,
                    r.guest_email,
                    r.get_source_display(),
                    r.total,
                    r.amount_paid,
                    r.amount_refunded,
                    r.amount_paid - r.amount_refunded,
                    r.currency,
                    csv_city_tax(r),
                    csv_instant(r.created_at),
                    csv_instant(r.confirmed_at),
                    csv_instant(r.cancelled_at),
                ]
            )
        return response

    def get_urls(self):
        return [
            path("calendar/", self.admin_site.admin_view(self.calendar), name="reservations_reservation_calendar"),
            path("book-for-a-guest/", self.admin_site.admin_view(self.book_for_guest), name="reservations_reservation_book_for_guest"),
            path("<path:object_id>/cancel/", self.admin_site.admin_view(self.cancel_view), name="reservations_reservation_cancel"),
            path("<path:object_id>/refund/", self.admin_site.admin_view(self.refund), name="reservations_reservation_refund"),
            path("<path:object_id>/change-dates/", self.admin_site.admin_view(self.change_dates), name="reservations_reservation_change_dates"),
            path(
                "<path:object_id>/resend-payment-link/",
                self.admin_site.admin_view(self.resend_payment_link),
                name="reservations_reservation_resend_payment_link",
            ),
            *super().get_urls(),
        ]

    def calendar(self, request):
        return calendar_view(self, request)

    def book_for_guest(self, request):
        return owner_booking_view(self, request)

    def changelist_view(self, request, extra_context=None):
        extra_context = {**(extra_context or {}), "can_book_for_guests": may_book_for_guests(request.user)}
        return super().changelist_view(request, extra_context)

    def refund(self, request, object_id):
        return refund_view(self, request, object_id)

    def change_dates(self, request, object_id):
        return change_dates_view(self, request, object_id)

    def resend_payment_link(self, request, object_id):
        return resend_payment_link_view(self, request, unquote(object_id))
