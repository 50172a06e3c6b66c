"""The owner's payment link fills in the guest's details on the checkout.

`/pay/<id>` shows no personal data to whoever has the id (README "What a reservation id reveals"):
the id travels in agents' answers and browser histories. The link the owner sends for a booking
made for a guest (services/owner_bookings.py) adds `?guest=<token>`, a token signed with the site's
secret for that reservation only. With a valid token the checkout opens with the guest's name, email
and phone already filled in (the sandbox's page; Stripe is given the email, all it can prefill);
without one, or with one for another reservation or forged, it opens empty as before.
"""

from django.core import signing
from django.utils.crypto import constant_time_compare

from booking.reservations.models import Reservation

QUERY = "guest"
SALT = "booking.payments.guest_prefill"


def prefill_token(reservation_id: str) -> str:
    """The same token every time for a reservation (the email sent again carries the same link);
    it needs no expiry of its own: the page prefills only while the hold lives and its checkout is open."""
    return signing.Signer(salt=SALT).signature(reservation_id)


def token_opens(token: object, reservation_id: str) -> bool:
    """Whether `token` was signed here for this reservation."""
    if not isinstance(token, str) or not token or len(token) > 100:
        return False
    return constant_time_compare(token, prefill_token(reservation_id))


def prefilled_payer(token: object, reservation: Reservation) -> dict[str, str]:
    """The checkout form's initial values for this reservation's guest, or {} without a valid token."""
    if not token_opens(token, reservation.pk):
        return {}
    return {"email": reservation.guest_email, "name": reservation.guest_name, "phone": reservation.guest_phone}
