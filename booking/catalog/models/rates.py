"""The pricing rules the owner edits: seasons, night rates, arrival-day minimums, length-of-stay
discounts and display currencies. `booking/catalog/rules.py` turns them into the frozen dataclasses
the pure pricing engine (`booking/catalog/pricing.py`) reads."""

from decimal import Decimal

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.db import models
from django.utils.formats import number_format
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from booking.catalog.models.property import MONEY, WEEKDAYS, Property


class Season(models.Model):
    property = models.ForeignKey(Property, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(max_length=100)
    start_date = models.DateField(help_text=_("First night of the season."))
    end_date = models.DateField(help_text=_("Last night of the season (inclusive)."))
    recurring = models.BooleanField(default=True, help_text=_("Repeat every year on the same days (the year of the dates is ignored)."))
    nightly_rate = models.DecimalField(**MONEY, validators=[MinValueValidator(0)])
    weekend_nightly_rate = models.DecimalField(
        **MONEY, null=True, blank=True, validators=[MinValueValidator(0)], help_text=_("Friday and Saturday nights. Empty: the season's nightly rate.")
    )
    min_nights = models.PositiveSmallIntegerField(
        null=True, blank=True, validators=[MinValueValidator(1)], help_text=_("Shortest stay for arrivals in this season. Empty: the property's minimum.")
    )
    priority = models.SmallIntegerField(default=0, help_text=_("Where seasons overlap, the higher priority wins."))

    class Meta:
        db_table = "booking_season"
        ordering = ["-priority", "start_date"]

    def __str__(self):
        return self.name

    def clean(self):
        if self.start_date and self.end_date and not self.recurring and self.end_date < self.start_date:
            raise ValidationError({"end_date": "The last night must not be before the first night."})
        if self.start_date and self.end_date and self.recurring and (self.end_date - self.start_date).days > 366:
            raise ValidationError({"end_date": "A yearly season cannot be longer than a year."})


class NightRate(models.Model):
    """A price or a minimum stay the owner set for one night in the rate calendar. It wins over the
    seasons and the base rates for that night; an empty field leaves that rule to them."""

    property = models.ForeignKey(Property, on_delete=models.CASCADE, related_name="night_rates")
    night = models.DateField()
    nightly_rate = models.DecimalField(**MONEY, null=True, blank=True, validators=[MinValueValidator(0)])
    min_nights = models.PositiveSmallIntegerField(
        null=True, blank=True, validators=[MinValueValidator(1)], help_text=_("Shortest stay for arrivals on this night.")
    )

    class Meta:
        db_table = "booking_nightrate"
        ordering = ["night"]
        constraints = [models.UniqueConstraint(fields=["property", "night"], name="one_rate_calendar_entry_per_night")]
        verbose_name = _("rate calendar night")

    def __str__(self):
        return f"{self.night}: {self.nightly_rate if self.nightly_rate is not None else '-'} / min {self.min_nights or '-'}"


class ArrivalDayMinimum(models.Model):
    property = models.ForeignKey(Property, on_delete=models.CASCADE, related_name="arrival_day_minimums")
    weekday = models.PositiveSmallIntegerField(choices=WEEKDAYS)
    min_nights = models.PositiveSmallIntegerField(validators=[MinValueValidator(1)])

    class Meta:
        db_table = "booking_arrivaldayminimum"
        constraints = [models.UniqueConstraint(fields=["property", "weekday"], name="one_minimum_per_arrival_day")]
        verbose_name = _("minimum stay by arrival day")
        verbose_name_plural = _("minimum stays by arrival day")

    def __str__(self):
        return ngettext("%(weekday)s: %(nights)s night", "%(weekday)s: %(nights)s nights", self.min_nights) % {
            "weekday": self.get_weekday_display(),
            "nights": self.min_nights,
        }


class LengthOfStayDiscount(models.Model):
    property = models.ForeignKey(Property, on_delete=models.CASCADE, related_name="discounts")
    label = models.CharField(max_length=100, help_text=_("Shown to the guest, e.g. Weekly discount."))
    min_nights = models.PositiveSmallIntegerField(validators=[MinValueValidator(2)])
    percent = models.DecimalField(max_digits=5, decimal_places=2, validators=[MinValueValidator(Decimal("0.01")), MaxValueValidator(100)])

    class Meta:
        db_table = "booking_lengthofstaydiscount"
        ordering = ["min_nights"]
        constraints = [models.UniqueConstraint(fields=["property", "min_nights"], name="one_discount_per_length")]

    def __str__(self):
        return gettext("%(label)s: %(percent)s %% from %(nights)s nights") % {
            "label": self.label,
            "percent": number_format(self.percent.normalize() if isinstance(self.percent, Decimal) else self.percent),
            "nights": self.min_nights,
        }


class DisplayCurrency(models.Model):
    """A currency a quote may be shown in. The property's currency is what is charged."""

    property = models.ForeignKey(Property, on_delete=models.CASCADE, related_name="display_currencies")
    code = models.CharField(max_length=3, validators=[RegexValidator(r"^[A-Z]{3}$", "Three capital letters, e.g. USD.")])
    rate = models.DecimalField(
        max_digits=12,
        decimal_places=6,
        validators=[MinValueValidator(Decimal("0.000001"))],
        help_text=_("Units of this currency per 1 unit of the property's currency."),
    )
    enabled = models.BooleanField(default=True)

    class Meta:
        db_table = "booking_displaycurrency"
        ordering = ["code"]
        constraints = [models.UniqueConstraint(fields=["property", "code"], name="one_rate_per_currency")]
        verbose_name_plural = _("display currencies")

    def __str__(self):
        return f"{self.code} @ {self.rate}"
