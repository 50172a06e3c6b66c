"""The owner's arrival instructions and emergency information in Italian, German and French (django-modeltranslation)."""

from modeltranslation.translator import TranslationOptions, register

from booking.italy.models import ItalySettings


@register(ItalySettings)
class ItalySettingsTranslation(TranslationOptions):
    fields = ("arrival_instructions", "emergency_info")
