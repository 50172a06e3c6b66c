"""Back-office links from before the apps split (/admin/booking/reservation/…, in emails already
sent and in bookmarks) lead to the same screen under its app's new label."""

from django.apps import apps
from django.http import Http404, HttpResponsePermanentRedirect
from django.urls import NoReverseMatch, reverse

MOVED_TO = ("catalog", "reservations", "payments", "outbox")


def moved_admin_page(request, model: str, rest: str = ""):
    for label in MOVED_TO:
        try:
            apps.get_model(label, model)
        except LookupError:
            continue
        try:
            target = reverse("admin:app_list", args=[label]) + f"{model}/{rest}"
        except NoReverseMatch:  # an app with no screen in the back office
            break
        query = request.META.get("QUERY_STRING")
        return HttpResponsePermanentRedirect(f"{target}?{query}" if query else target)
    raise Http404("No such back-office page.")
