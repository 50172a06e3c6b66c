"""The public pages that change only when the owner's content or rates do: remembered once
rendered, and cacheable by browsers and shared caches.

Remembered: a page rendered for everyone alike is kept in Django's `pages` cache (each web
process's memory) under every input it reads: its full path (with the query), the language, the
site language the browser prefers (the page may suggest it), today's date, and the property's
content version (`Property.rules_version`, bumped by every edit of the property, its rates and
content, and by the pages' own texts: booking/catalog/signals.py, pages/signals.py). A scheduled blog
article is published by the clock, not by a write: a page is kept no longer than until the next
one. Rendering costs 30–40 times the property endpoint; a remembered page, one query (the version).

Cache-Control: the page answers `public, max-age=PUBLIC_PAGE_MAX_AGE` (default 60 s) and, through
ConditionalGetMiddleware, an ETag of its body: a browser or a shared cache may keep the page for a
minute and afterwards revalidates it for a 304. A reload in the browser revalidates at once, so the
owner sees an edit as soon as it is saved.

Only a page that is the same for everyone (given its Accept-Language) can be shared or remembered.
If rendering touched the session (a flash message), put a CSRF token in the page or set a cookie,
it is personal: `private, no-cache`, and never remembered.
"""

import hashlib
from functools import wraps

from django.conf import settings
from django.core.cache import caches
from django.db import DatabaseError
from django.http import HttpResponse
from django.utils import timezone
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.translation import get_language

from booking.catalog.selectors import get_property_version, today
from booking.errors import NotFound
from pages.i18n import preferred_language
from pages.models import BlogPost

# Longest a remembered page is kept (its key changes with any edit anyway; this bounds the memory
# of pages nobody asks for again).
REMEMBERED_PAGE_SECONDS = 24 * 3600


def is_personal(request, response=None) -> bool:
    session = getattr(request, "session", None)
    # get_token() (a {% csrf_token %} in the page) sets CSRF_COOKIE_NEEDS_UPDATE.
    return bool(request.META.get("CSRF_COOKIE_NEEDS_UPDATE") or (session is not None and session.accessed) or (response is not None and response.cookies))


def page_key(request) -> str | None:
    """The key of the page this request asks for; None when it cannot be known (no property yet,
    the database unreachable): the view then answers as it would."""
    try:
        property_id, version = get_property_version()
    except (NotFound, DatabaseError):
        return None
    path = hashlib.md5(request.get_full_path().encode(), usedforsecurity=False).hexdigest()
    return f"page:{property_id}:{version}:{get_language()}:{preferred_language(request)}:{today().isoformat()}:{path}"


def seconds_to_keep() -> int:
    """Until the next scheduled article goes public (it changes the blog, its neighbours, the home page)."""
    now = timezone.now()
    upcoming = (
        BlogPost.objects.filter(status=BlogPost.Status.PUBLISHED, published_at__gt=now).order_by("published_at").values_list("published_at", flat=True).first()
    )
    if upcoming is None:
        return REMEMBERED_PAGE_SECONDS
    return max(0, min(REMEMBERED_PAGE_SECONDS, int((upcoming - now).total_seconds())))


def forget_pages() -> None:
    """Drop the remembered pages (tests: a rolled-back database reuses versions)."""
    caches["pages"].clear()


def public_page(view):
    @wraps(view)
    def wrapper(request, *args, **kwargs):
        key = page_key(request) if request.method in ("GET", "HEAD") else None
        remembered = caches["pages"].get(key) if key else None
        if remembered is not None:
            content, headers = remembered
            response = HttpResponse(content, headers=headers)
        else:
            response = view(request, *args, **kwargs)
            if request.method not in ("GET", "HEAD") or response.status_code != 200 or response.has_header("Cache-Control"):
                return response
            if key and not response.streaming and not is_personal(request, response) and (keep := seconds_to_keep()):
                caches["pages"].set(key, (response.content, dict(response.headers)), keep)
        # Every page may offer the language the browser prefers (pages/i18n.suggested_language), so a
        # shared cache must keep one copy per Accept-Language, on /it/ pages too.
        patch_vary_headers(response, ("Accept-Language",))
        if is_personal(request, response):
            patch_cache_control(response, private=True, no_cache=True)
        else:
            patch_cache_control(response, public=True, max_age=settings.PUBLIC_PAGE_MAX_AGE)
        return response

    return wrapper
