"""Cache-Control for the public pages that change only when the owner's content or rates do.

The page answers `Cache-Control: public, max-age=PUBLIC_PAGE_MAX_AGE` (default 60 s) and, through
ConditionalGetMiddleware, an ETag of its body: a browser or a shared cache may keep the page for a
minute and afterwards revalidates it for a 304. A reload in the browser revalidates at once, so the
owner sees an edit as soon as it is saved.

Only a page that is the same for everyone (given its Accept-Language) can be shared. If rendering touched the session (a flash
message) or put a CSRF token in the page, it is personal: `private, no-cache` instead.
"""

from functools import wraps

from django.conf import settings
from django.utils.cache import patch_cache_control, patch_vary_headers


def is_personal(request) -> bool:
    session = getattr(request, "session", None)
    # get_token() (a {% csrf_token %} in the page) sets CSRF_COOKIE_NEEDS_UPDATE.
    return bool(request.META.get("CSRF_COOKIE_NEEDS_UPDATE") or (session is not None and session.accessed))


def public_page(view):
    @wraps(view)
    def wrapper(request, *args, **kwargs):
        response = view(request, *args, **kwargs)
        if request.method not in ("GET", "HEAD") or response.status_code != 200 or response.has_header("Cache-Control"):
            return response
        # Every page may offer the language the browser prefers (pages/i18n.suggested_language), so a
        # shared cache must keep one copy per Accept-Language, on /it/ pages too.
        patch_vary_headers(response, ("Accept-Language",))
        if is_personal(request):
            patch_cache_control(response, private=True, no_cache=True)
        else:
            patch_cache_control(response, public=True, max_age=settings.PUBLIC_PAGE_MAX_AGE)
        return response

    return wrapper
