"""The owner's payment link fills in the guest's details on the checkout.

`/pay/<id>` shows no personal data to whoever has the id (README "What a reservation id reveals"):
the id travels in agents' answers and browser histories. The link the owner sends for a booking
made for a guest (services/owner_bookings.py) adds `?guest=<token>`, a token signed with the site's
secret for that reservation only. With a valid token the checkout opens with the guest's name, email
and phone already filled in (the sandbox's page; Stripe is given the email, all it can prefill);
without one, or with one for another reservation or forged, it opens empty as before.
"""

from datetime import timedelta

from django.core import signing

from booking.reservations.models import Reservation

QUERY = "guest"
SALT = "booking.payments.guest_prefill"
# Longer than the longest owner hold (24 hours): past it the link leads nowhere anyway.
MAX_AGE = timedelta(hours=25)


def prefill_token(reservation_id: str) -> str:
    return signing.dumps(reservation_id, salt=SALT)


def token_opens(token: object, reservation_id: str) -> bool:
    """Whether `token` was signed here for this reservation and is not too old."""
    if not isinstance(token, str) or not token or len(token) > 200:
        return False
    try:
        return signing.loads(token, salt=SALT, max_age=MAX_AGE) == reservation_id
    except signing.BadSignature:  # forged, altered or expired (SignatureExpired is one)
        return False


def prefilled_payer(token: object, reservation: Reservation) -> dict[str, str]:
    """The checkout form's initial values for this reservation's guest, or {} without a valid token."""
    if not token_opens(token, reservation.pk):
        return {}
    return {"email": reservation.guest_email, "name": reservation.guest_name, "phone": reservation.guest_phone}
