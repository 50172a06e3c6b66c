"""The shapes of the API's successful answers, for the OpenAPI document. The bodies themselves are
built in booking/api/presenters.py; these serializers only describe them."""

from rest_framework import serializers as s


class NightlyRate(s.Serializer):
    date = s.DateField()
    rate = s.FloatField()
    extra_guest_fee = s.FloatField()
    amount = s.FloatField()
    source = s.CharField()  # type: ignore[assignment]  # the contract\'s field named "source", not DRF\'s Field.source


class DiscountLine(s.Serializer):
    label = s.CharField()  # type: ignore[assignment]  # the contract's field named "label", not DRF's Field.label
    percent = s.FloatField(allow_null=True, help_text="Null for a fixed-amount promo code.")
    amount = s.FloatField(help_text="Zero or negative.")
    code = s.CharField(allow_null=True, help_text="The promo code; null for an automatic discount.")


class ExtraLine(s.Serializer):
    code = s.CharField()
    label = s.CharField()  # type: ignore[assignment]  # the contract's field named "label", not DRF's Field.label
    quantity = s.IntegerField()
    amount = s.FloatField()


class ScheduleEntry(s.Serializer):
    type = s.ChoiceField(choices=["immediate", "deferred"], help_text="immediate: due at booking; deferred: charged on due_date to the saved card.")
    amount = s.FloatField()
    due_date = s.DateField(allow_null=True, help_text="Null for the immediate part.")

    class Meta:
        ref_name = "PaymentScheduleEntry"


class SecurityDepositOut(s.Serializer):
    amount = s.FloatField()
    currency = s.CharField()
    kind = s.ChoiceField(choices=["card_hold"])
    refundable = s.BooleanField()
    description = s.CharField()

    class Meta:
        ref_name = "SecurityDeposit"


DEPOSIT_HELP = "A refundable security deposit held on the card before arrival (never part of the total); null when there is none."
SCHEDULE_HELP = "When the total is paid: a deposit now and the balance on its due date, or all of it now. The amounts sum to the total."


class PriceBreakdown(s.Serializer):
    nights = s.IntegerField()
    nightly_avg = s.FloatField()
    accommodation = s.FloatField(help_text="Sum of nightly rates and extra-guest fees, before discount.")
    discount_label = s.CharField(allow_null=True)
    discount_percent = s.FloatField()
    discount_amount = s.FloatField(help_text="Zero or negative: the sum of discounts.")
    discounts = DiscountLine(many=True, help_text="One line per discount applied: the best automatic one (or all, if the owner stacks them) and a promo code.")
    cleaning_fee = s.FloatField()
    cleaning_fee_label = s.CharField()
    city_tax = s.FloatField()
    city_tax_note = s.CharField()
    extras = ExtraLine(many=True)
    extras_total = s.FloatField()
    total = s.FloatField(help_text="accommodation + discount_amount + cleaning_fee + city_tax + extras_total")
    currency = s.CharField()
    price_source = s.CharField(help_text="The rate rules that priced the nights, e.g. 'season:High season + base_rate'.")
    nightly_rates = NightlyRate(many=True)

    class Meta:
        ref_name = "PriceBreakdown"


class AvailabilityResult(s.Serializer):
    check_in = s.DateField()
    check_out = s.DateField()
    guests = s.IntegerField()
    available = s.BooleanField()
    unavailable_reason = s.CharField(
        allow_null=True, help_text="booked, on_hold, min_stay, max_stay, closed_to_arrival, closed_to_departure, beyond_booking_window, too_many_guests"
    )
    message = s.CharField(allow_null=True)
    held_until = s.DateTimeField(
        allow_null=True, help_text="With on_hold: when another guest's unpaid hold on these nights lapses unless paid; retry after it."
    )
    nights = s.IntegerField()
    min_nights = s.IntegerField()
    price_breakdown = PriceBreakdown()
    payment_schedule = ScheduleEntry(many=True, help_text=SCHEDULE_HELP)
    security_deposit = SecurityDepositOut(allow_null=True, help_text=DEPOSIT_HELP)


