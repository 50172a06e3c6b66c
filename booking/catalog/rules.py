"""Builds the pricing engine's frozen rules from the owner's admin data, once per rules version.

Every pricing model bumps `Property.rules_version` when saved or deleted (booking/catalog/signals.py). A
process keeps the rules it built keyed by that version, so a hot request reads one property row
and no pricing tables, and an edit in the admin reaches every web process and worker at once.
"""

import threading
from decimal import Decimal

from django.conf import settings

from booking.catalog import pricing
from booking.catalog.models import Extra, PromoCode, Property

_cache: dict[int, tuple[int, pricing.PricingRules]] = {}
_lock = threading.Lock()


def rules_for_version(property_id: int, version: int) -> pricing.PricingRules:
    """The rules of a property at a version, built from the database only on a miss."""
    cached = _cache.get(property_id)
    if cached is not None and cached[0] == version:
        return cached[1]
    return rules_for(Property.objects.get(pk=property_id))


def rules_for(prop: Property) -> pricing.PricingRules:
    cached = _cache.get(prop.pk)
    if cached is not None and cached[0] == prop.rules_version:
        return cached[1]
    rules = build_rules(prop)
    with _lock:
        _cache[prop.pk] = (prop.rules_version, rules)
    return rules


def build_rules(prop: Property) -> pricing.PricingRules:
    return pricing.PricingRules(
        currency=prop.currency,
        base_nightly_rate=prop.base_nightly_rate,
        weekend_nightly_rate=prop.weekend_nightly_rate,
        min_nights=prop.min_nights,
        max_nights=prop.max_nights,
        arrival_day_min_nights={m.weekday: m.min_nights for m in prop.arrival_day_minimums.all()},
        closed_to_arrival=frozenset(prop.closed_to_arrival or ()),
        closed_to_departure=frozenset(prop.closed_to_departure or ()),
        max_guests=prop.max_guests,
        base_occupancy=prop.base_occupancy,
        extra_guest_fee=prop.extra_guest_fee,
        cleaning_fee=prop.cleaning_fee,
        # English, whichever language built the cache: the API is language-neutral (booking/catalog/breakdown_words.py translates for display).
        cleaning_fee_label=prop.cleaning_fee_label_en or prop.cleaning_fee_label,
        city_tax_per_person_night=prop.city_tax_per_person_night,
        city_tax_max_nights=prop.city_tax_max_nights,
        city_tax_exempt_under_age=prop.city_tax_exempt_under_age,
        booking_window_days=prop.booking_window_days,
        seasons=tuple(
            pricing.Season(
                name=s.name_en or s.name,  # type: ignore[attr-defined]  # English whichever language built the cache (rate_calendar translates)
                start=s.start_date,
                end=s.end_date,
                nightly_rate=s.nightly_rate,
                weekend_nightly_rate=s.weekend_nightly_rate,
                min_nights=s.min_nights,
                priority=s.priority,
                recurring=s.recurring,
            )
            for s in prop.seasons.all()
        ),
        discounts=tuple(pricing.LengthOfStayDiscount(label=d.label_en or d.label, min_nights=d.min_nights, percent=d.percent) for d in prop.discounts.all()),
        cancellation_tiers=tuple(pricing.RefundTier(t.days_before_arrival, Decimal(t.refund_percent)) for t in prop.cancellation_tiers.all()),
        deposit_percent=Decimal(prop.deposit_percent),
        balance_due_days=prop.balance_due_days,
        security_deposit=prop.security_deposit,
        night_rules={r.night: pricing.NightRule(rate=r.nightly_rate, min_nights=r.min_nights) for r in prop.night_rates.all()},
        display_currencies={c.code: c.rate for c in prop.display_currencies.all() if c.enabled} | {prop.currency: Decimal("1")},
        early_bird=pricing.DaysAheadDiscount(prop.early_bird_days, prop.early_bird_percent) if prop.early_bird_days is not None else None,
        last_minute=pricing.DaysAheadDiscount(prop.last_minute_days, prop.last_minute_percent) if prop.last_minute_days is not None else None,
        gap_nights=pricing.GapNights(prop.gap_nights_percent) if prop.gap_nights else None,
        stack_discounts=prop.stack_discounts,
        extras=tuple(extra_rule(extra) for extra in prop.extras.filter(active=True)),
    )


def extra_rule(extra: Extra) -> pricing.Extra:
    """An extra with its name in every language that has one (English: the fallback)."""
    names = {code: getattr(extra, f"name_{code}", None) for code, _ in settings.LANGUAGES}
    return pricing.Extra(
        code=extra.code,
        names={code: name for code, name in names.items() if name} | {"en": extra.name_en or extra.name},
        price=extra.price,
        per=pricing.ExtraPer(extra.per),
        max_quantity=extra.max_quantity,
        notice_days=extra.notice_days,
    )


def promo_rule(code: PromoCode) -> pricing.PromoCode:
    return pricing.PromoCode(
        code=code.code,
        percent=code.percent,
        amount=code.amount,
        bookable_from=code.bookable_from,
        bookable_until=code.bookable_until,
        stay_from=code.stay_from,
        stay_until=code.stay_until,
        min_nights=code.min_nights,
        active=code.active,
    )


def longest_stay_known(default: int = 30) -> int:
    """The longest stay the rules this process has built allow (the model's default before any):
    how far past its window a calendar reads the taken ranges at first. A hint only: a calendar
    whose rules allow longer stays reads the rest again (services/stays.py)."""
    return max((rules.max_nights for _, rules in list(_cache.values())), default=default)


def clear_cache() -> None:
    with _lock:
        _cache.clear()
