"""The holds this browser made: a signed cookie, so a guest who closed the payment tab finds their
own dates on /book ("held until 14:32: continue to payment / release them") instead of "already
booked". Only the site's own booking page sets it (same-origin); agents never get one.

The cookie holds reservation ids only; its signature means no other browser can claim a hold by
forging it. Whether a remembered hold is still live is asked of the database every time."""

from django.conf import settings

from booking.payments.services.checkouts import PROVIDER_MIN_CHECKOUT_MINUTES

COOKIE = "own_holds"
SALT = "booking.api.own_holds"
# A hold can last at most HOLD_MINUTES plus one provider minimum (services.payments.hold_ceiling).
MAX_AGE_SECONDS = (settings.HOLD_MINUTES + PROVIDER_MIN_CHECKOUT_MINUTES) * 60
# A few at most: a guest trying several stays in turn.
KEPT = 5


def remembered(request) -> list[str]:
    """The reservation ids this browser held (newest last); [] for a missing, forged or old cookie."""
    value = request.get_signed_cookie(COOKIE, default="", salt=SALT, max_age=MAX_AGE_SECONDS)
    return [part for part in value.split(",") if part][-KEPT:]


def remember(request, response, reservation_id: str) -> None:
    """Add a hold just made by this browser to its cookie."""
    ids = [rid for rid in remembered(request) if rid != reservation_id] + [reservation_id]
    keep(response, ids[-KEPT:])


def keep(response, ids: list[str]) -> None:
    """Write the cookie with exactly these ids (none: delete it)."""
    if not ids:
        response.delete_cookie(COOKIE, samesite="Lax")
        return
    response.set_signed_cookie(
        COOKIE,
        ",".join(ids),
        salt=SALT,
        max_age=MAX_AGE_SECONDS,
        httponly=True,
        samesite="Lax",
        secure=settings.SESSION_COOKIE_SECURE,
    )