class FoundStay(s.Serializer):
    check_in = s.DateField()
    check_out = s.DateField()
    nights = s.IntegerField()
    total = s.FloatField(help_text="What a quote of this stay gives, city tax included.")
    currency = s.CharField()
    gap_nights = s.BooleanField(help_text="The stay is a gap between two taken nights, sold whole below the minimum stay.")
    promo_code_applied = s.BooleanField(required=False, help_text="With promo_code: whether the code priced this stay.")
    payment_schedule = ScheduleEntry(many=True, help_text=SCHEDULE_HELP)


class StaysResult(s.Serializer):
    nights = s.IntegerField()
    guests = s.IntegerField()
    start = s.DateField(help_text="Earliest arrival searched.")
    end = s.DateField(help_text="Latest arrival searched.")
    currency = s.CharField()
    stays = FoundStay(many=True, help_text="Up to 10 bookable stays, cheapest first (then earliest).")
    promo_code = s.CharField(required=False, help_text="The promo code the stays were priced with, when one was given.")
    security_deposit = SecurityDepositOut(allow_null=True, help_text=DEPOSIT_HELP)


class QuoteResult(PriceBreakdown):
    check_in = s.DateField()
    check_out = s.DateField()
    guests = s.IntegerField()
    available = s.BooleanField()
    unavailable_reason = s.CharField(allow_null=True)
    exchange_rate = s.FloatField(help_text="Display currency units per unit of the charged currency.")
    charge_currency = s.CharField(help_text="The currency actually charged (EUR).")
    charge_total = s.FloatField()
    price_breakdown = PriceBreakdown()
    payment_schedule = ScheduleEntry(many=True, help_text=SCHEDULE_HELP + " In the quote's currency.")
    security_deposit = SecurityDepositOut(allow_null=True, help_text=DEPOSIT_HELP)

    class Meta:
        ref_name = "Quote"


class AgentQuoteResult(s.Serializer):
    """get_quote for agents (MCP, A2A): the breakdown once, under price_breakdown (REST keeps the
    documented top-level copy as well)."""

    check_in = s.DateField()
    check_out = s.DateField()
    guests = s.IntegerField()
    available = s.BooleanField()
    unavailable_reason = s.CharField(allow_null=True)
    exchange_rate = s.FloatField(help_text="Display currency units per unit of the charged currency.")
    charge_currency = s.CharField(help_text="The currency actually charged (EUR).")
    charge_total = s.FloatField()
    price_breakdown = PriceBreakdown()
    payment_schedule = ScheduleEntry(many=True, help_text=SCHEDULE_HELP + " In the quote's currency.")
    security_deposit = SecurityDepositOut(allow_null=True, help_text=DEPOSIT_HELP)


class CalendarDay(s.Serializer):
    date = s.DateField()
    available = s.BooleanField(help_text="The night starting this day is free.")
    check_in_allowed = s.BooleanField()
    check_out_allowed = s.BooleanField()
    min_nights = s.IntegerField(help_text="Shortest stay for an arrival on this day.")
    nightly_rate = s.FloatField()
    gap_night = s.BooleanField(help_text="Part of a gap between two taken nights: bookable whole (arrive on its first day), below the minimum stay.")
    gap_nightly_rate = s.FloatField(allow_null=True, help_text="On a gap night: the rate less the gap-night discount.")


class CalendarResult(s.Serializer):
    start = s.DateField()
    end = s.DateField()
    months = s.IntegerField()
    currency = s.CharField()
    days = CalendarDay(many=True)


class PaymentInfo(s.Serializer):
    status = s.ChoiceField(choices=["unpaid", "deposit_paid", "paid", "partially_refunded", "refunded"])
    provider = s.CharField(allow_null=True)
    amount_due = s.FloatField(help_text="What is due now: the deposit (or total) of a hold; an overdue balance of a confirmed stay.")
    amount_paid = s.FloatField()
    amount_refunded = s.FloatField()
    balance_due = s.FloatField(help_text="What remains to be paid later (0 once paid in full; waived when cancelled).")
    balance_due_date = s.DateField(allow_null=True, help_text="When the balance is charged to the saved card.")
    currency = s.CharField()
    payment_schedule = ScheduleEntry(many=True, help_text=SCHEDULE_HELP)
    security_deposit = SecurityDepositOut(allow_null=True, help_text=DEPOSIT_HELP)
    checkout_url = s.URLField(allow_null=True)
    how_to_pay = s.CharField(allow_null=True)
    checkout_session_endpoint = s.URLField(allow_null=True)
    pay_url = s.URLField(allow_null=True, help_text="While held: the page that opens this hold's checkout; give it to the guest.")


