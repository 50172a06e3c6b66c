"""What the owner offers beyond the nightly rates: promo codes and extras (docs/offers.md).

The pure engine reads them as pricing.PromoCode and pricing.Extra (booking/catalog/rules.py,
booking/reservations/services/offers.py).
"""

from decimal import Decimal

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.db import models
from django.db.models.functions import Upper
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

MONEY = {"max_digits": 10, "decimal_places": 2}


class PromoCode(models.Model):
    """A code off the accommodation, e.g. for a returning guest met on a listing platform."""

    property = models.ForeignKey("catalog.Property", on_delete=models.CASCADE, related_name="promo_codes")
    code = models.CharField(
        max_length=40,
        validators=[RegexValidator(r"^[A-Za-z0-9_-]+$", _("Letters, digits, hyphens and underscores only."))],
        help_text=_("What the guest types; capitals or not, it is the same code."),
    )
    percent = models.DecimalField(
        max_digits=5,
        decimal_places=2,
        null=True,
        blank=True,
        validators=[MinValueValidator(Decimal("0.01")), MaxValueValidator(100)],
        help_text=_("Percent off the accommodation. Fill this or the fixed amount."),
    )
    amount = models.DecimalField(
        **MONEY, null=True, blank=True, validators=[MinValueValidator(Decimal("0.01"))], help_text=_("A fixed amount off the accommodation.")
    )
    bookable_from = models.DateField(null=True, blank=True, help_text=_("First day the code can be used to book."))
    bookable_until = models.DateField(null=True, blank=True, help_text=_("Last day the code can be used to book."))
    stay_from = models.DateField(null=True, blank=True, help_text=_("First night the code may cover."))
    stay_until = models.DateField(null=True, blank=True, help_text=_("Last night the code may cover."))
    min_nights = models.PositiveSmallIntegerField(default=1, validators=[MinValueValidator(1)], help_text=_("Shortest stay the code applies to."))
    max_uses = models.PositiveIntegerField(
        null=True, blank=True, validators=[MinValueValidator(1)], help_text=_("How many confirmed stays may use it. Empty: no limit.")
    )
    active = models.BooleanField(default=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        db_table = "booking_promocode"
        verbose_name = _("promo code")
        verbose_name_plural = _("promo codes")
        ordering = ["code"]
        constraints = [
            models.UniqueConstraint(Upper("code"), "property", name="one_promo_code_per_spelling"),
            models.CheckConstraint(
                condition=models.Q(percent__isnull=True, amount__isnull=False) | models.Q(percent__isnull=False, amount__isnull=True),
                name="promo_code_percent_or_amount",
            ),
        ]

    def __str__(self):
        return self.code

    def save(self, *args, **kwargs):
        self.code = self.code.upper()
        super().save(*args, **kwargs)

    def clean(self):
        if (self.percent is None) == (self.amount is None):
            raise ValidationError(_("Give either a percent or a fixed amount."))
        if self.bookable_from and self.bookable_until and self.bookable_until < self.bookable_from:
            raise ValidationError({"bookable_until": _("The last booking day is before the first.")})
        if self.stay_from and self.stay_until and self.stay_until < self.stay_from:
            raise ValidationError({"stay_until": _("The last night is before the first.")})


class Extra(models.Model):
    """Something sold with the stay: an airport transfer, a late check-out, a baby cot."""

    class Per(models.TextChoices):
        STAY = "stay", _("per stay")
        NIGHT = "night", _("per night")
        GUEST = "guest", _("per guest")
        GUEST_NIGHT = "guest_night", _("per guest per night")

    property = models.ForeignKey("catalog.Property", on_delete=models.CASCADE, related_name="extras")
    code = models.SlugField(
        max_length=40, help_text=_("Agents and the API name the extra by this code: lowercase letters, digits, hyphens and underscores, e.g. late_checkout.")
    )
    name = models.CharField(max_length=100, help_text=_("Shown to the guest, e.g. Airport transfer."))
    price = models.DecimalField(**MONEY, validators=[MinValueValidator(0)])
    per = models.CharField(max_length=12, choices=Per.choices, default=Per.STAY)
    max_quantity = models.PositiveSmallIntegerField(default=1, validators=[MinValueValidator(1)], help_text=_("Most a guest may choose."))
    notice_days = models.PositiveSmallIntegerField(default=0, help_text=_("Days before arrival by which it must be booked (0: any time)."))
    active = models.BooleanField(default=True)
    position = models.PositiveSmallIntegerField(default=0)

    class Meta:
        db_table = "booking_extra"
        verbose_name = _("extra")
        verbose_name_plural = _("extras")
        ordering = ["position", "code"]
        constraints = [models.UniqueConstraint(fields=["property", "code"], name="one_extra_per_code")]

    def __str__(self):
        return self.name
