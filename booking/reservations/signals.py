"""What the reservations app listens to: a guest review is part of the property's page (its
version is bumped like a rate's), and nights whose availability or price changed are told to the
listeners (a channel manager)."""

from booking.catalog.signals import bump_on_every_edit
from booking.reservations import calendar_changes
from booking.reservations.models import Review

bump_on_every_edit(Review)
calendar_changes.connect()
