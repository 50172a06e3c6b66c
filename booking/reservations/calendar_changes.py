"""What can be sold, or its price, changed on some nights: tell whoever listens (a channel manager).

The booking core does not know who listens; partner_sync registers a listener in its AppConfig
(as with `before_every_hold`). Listeners run inside the transaction that made the change, so what
they record commits or rolls back with it. They are told of:

- availability: a reservation created, or its status or dates changed (a hold, its release or
  expiry, a payment, a cancellation, a date change), a block added, moved or removed (staff or a
  partner's iCal import);
- prices and rules: an edit of the property, its seasons, rate calendar, minimum stays, discounts,
  extras or promo codes.

With no listener registered nothing at all is done, and a listener decides for itself whether it is on.
"""

from collections.abc import Callable
from datetime import date, timedelta

from django.db.models.signals import post_delete, post_init, post_save

from booking.catalog.models import ArrivalDayMinimum, Extra, LengthOfStayDiscount, NightRate, PromoCode, Property, Season
from booking.reservations.models import DateBlock, Reservation

# (kind, property id, first night, end night exclusive); kind is "availability" or "rates";
# end None: every night from `start` on (a rule edit).
Listener = Callable[[str, int, date | None, date | None], None]
_listeners: list[tuple[Listener, Callable[[], bool]]] = []

AVAILABILITY = "availability"
RATES = "rates"


def on_nights_changed(listener: Listener, *, enabled: Callable[[], bool] = lambda: True) -> None:
    """Register `listener`; `enabled` says, cheaply and without a query, whether it wants to hear now
    (a channel manager that is off costs the booking core nothing, not even a query)."""
    if all(known is not listener for known, _ in _listeners):
        _listeners.append((listener, enabled))


def _listening() -> bool:
    return any(enabled() for _, enabled in _listeners)


def nights_changed(kind: str, property_id: int, start: date | None, end: date | None) -> None:
    for listener, enabled in _listeners:
        if enabled():
            listener(kind, property_id, start, end)


def _remember_dates(sender, instance: Reservation, **kwargs) -> None:
    # Read from __dict__: a deferred field must not cost a query per row loaded.
    values = instance.__dict__
    instance._calendar_was = (values.get("check_in"), values.get("check_out"), values.get("status"))  # type: ignore[attr-defined]


def _reservation_saved(sender, instance: Reservation, created: bool, raw: bool = False, **kwargs) -> None:
    if raw or not _listening():
        return
    was_in, was_out, was_status = getattr(instance, "_calendar_was", (None, None, None))
    values = instance.__dict__
    now_in, now_out, now_status = values.get("check_in"), values.get("check_out"), values.get("status")
    if not created and (was_in, was_out, was_status) == (now_in, now_out, now_status) and None not in (now_in, now_out):
        return
    for start, end in {(was_in, was_out), (now_in, now_out)}:
        if start is not None and end is not None:
            nights_changed(AVAILABILITY, instance.property_id, start, end)
        elif start is None and end is None and not created:
            # Loaded with only some fields (e.g. `.only("status")`): its dates are read once.
            dates = Reservation.objects.filter(pk=instance.pk).values_list("check_in", "check_out").first()
            if dates:
                nights_changed(AVAILABILITY, instance.property_id, *dates)
    instance._calendar_was = (now_in, now_out, now_status)  # type: ignore[attr-defined]


def _reservation_deleted(sender, instance: Reservation, **kwargs) -> None:
    if _listening():
        nights_changed(AVAILABILITY, instance.property_id, instance.check_in, instance.check_out)


def _block_changed(sender, instance: DateBlock, raw: bool = False, **kwargs) -> None:
    if raw or not _listening():
        return
    # A moved block frees its old nights too: every night of both ranges is sent again.
    was = getattr(instance, "_calendar_was", None)
    if was and None not in was and was != (instance.start, instance.end):
        nights_changed(AVAILABILITY, instance.property_id, *was)
    nights_changed(AVAILABILITY, instance.property_id, instance.start, instance.end)


def _remember_block(sender, instance: DateBlock, **kwargs) -> None:
    instance._calendar_was = (instance.__dict__.get("start"), instance.__dict__.get("end"))  # type: ignore[attr-defined]


def _rule_changed(sender, instance, raw: bool = False, **kwargs) -> None:
    if raw or not _listening():
        return
    if isinstance(instance, NightRate):
        nights_changed(RATES, instance.property_id, instance.night, instance.night + timedelta(days=1))
    elif isinstance(instance, Property):
        nights_changed(RATES, instance.pk, None, None)
    else:
        nights_changed(RATES, instance.property_id, None, None)


def connect() -> None:
    post_init.connect(_remember_dates, sender=Reservation, dispatch_uid="calendar_changes_reservation_init")
    post_save.connect(_reservation_saved, sender=Reservation, dispatch_uid="calendar_changes_reservation_saved")
    post_delete.connect(_reservation_deleted, sender=Reservation, dispatch_uid="calendar_changes_reservation_deleted")
    post_init.connect(_remember_block, sender=DateBlock, dispatch_uid="calendar_changes_block_init")
    post_save.connect(_block_changed, sender=DateBlock, dispatch_uid="calendar_changes_block_saved")
    post_delete.connect(_block_changed, sender=DateBlock, dispatch_uid="calendar_changes_block_deleted")
    for model in (Property, Season, NightRate, ArrivalDayMinimum, LengthOfStayDiscount, Extra, PromoCode):
        post_save.connect(_rule_changed, sender=model, dispatch_uid=f"calendar_changes_{model.__name__}_saved")
        post_delete.connect(_rule_changed, sender=model, dispatch_uid=f"calendar_changes_{model.__name__}_deleted")
