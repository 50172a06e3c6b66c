"""The calendar screen: month by month, the holds, confirmed stays and blocks, so staff see the
calendar at a glance. What takes a night is the selectors' one definition (blocking_reservations)."""

import calendar as pycalendar
from datetime import date, timedelta

from django.contrib.admin.utils import quote
from django.core.exceptions import PermissionDenied
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.dates import WEEKDAYS_ABBR
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from booking.catalog.selectors import get_property
from booking.reservations.models import DateBlock
from booking.reservations.selectors import blocking_reservations


def calendar_view(model_admin, request):
    """Month by month: holds, confirmed stays and blocks, so staff see the calendar at a glance."""
    if not model_admin.has_view_permission(request):
        raise PermissionDenied
    today = timezone.localdate()
    try:
        year, month = int(request.GET.get("year", today.year)), int(request.GET.get("month", today.month))
        first = date(year, month, 1)
    except ValueError:
        first = today.replace(day=1)
    last = date(first.year, first.month, pycalendar.monthrange(first.year, first.month)[1])
    stays = blocking_reservations(get_property(), first, last + timedelta(days=1))
    blocks = DateBlock.objects.filter(start__lte=last, end__gt=first)
    weeks = []
    for week in pycalendar.Calendar().monthdatescalendar(first.year, first.month):
        row = []
        for day in week:
            entries = [
                {
                    "label": f"{r.guest_name or r.pk[:12]} ({r.get_status_display()})",
                    "kind": r.status,
                    "url": reverse("admin:reservations_reservation_change", args=[quote(r.pk)]),
                }
                for r in stays
                if r.check_in <= day < r.check_out
            ] + [
                {
                    "label": f"{b.get_source_display()}: {b.reason or _('blocked')}",
                    "kind": "block",
                    "url": reverse("admin:reservations_dateblock_change", args=[b.pk]),
                }
                for b in blocks
                if b.start <= day < b.end
            ]
            row.append({"date": day, "in_month": day.month == first.month, "entries": entries})
        weeks.append(row)
    previous = (first - timedelta(days=1)).replace(day=1)
    following = last + timedelta(days=1)
    context = {
        **model_admin.admin_site.each_context(request),
        "title": _("Calendar — %(month)s") % {"month": date_format(first, "F Y")},
        "weekdays": [WEEKDAYS_ABBR[day] for day in range(7)],
        "weeks": weeks,
        "previous": previous,
        "following": following,
        "opts": model_admin.model._meta,
    }
    return TemplateResponse(request, "admin/reservations/calendar.html", context)
