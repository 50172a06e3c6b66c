"""The owner's review screen: guests' reviews wait here for approval; approved ones appear on
/reviews, in the property's aggregateRating and in /api/v1/property, marked as verified stays. The
owner's own typed-in reviews (from the platforms) are added in the property's Reviews tab."""

from django.contrib import admin
from django.utils.html import format_html
from django.utils.translation import gettext_lazy, ngettext

from booking.admin_display import language_name
from booking.reservations.models import Review
from booking.reservations.services import reviews
from config.admin import GuardedModelAdmin


@admin.register(Review)
class ReviewAdmin(GuardedModelAdmin):
    list_display = ["author", "rating", "date", "verified_stay_column", "published", "text_column"]
    list_filter = ["published", ("reservation", admin.EmptyFieldListFilter)]
    search_fields = ["author", "text"]
    actions = ["approve", "hide"]
    ordering = ["published", "-date"]

    @admin.display(boolean=True, description=gettext_lazy("verified stay"))
    def verified_stay_column(self, review):
        return review.verified_stay

    @admin.display(description=Review._meta.get_field("text").verbose_name)
    def text_column(self, review):
        """A guest's words in their language, marked with it (an owner-typed review without one: English)."""
        return format_html('<span lang="{}">{}</span>', review.language or "en", review.text)

    def get_readonly_fields(self, request, obj=None):
        # A guest's words are theirs: the owner approves or hides them, never edits them.
        return ["author", "rating", "date", "text", "source", "language_shown"] if obj and obj.verified_stay else []

    def get_fields(self, request, obj=None):
        fields = super().get_fields(request, obj)
        return [f for f in fields if f != "language"] if obj and obj.verified_stay else fields

    @admin.display(description=gettext_lazy("language"))
    def language_shown(self, review):
        return language_name(review.language)  # the language the guest wrote in, by its name

    def has_add_permission(self, request):
        return False  # the owner's own reviews are added in the property's Reviews tab

    @admin.action(description=gettext_lazy("Approve: show on the site"), permissions=["change"])
    def approve(self, request, queryset):
        count = reviews.set_published(queryset, published=True)
        self.message_user(request, ngettext("%(count)d review approved.", "%(count)d reviews approved.", count) % {"count": count})

    @admin.action(description=gettext_lazy("Hide from the site"), permissions=["change"])
    def hide(self, request, queryset):
        count = reviews.set_published(queryset, published=False)
        self.message_user(request, ngettext("%(count)d review hidden.", "%(count)d reviews hidden.", count) % {"count": count})