class GuestOut(s.Serializer):
    first_name = s.CharField(allow_null=True)
    last_name = s.CharField(allow_null=True)
    email = s.CharField(allow_null=True)
    phone = s.CharField(allow_null=True)


class CancellationOut(s.Serializer):
    refund_if_cancelled_now = s.FloatField(help_text="The refund the policy gives if the guest cancels today (property's local date).")
    currency = s.CharField()
    policy = s.CharField(help_text="The cancellation policy in words.")


class ReservationResult(s.Serializer):
    id = s.CharField()
    reservation_id = s.CharField()
    booking_number = s.CharField(
        allow_null=True,
        read_only=True,
        help_text="The number people read and say (FLR-27-0042): in the guest's emails, pages and receipts. Read-only; it opens nothing: the id stays the credential.",
    )
    status = s.ChoiceField(choices=["held", "confirmed", "expired", "cancelled"])
    check_in = s.DateField()
    check_out = s.DateField()
    guests = s.IntegerField()
    nights = s.IntegerField()
    hold_expires_at = s.DateTimeField(allow_null=True)
    price_breakdown = PriceBreakdown()
    payment = PaymentInfo()
    guest = GuestOut(allow_null=True)
    special_requests = s.CharField(allow_null=True)
    agent_name = s.CharField(allow_null=True)
    source = s.CharField()  # type: ignore[assignment]  # the contract\'s field named "source", not DRF\'s Field.source
    created_at = s.DateTimeField()
    confirmed_at = s.DateTimeField(allow_null=True)
    cancellation = CancellationOut(required=False, help_text="Only on a confirmed stay: what cancelling today would refund.")
    refunded_amount = s.FloatField(required=False, help_text="Only on a cancelled reservation: what was refunded.")
    refund_pending = s.FloatField(required=False, help_text="Only on a cancelled reservation: refund owed but not yet confirmed by the payment provider.")

    class Meta:
        ref_name = "Reservation"


class Address(s.Serializer):
    street_address = s.CharField()
    city = s.CharField()
    postal_code = s.CharField()
    region = s.CharField()
    country_code = s.CharField(help_text="ISO 3166-1 alpha-2, e.g. IT.")
    neighbourhood = s.CharField()


class Coordinates(s.Serializer):
    latitude = s.FloatField()
    longitude = s.FloatField()


class Capacity(s.Serializer):
    max_guests = s.IntegerField(help_text="Most guests allowed, children included.")
    bedrooms = s.IntegerField()
    beds = s.IntegerField()
    bathrooms = s.FloatField()
    size_sqm = s.IntegerField(allow_null=True)


class Amenity(s.Serializer):
    name = s.CharField()
    category = s.CharField()


class Photo(s.Serializer):
    url = s.URLField()
    alt = s.CharField()
    caption = s.CharField()


class Season(s.Serializer):
    name = s.CharField()
    start = s.CharField(help_text="MM-DD when recurring_yearly, else YYYY-MM-DD.")
    end = s.CharField(help_text="MM-DD when recurring_yearly, else YYYY-MM-DD; the last night of the season.")
    recurring_yearly = s.BooleanField()
    nightly_rate = s.FloatField()
    weekend_nightly_rate = s.FloatField(allow_null=True)
    min_nights = s.IntegerField(allow_null=True)
    priority = s.IntegerField()


class LengthOfStayDiscount(s.Serializer):
    label = s.CharField()  # type: ignore[assignment]  # the contract's field named "label", not DRF's Field.label
    min_nights = s.IntegerField()
    percent = s.FloatField()


