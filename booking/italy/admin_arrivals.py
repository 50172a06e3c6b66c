"""The back office's arrivals screen and the staff's party form (docs/italy.md, "Arrivals and
identity"). Thin views over booking/italy/identity.py (who arrives, who is verified, one click per
guest or one for the party), booking/italy/checkin.py (the one validation of a party: the staff's
form meets the guest's rules and 422 names) and booking/italy/channel_checkin.py (the link)."""

from datetime import timedelta

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.debug import sensitive_post_parameters

from booking.errors import BookingError, InvalidInput
from booking.ids import is_reservation_id
from booking.italy import calendar_stays, channel_checkin, checkin, identity
from booking.italy.countries import country_choices
from booking.italy.models import Arrival, Guest, VerificationMethod
from booking.italy.party_form import payload_from_form
from booking.reservations.models import DateBlock, Reservation

VERIFY = "italy.verify_guest_identity"


def _stay(reservation_id: str) -> Reservation:
    if not is_reservation_id(reservation_id):
        raise Http404
    return get_object_or_404(Reservation.objects.select_related("property"), pk=reservation_id)


def _who(request) -> str:
    return request.user.get_username()


@admin.register(Arrival)
class ArrivalAdmin(admin.ModelAdmin):
    """Not a list of rows: the changelist is the arrivals screen of today and tomorrow."""

    def has_module_permission(self, request):
        return request.user.has_perm("italy.view_checkin")

    def has_view_permission(self, request, obj=None):
        return request.user.has_perm("italy.view_checkin")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def get_urls(self):
        view = self.admin_site.admin_view
        return [
            path("", view(self.arrivals_view), name="italy_arrival_changelist"),
            path("<str:reservation_id>/verify/", view(self.verify_view), name="italy_arrival_verify"),
            path("<str:reservation_id>/party/", view(sensitive_post_parameters("g0-document_number")(self.party_view)), name="italy_arrival_party"),
            path("<str:reservation_id>/send-link/", view(self.send_link_view), name="italy_arrival_send_link"),
            path("calendar/<int:block_id>/", view(self.calendar_stay_view), name="italy_arrival_calendar_stay"),
        ]

    def arrivals_view(self, request):
        if not self.has_view_permission(request):
            raise PermissionDenied
        today = timezone.localdate()
        rows = identity.arrivals(today, today + timedelta(days=1))
        context = {
            **self.admin_site.each_context(request),
            "title": _("Arrivals today and tomorrow"),
            "opts": self.model._meta,
            "today": today,
            "tomorrow": today + timedelta(days=1),
            "days": [(today, _("Today")), (today + timedelta(days=1), _("Tomorrow"))],
            "rows": rows,
            "calendar_stays": calendar_stays.calendar_only_arrivals(today, today + timedelta(days=1)),
            "methods": VerificationMethod.choices,
            "can_verify": request.user.has_perm(VERIFY),
        }
        return TemplateResponse(request, "admin/italy/arrivals.html", context)

    def verify_view(self, request, reservation_id: str):
        """POST method=in_person|video, and guest=<position> (one guest) or none (the whole party)."""
        if request.method != "POST":
            return HttpResponseRedirect(reverse("admin:italy_arrival_changelist"))
        if not request.user.has_perm(VERIFY):
            raise PermissionDenied
        stay = _stay(reservation_id)
        method, guest = request.POST.get("method", ""), request.POST.get("guest", "")
        if method not in VerificationMethod.values or (guest and not guest.isdigit()):
            messages.error(request, _("Choose in person or live video."))
            return HttpResponseRedirect(reverse("admin:italy_arrival_changelist"))
        try:
            marked = identity.verify(stay.pk, method=method, by=_who(request), positions=[int(guest)] if guest else None)
        except identity.NothingToVerify:
            messages.error(request, _("No guest to verify: enter the party first."))
        else:
            messages.success(request, _("%(count)d guest(s) verified.") % {"count": marked})
        return HttpResponseRedirect(reverse("admin:italy_arrival_changelist") + f"#stay-{stay.pk}")

    def send_link_view(self, request, reservation_id: str):
        if request.method != "POST":
            return HttpResponseRedirect(reverse("admin:italy_arrival_party", args=[reservation_id]))
        if not request.user.has_perm(VERIFY):
            raise PermissionDenied
        stay = _stay(reservation_id)
        if channel_checkin.send_check_in_link(stay):
            messages.success(request, _("The check-in link was emailed to %(email)s.") % {"email": stay.guest_email})
        else:
            messages.error(request, _("This stay has no guest email: print the link or enter the party here."))
        return HttpResponseRedirect(reverse("admin:italy_arrival_party", args=[stay.pk]))

    def calendar_stay_view(self, request, block_id: int):
        """POST guests=<n>, last_name: a calendar-only stay gets its party form."""
        if request.method != "POST":
            return HttpResponseRedirect(reverse("admin:italy_arrival_changelist"))
        if not request.user.has_perm(VERIFY):
            raise PermissionDenied
        block = get_object_or_404(DateBlock, pk=block_id, source=DateBlock.Source.PARTNER)
        guests = request.POST.get("guests", "")
        try:
            stay = calendar_stays.stay_for_block(block, guests=int(guests) if guests.isdigit() else 0, last_name=request.POST.get("last_name", ""))
        except ValueError:
            messages.error(request, _("Give the number of guests, from 1 to %(max)d.") % {"max": calendar_stays.MAX_GUESTS})
            return HttpResponseRedirect(reverse("admin:italy_arrival_changelist"))
        return HttpResponseRedirect(reverse("admin:italy_arrival_party", args=[stay.pk]))

    def party_view(self, request, reservation_id: str):
        """The party entered by staff: the guest's fields, through the guest's validation."""
        if not request.user.has_perm(VERIFY):
            raise PermissionDenied
        stay = _stay(reservation_id)
        existing = checkin.check_in_for(stay)
        context = {
            **self.admin_site.each_context(request),
            "title": _("The party of %(name)s, %(first)s – %(last)s")
            % {"name": stay.guest_name or stay.get_source_display(), "first": f"{stay.check_in:%d/%m/%Y}", "last": f"{stay.check_out:%d/%m/%Y}"},
            "opts": self.model._meta,
            "stay": stay,
            "open": checkin.check_in_open(stay),
            "check_in_url": channel_checkin.check_in_url(stay) if checkin.check_in_open(stay) else "",
            "party": existing.party if existing else "family",
            "countries": country_choices(),
            "sexes": Guest.Sex.choices,
            "document_types": Guest.DocumentType.choices,
            "errors": [],
        }
        status = 200
        if request.method == "POST":
            payload = payload_from_form(request.POST, stay.guests, existing)
            try:
                checkin.save_check_in(stay, payload, actor=f"staff ({_who(request)})")
            except InvalidInput as error:
                status, context["party"] = 422, payload.get("party")
                context["errors"] = [{"field": ".".join(str(p) for p in problem.field), "type": problem.type, "msg": problem.msg} for problem in error.problems]
                context["guests"] = _rows(stay, existing, payload, error)
            except BookingError as error:
                status = error.status
                context["errors"] = [{"field": "", "type": error.code, "msg": error.detail}]
            else:
                messages.success(request, _("The party is saved. Verify each guest's identity at arrival."))
                return HttpResponseRedirect(reverse("admin:italy_arrival_changelist") + f"#stay-{stay.pk}")
        context.setdefault("guests", _rows(stay, existing, None, None))
        return TemplateResponse(request, "admin/italy/arrival_party.html", context, status=status)


def _rows(stay: Reservation, existing, payload: dict | None, error: InvalidInput | None) -> list[dict]:
    """Each guest's fields as stored or as sent; the document number never echoed (masked when stored)."""
    stored = {g.position: checkin.present_guest(g) for g in existing.guests.all()} if existing else {}
    rows = []
    for index in range(stay.guests):
        values = dict(payload["guests"][index]) if payload else dict(stored.get(index, {}))
        document = values.pop("document", None) or {}
        saved = (stored.get(0, {}).get("document") or {}).get("number", "") if index == 0 else ""
        errors = {}
        for problem in error.problems if error else []:
            if problem.field[:2] == ("guests", index):
                errors["_".join(str(p) for p in problem.field[2:]) or "guest"] = problem
        values.pop("identity_verified", None)
        rows.append({"index": index, "values": {k: v or "" for k, v in values.items()}, "document": {**document, "number": saved}, "errors": errors})
    return rows
