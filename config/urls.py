from django.conf import settings
from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.urls import include, path, re_path
from drf_spectacular.renderers import OpenApiJsonRenderer2
from drf_spectacular.views import SpectacularJSONAPIView

from booking.admin.moved import moved_admin_page
from booking.admin.staff_members import PasswordSetView, SetPasswordView
from booking.api.errors import json_error
from booking.api.views import ApiIndexView
from pages.views import not_found


class OpenApiDocumentView(SpectacularJSONAPIView):
    """The OpenAPI document as plain application/json (the spec's "200 JSON")."""

    renderer_classes = [OpenApiJsonRenderer2]


urlpatterns = [
    # The link a new staff member is emailed (booking/staff_members.py): Django's password
    # reset confirmation, under the back office's path so it speaks the back office's language.
    path(settings.ADMIN_PATH + "set-password/<uidb64>/<token>/", SetPasswordView.as_view(), name="staff_set_password"),
    path(settings.ADMIN_PATH + "set-password/done/", PasswordSetView.as_view(), name="staff_password_set"),
    # Before the apps split every model sat under /admin/booking/: old links still arrive.
    re_path("^" + settings.ADMIN_PATH + r"booking/(?P<model>[a-z]+)/(?P<rest>.*)$", moved_admin_page),
    path(settings.ADMIN_PATH, admin.site.urls),
    path("api/v1", ApiIndexView.as_view(), name="api-index"),
    path("api/v1/", ApiIndexView.as_view()),
    path("api/v1/", include("booking.api.urls")),
    path("api/v1/payments/", include("booking.api.payment_urls")),
    path("api/v1/", include("partner_sync.urls")),
    path("partner/channex/", include("partner_sync.channex.urls")),
    path(".well-known/openapi.json", OpenApiDocumentView.as_view(), name="openapi"),
    path("api/openapi.json", OpenApiDocumentView.as_view(), name="openapi-api"),
    path("", include("discovery.urls")),
    path("", include("pages.file_urls")),
]
# The website in four languages: English unprefixed (the spec's paths), /it/, /de/, /fr/.
urlpatterns += i18n_patterns(path("", include("pages.urls")), prefix_default_language=False)


def handler404(request, exception=None):
    if request.path.startswith("/api/"):
        return json_error("Not found.", "not_found", 404)
    return not_found(request, exception)


def handler500(request):
    if request.path.startswith("/api/"):
        return json_error("An unexpected error occurred; it has been logged.", "internal_error", 500)
    from django.views.defaults import server_error

    return server_error(request)