class CityTax(s.Serializer):
    per_person_per_night = s.FloatField()
    max_nights = s.IntegerField()
    exempt_under_age = s.IntegerField()
    note = s.CharField()


class DaysAhead(s.Serializer):
    days = s.IntegerField()
    percent = s.FloatField()


class GapNightsRule(s.Serializer):
    percent = s.FloatField()


class ExtraOffer(s.Serializer):
    code = s.CharField()
    name = s.CharField()
    price = s.FloatField()
    per = s.ChoiceField(choices=["stay", "night", "guest", "guest_night"])
    max_quantity = s.IntegerField()
    notice_days = s.IntegerField(help_text="Book it at least this many days before arrival (0: any time).")


class PricingRules(s.Serializer):
    currency = s.CharField()
    base_nightly_rate = s.FloatField()
    weekend_nightly_rate = s.FloatField(allow_null=True)
    weekend_nights = s.ListField(child=s.CharField())
    seasons = Season(many=True)
    min_nights = s.IntegerField()
    max_nights = s.IntegerField()
    min_nights_by_arrival_day = s.DictField(child=s.IntegerField(), help_text="Weekday name → shortest stay for an arrival that day.")
    closed_to_arrival = s.ListField(child=s.CharField(), help_text="Weekdays on which guests may not arrive.")
    closed_to_departure = s.ListField(child=s.CharField(), help_text="Weekdays on which guests may not leave.")
    length_of_stay_discounts = LengthOfStayDiscount(many=True)
    base_occupancy = s.IntegerField(help_text="Guests included in the nightly rate.")
    extra_guest_fee_per_night = s.FloatField()
    cleaning_fee = s.FloatField()
    cleaning_fee_label = s.CharField()
    city_tax = CityTax()
    booking_window_days = s.IntegerField(help_text="How many days ahead guests may arrive.")
    display_currencies = s.DictField(child=s.FloatField(), help_text="Currency code → units per EUR, for quotes.")
    early_bird = DaysAhead(allow_null=True, help_text="Stays booked at least `days` before arrival get `percent` off.")
    last_minute = DaysAhead(allow_null=True, help_text="Arrivals at most `days` away get `percent` off.")
    gap_nights = GapNightsRule(allow_null=True, help_text="Gaps between stays shorter than the minimum stay are sold whole, at `percent` off.")
    discounts_stack = s.BooleanField(help_text="False: only the best automatic discount applies. A promo code adds on top either way.")
    extras = ExtraOffer(many=True, help_text="Sold with the stay: pass `extras` to quote, reservations and checkout-link.")


class CancellationTierOut(s.Serializer):
    days_before_arrival = s.IntegerField()
    refund_percent = s.FloatField()


class Policies(s.Serializer):
    check_in_from = s.CharField(help_text="HH:MM")
    check_in_until = s.CharField(help_text="HH:MM")
    check_out_until = s.CharField(help_text="HH:MM")
    house_rules = s.ListField(child=s.CharField())
    cancellation_policy = s.CharField(help_text="The policy in words, generated from cancellation_tiers.")
    cancellation_tiers = CancellationTierOut(
        many=True,
        help_text="Cancel at least days_before_arrival days before arrival (property's local date): refund_percent % back; the city tax always in full.",
    )
    payment_policy = s.CharField(help_text="payment_terms in words, a sentence a line.")
    hold_minutes = s.IntegerField(help_text="How long a hold keeps the dates while the guest pays.")


class Review(s.Serializer):
    author = s.CharField()
    rating = s.IntegerField()
    date = s.DateField()
    text = s.CharField()
    source = s.CharField()  # type: ignore[assignment]  # the contract's field named "source", not DRF's Field.source
    verified_stay = s.BooleanField(help_text="Written by a guest from their booking link after a stay here; false for reviews the owner copied in.")


class Reviews(s.Serializer):
    average_rating = s.FloatField(allow_null=True)
    count = s.IntegerField()
    items = Review(many=True)


class Host(s.Serializer):
    name = s.CharField()
    languages = s.ListField(child=s.CharField())


