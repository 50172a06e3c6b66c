"""The owner's texts in Italian, German and French beside English (django-modeltranslation).

Each field gets _en, _it, _de and _fr columns; the plain attribute reads the active language and
falls back to English when the translation is empty (MODELTRANSLATION_FALLBACK_LANGUAGES).
"""

from modeltranslation.translator import TranslationOptions, register

from pages.models import BlogPost, FaqEntry, PageText


@register(PageText)
class PageTextTranslation(TranslationOptions):
    fields = ("title", "meta_description", "intro", "body")


@register(FaqEntry)
class FaqEntryTranslation(TranslationOptions):
    fields = ("question", "answer")


@register(BlogPost)
class BlogPostTranslation(TranslationOptions):
    fields = ("title", "summary", "body", "cover_alt")
