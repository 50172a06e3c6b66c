"""What a stay's open flags say, in English: the tests' reading of "needs attention" (the back
office renders the flags in the reader's language; see booking/reservations/attention.py)."""

from django.utils.translation import override

from booking.reservations.attention import attention_note
from booking.reservations.models import Reservation


def attention(reservation: Reservation) -> str:
    """The open flags' sentences in English, oldest first ("" when none is open), read afresh."""
    with override("en"):
        return attention_note(Reservation.objects.get(pk=reservation.pk))
