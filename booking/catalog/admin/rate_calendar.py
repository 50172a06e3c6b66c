"""The rate calendar screen: a month of nights with each one's price, minimum stay and what takes
it; staff choose nights and set a price, a minimum stay or a block. Writes go through the services
every other interface uses (rates.set_night_rates, blocks.block_dates)."""

from datetime import date, timedelta
from decimal import Decimal

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpResponseRedirect
from django.template.response import TemplateResponse
from django.utils import timezone
from django.utils.dates import WEEKDAYS_ABBR
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from booking.admin_display import with_currency
from booking.catalog.selectors import get_property
from booking.catalog.services import rates as rate_services
from booking.errors import BookingError, InvalidInput
from booking.reservations.rate_calendar import rate_month
from booking.reservations.services import blocks as block_services


def rate_calendar_view(model_admin, request):
    """A month of nights: each one's price, minimum stay and what takes it; choose nights (click
    the first, then the last) and set a price, a minimum stay or a block over them. Writing goes
    through the services every other interface uses (rates.set_night_rates, blocks.block_dates)."""
    user = request.user
    if not (user.has_perm("catalog.view_property") or user.has_perm("reservations.view_reservation")):
        raise PermissionDenied
    prop = get_property()
    first = month_from_query(request.GET.get("month"))
    form = RateCalendarForm(request.POST or None)
    if request.method == "POST":
        if not user.has_perm(RateCalendarForm.PERMISSIONS.get(request.POST.get("what"), "catalog.change_property")):
            raise PermissionDenied
        if form.is_valid():
            try:
                message = form.apply(actor=f"staff {user.get_username()}")
            except InvalidInput as error:  # the services name their fields; these are the form's
                for problem in error.problems:
                    form.add_error(RateCalendarForm.FIELDS.get(problem.field), problem.msg)
            except BookingError as error:
                form.add_error(None, error.detail)
            else:
                model_admin.message_user(request, message, messages.SUCCESS)
                return HttpResponseRedirect(f"{request.path}?month={form.cleaned_data['first_night']:%Y-%m}")
    context = {
        **model_admin.admin_site.each_context(request),
        "title": _("Rates and availability — %(month)s") % {"month": date_format(first, "F Y")},
        "opts": model_admin.model._meta,
        "month": rate_month(prop, first),
        "form": form,
        "can_set_rates": user.has_perm("catalog.change_property"),
        "can_block": user.has_perm("reservations.add_dateblock"),
        "today": timezone.localdate(),
        "weekdays": [WEEKDAYS_ABBR[day] for day in range(7)],  # Django's own names, in the reader's language
    }
    return TemplateResponse(request, "admin/catalog/rate_calendar.html", context)


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
        "price": "catalog.change_property",
        "min_nights": "catalog.change_property",
        "clear": "catalog.change_property",
        "block": "reservations.add_dateblock",
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

    # The services' fields (rates.set_night_rates, blocks.block_dates) → this form's.
    FIELDS = {("end",): "last_night", ("nightly_rate",): "nightly_rate", ("min_nights",): "min_nights"}

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
        # Said here in the back office's language: the service's `what` is the API's English.
        nights = ngettext("%(count)d night", "%(count)d nights", change.nights) % {"count": change.nights}
        if data["what"] == "price":
            what = _("price %(price)s a night") % {"price": with_currency(data["nightly_rate"], get_property().currency)}
        elif data["what"] == "min_nights":
            shortest = ngettext("%(count)d night", "%(count)d nights", data["min_nights"]) % {"count": data["min_nights"]}
            what = _("minimum stay %(nights)s") % {"nights": shortest}
        else:
            what = _("back to the seasons and base rates")
        return _("%(span)s (%(nights)s): %(what)s.") % {"span": span, "nights": nights, "what": what}