class BookingLinks(s.Serializer):
    recommended_flow = s.CharField()
    availability = s.URLField()
    calendar = s.URLField()
    quote = s.URLField()


class PropertySecurityDeposit(s.Serializer):
    amount = s.FloatField()
    currency = s.CharField()
    placed_days_before = s.IntegerField(help_text="The card hold is placed this many days before check-in.")
    released_days_after = s.IntegerField(help_text="Released this many days after check-out unless the host claims from it.")


class PaymentTerms(s.Serializer):
    deposit_percent = s.IntegerField(help_text="Share of the total paid at booking for a stay more than balance_due_days away; 0 or 100: paid in full.")
    balance_due_days = s.IntegerField(help_text="The balance is charged to the same card this many days before check-in.")
    security_deposit = PropertySecurityDeposit(allow_null=True, help_text="A refundable card hold, never part of the total; null: none.")
    currency = s.CharField()


class PropertyResult(s.Serializer):
    id = s.CharField()
    accommodation_type_id = s.CharField(help_text="The whole home's stable id (UCP accommodation_type.id).")
    rate_plan_id = s.CharField(help_text="The one rate plan's stable id (UCP rate_plan.id).")
    name = s.CharField()
    headline = s.CharField()
    summary = s.CharField()
    description = s.CharField()
    property_type = s.CharField()
    url = s.URLField()
    national_code = s.CharField(allow_null=True, help_text="The national registration code (CIN) of the rental.")
    address = Address()
    coordinates = Coordinates()
    capacity = Capacity()
    amenities = Amenity(many=True)
    photos = Photo(many=True)
    payment_terms = PaymentTerms(help_text="The owner's payment terms; policies.payment_policy says them in words.")
    pricing_rules = PricingRules()
    policies = Policies()
    reviews = Reviews()
    host = Host()
    booking = BookingLinks()

    class Meta:
        ref_name = "Property"


class HealthResult(s.Serializer):
    status = s.CharField()
    database = s.CharField()
    version = s.CharField()
    time = s.DateTimeField()


class AgentReservationResult(ReservationResult):
    """A reservation for agents (MCP, A2A): its id once, as reservation_id."""

    id = None  # type: ignore[assignment]  # DRF: None removes the inherited field


class ManageOut(s.Serializer):
    manage_url = s.URLField(help_text="The guest's booking page.")
    can_cancel = s.BooleanField(help_text="Whether the guest may cancel now (a confirmed stay that has not begun).")
    refund_if_cancelled_now = s.FloatField()
    can_change_dates = s.BooleanField(help_text="Whether the guest may change the dates now (while cancelling would refund everything).")
    change_dates_refusal = s.CharField(allow_null=True, help_text="Why not: not_confirmed or too_late.")
    full_refund_days = s.IntegerField(allow_null=True, help_text="Days before arrival until which dates can be changed.")
    balance_owed = s.FloatField()
    pay_balance_url = s.URLField(allow_null=True, help_text="While a balance is owed: the page where the guest pays it.")


class GuestBookingResult(ReservationResult):
    manage = ManageOut()

    class Meta:
        ref_name = "GuestBooking"


class CancelBookingResult(s.Serializer):
    cancelled = s.BooleanField(help_text="false: a preview, nothing changed.")
    refund = s.FloatField(help_text="What cancelling refunds (or refunded) by the accepted policy.")
    currency = s.CharField()
    booking = GuestBookingResult()


class DateChangeOut(s.Serializer):
    check_in = s.DateField()
    check_out = s.DateField()
    nights = s.IntegerField()
    old_total = s.FloatField()
    total = s.FloatField()
    difference = s.FloatField()
    refund = s.FloatField(help_text="What goes back to the guest's card.")
    owed = s.FloatField(help_text="The balance the stay owes after the change.")
    owed_due_date = s.DateField(allow_null=True, help_text="When the saved card is charged what is owed.")
    currency = s.CharField()
    price_breakdown = PriceBreakdown()


class ChangeBookingDatesResult(s.Serializer):
    changed = s.BooleanField(help_text="false: a preview, nothing changed.")
    change = DateChangeOut()
    booking = GuestBookingResult()
