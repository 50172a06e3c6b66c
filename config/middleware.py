"""The lean path for the stateless JSON API.

/api/v1/* has no sessions, no logged-in user, no flash messages and no forms: its views are CSRF
exempt and authenticate nobody (REST_FRAMEWORK settings). The site middleware that only serves
people (sessions, authentication, messages) is wrapped in SiteOnly and skipped for those paths:
one string test per layer instead of a session store and message storage on every API call. CSRF
stays Django's own middleware (the deploy checks look for it by name); the API's views are exempt,
so it does no work there. The language is set directly rather than parsed from the path, and the
CSP header, which never carries a nonce there, is built once per process (both below). The pages a
person sees under /api/ (the sandbox checkout, booking.api.middleware.PAGES_FOR_PEOPLE) keep the
full stack.
"""

import functools
from typing import cast

from csp import constants as csp_constants
from csp import middleware as csp
from csp import utils as csp_utils
from django.conf import settings
from django.contrib.auth import middleware as auth
from django.contrib.messages import middleware as messages
from django.contrib.sessions import middleware as sessions
from django.http.response import HttpResponseBase
from django.middleware import locale
from django.utils import translation

from booking.api.middleware import PAGES_FOR_PEOPLE

API_PREFIX = "/api/"


def is_stateless_api(path: str) -> bool:
    return path.startswith(API_PREFIX) and not path.startswith(PAGES_FOR_PEOPLE)


class SiteOnly:
    """Mixed into a Django middleware (still a subclass of it, as the admin's checks want): the
    middleware runs on every path but the stateless API."""

    def __call__(self, request):
        if is_stateless_api(request.path):
            return self.get_response(request)  # type: ignore[attr-defined]  # the middleware's
        return super().__call__(request)  # type: ignore[misc]  # the middleware this is mixed into


class SessionMiddleware(SiteOnly, sessions.SessionMiddleware):
    pass


class AuthenticationMiddleware(SiteOnly, auth.AuthenticationMiddleware):
    pass


class MessageMiddleware(SiteOnly, messages.MessageMiddleware):
    pass


class LocaleMiddleware(locale.LocaleMiddleware):
    """The API speaks the default language whatever the request says (its labels are the owner's
    English; the site's pages carry their language in the path): activated directly instead of
    parsing the path and the i18n URL patterns on every API call. A pool thread serves many
    requests, so the language is set on every one, never left from the last."""

    def __call__(self, request):
        if not is_stateless_api(request.path):
            return super().__call__(request)
        translation.activate(settings.LANGUAGE_CODE)
        request.LANGUAGE_CODE = settings.LANGUAGE_CODE
        response = cast(HttpResponseBase, self.get_response(request))  # a sync-only middleware
        response.headers.setdefault("Content-Language", settings.LANGUAGE_CODE)
        return response


class CSPMiddleware(csp.CSPMiddleware):
    """django-csp builds the header from the settings on every answer (about 0.1 ms, a third of the
    property endpoint's CPU). An API answer never uses a nonce or a per-view policy, so its header
    is built once per process and setting (default_policy)."""

    def process_response(self, request, response):
        if (
            not is_stateless_api(request.path)
            or getattr(request, "_csp_nonce", None) is not None
            or any(getattr(response, name, None) for name in PER_VIEW_POLICY)
        ):
            return super().process_response(request, response)
        if csp_constants.HEADER not in response and (policy := default_policy()):
            response[csp_constants.HEADER] = policy
        return response


# What a view's csp_update/csp_replace/csp_exempt decorators leave on its answer.
PER_VIEW_POLICY = ("_csp_config", "_csp_update", "_csp_replace", "_csp_exempt", "_csp_config_ro", "_csp_update_ro", "_csp_replace_ro", "_csp_exempt_ro")


def default_policy() -> str:
    """The header of settings.CONTENT_SECURITY_POLICY, built once per value of the setting (its text
    is the key: a test that changes the setting gets its own policy, and nothing has to forget one)."""
    return _policy_of(repr(settings.CONTENT_SECURITY_POLICY))


@functools.lru_cache(maxsize=8)
def _policy_of(setting: str) -> str:
    return csp_utils.build_policy()  # reads the setting `setting` is the text of
