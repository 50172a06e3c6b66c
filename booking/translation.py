"""The owner's words about the property in Italian, German and French (django-modeltranslation):
the headline, summary and description, the house rules, the payment policy and the arrival note the
guest gets before the stay. Empty translations show the English text. The JSON API, MCP and A2A
read them in English (their paths are unprefixed, so English is the active language there)."""

from modeltranslation.translator import TranslationOptions, register

from booking.models import Extra, Property


@register(Property)
class PropertyTranslation(TranslationOptions):
    fields = ("headline", "summary", "description", "house_rules", "payment_policy", "pre_arrival_message")


@register(Extra)
class ExtraTranslation(TranslationOptions):
    fields = ("name",)
