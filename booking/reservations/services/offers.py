"""Promo codes and extras asked for by a guest or an agent, checked against the owner's offers.

Every interface reaches them through the stays and holds services, so an unknown, expired or
inapplicable code is the same 422 everywhere (type promo_code_invalid, naming the field promo_code
or extras.<index>.code/quantity; each interface says where it read it):
never a silent full price. A code's maximum uses count confirmed stays and unexpired holds; the
hold path asks again under the calendar lock (services/holds.py), so two guests cannot both take
a code's last use. A hold being changed (services/rehold.py: a UCP update) is never counted
against itself: its own use is the one it keeps (DESIGN "Reliability, fourth round").
"""

from collections.abc import Iterable, Mapping
from dataclasses import replace
from datetime import datetime
from typing import Any

from django.db.models import Q
from django.utils import timezone

from booking.catalog import pricing
from booking.catalog.models import PromoCode
from booking.catalog.rules import promo_rule
from booking.catalog.selectors import today
from booking.errors import InvalidInput
from booking.reservations.models import Reservation

PROMO_CODE_INVALID = "promo_code_invalid"
EXTRA_INVALID = "extra_invalid"


def promo_for(
    property_id: int,
    code: str | None,
    stay: pricing.Stay,
    *,
    now: datetime | None = None,
    any_window: bool = False,
    changing: str | None = None,
) -> tuple[pricing.PromoCode | None, int | None]:
    """The code as the engine reads it and its row's id, or (None, None) for no code; InvalidInput
    saying why when it cannot price this stay now. `any_window`: the stay windows are not checked
    (a search prices each stay found with the code only where it applies). `changing`: the
    reservation being changed, whose own use of the code is not counted."""
    code = (code or "").strip()
    if not code:
        return None, None

    def invalid(reason: str) -> InvalidInput:
        return InvalidInput.field("promo_code", reason, PROMO_CODE_INVALID)

    row = PromoCode.objects.filter(property_id=property_id, code__iexact=code).first()
    if row is None:
        raise invalid(f"Unknown promo code {code!r}.")
    rule = promo_rule(row)
    problem = pricing.promo_problem(replace(rule, stay_from=None, stay_until=None) if any_window else rule, stay, today())
    if problem:
        raise invalid(problem)
    if row.max_uses is not None and uses_of(row.pk, now or timezone.now(), excluding=changing) >= row.max_uses:
        raise invalid(f"The code {row.code} has been used up.")
    return rule, row.pk


def uses_of(promo_code_id: int, now: datetime, *, excluding: str | None = None) -> int:
    """Confirmed stays with the code, and holds with it that have not lapsed (they may be paid);
    never the reservation `excluding` (the one being changed)."""
    live = Q(status=Reservation.Status.CONFIRMED) | Q(status=Reservation.Status.HELD, hold_expires_at__gt=now)
    uses = Reservation.objects.filter(live, promo_code_id=promo_code_id)
    return (uses.exclude(pk=excluding) if excluding else uses).count()


def extras_for(rules: pricing.PricingRules, asked: Iterable[Mapping[str, Any]] | None, stay: pricing.Stay) -> tuple[pricing.ExtraChoice, ...]:
    """The extras asked for (validation.ExtrasField items), each checked against the owner's offer."""
    chosen = []
    for index, item in enumerate(asked or ()):
        choice = pricing.ExtraChoice(item["code"], item["quantity"])
        problem = pricing.extra_problem(rules, choice, stay, today())
        if problem:
            field = "code" if rules.extra(choice.code) is None else "quantity"
            raise InvalidInput.field(("extras", index, field), problem, EXTRA_INVALID)
        chosen.append(choice)
    return tuple(chosen)
