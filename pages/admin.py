"""The owner's editing screens for the website's words, FAQ, journal and inbox. Page texts, FAQ
entries and articles have a field per language (pages/translation.py); an empty one shows English."""

from django.conf import settings
from django.contrib import admin, messages
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from modeltranslation.admin import TranslationAdmin

from booking.admin_display import time_column
from config.admin import GuardedModelAdmin
from pages.models import BlogPost, ContactInquiry, FaqEntry, PageText


@admin.register(PageText)
class PageTextAdmin(TranslationAdmin):
    list_display = ["key", "title", "updated_at_local"]
    updated_at_local = time_column(PageText, "updated_at")  # the property's clock, with its zone
    search_fields = ["title", "intro", "body"]
    fields = ["key", "title", "meta_description", "intro", "body"]

    def get_readonly_fields(self, request, obj=None):
        # A page's key is its identity; changing it would move the words to another page.
        return ["key"] if obj else []


@admin.register(FaqEntry)
class FaqEntryAdmin(TranslationAdmin):
    list_display = ["question", "position", "published"]
    list_editable = ["position", "published"]
    list_filter = ["published"]
    search_fields = ["question", "answer"]


@admin.register(BlogPost)
class BlogPostAdmin(GuardedModelAdmin, TranslationAdmin):
    list_display = ["title", "status", "published_at_local", "visible", "updated_at_local"]
    published_at_local = time_column(BlogPost, "published_at")
    updated_at_local = time_column(BlogPost, "updated_at")
    list_filter = ["status"]
    search_fields = ["title", "summary", "body"]
    prepopulated_fields = {"slug": ["title"]}
    date_hierarchy = "published_at"
    fieldsets = [
        (None, {"fields": ["title", "slug", "summary", "body", "author"]}),
        (gettext_lazy("Cover picture"), {"fields": ["cover_image", "cover_static_path", "cover_alt"]}),
        (
            gettext_lazy("Publishing"),
            {
                "fields": ["status", "published_at"],
                "description": gettext_lazy("Only published articles whose publish date has arrived are shown on the site."),
            },
        ),
    ]
    actions = ["publish_now", "back_to_draft"]
    radio_fields = {"status": admin.HORIZONTAL}

    def formfield_for_dbfield(self, db_field, request, **kwargs):
        field = super().formfield_for_dbfield(db_field, request, **kwargs)
        if db_field.name == "published_at" and field is not None:  # the form shows the time without its zone
            field.help_text = _("On the property's clock: %(zone)s.") % {"zone": f"{settings.TIME_ZONE}, {timezone.localtime():%Z}"}
        return field

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        # The owner's first save of a new article used to publish nothing without a word.
        if not obj.is_public:
            message = (
                _("“%(title)s” is saved as a draft: it is not on the site. Choose “Published” under Publishing and save to show it.")
                if obj.status != BlogPost.Status.PUBLISHED
                else _("“%(title)s” is scheduled: it appears on the site on %(date)s.")
            )
            when = timezone.localtime(obj.published_at) if obj.published_at else None
            self.message_user(
                request,
                message % {"title": obj.title, "date": f"{date_format(when, 'DATETIME_FORMAT')} ({when.tzname()})" if when else ""},
                messages.WARNING,
            )

    @admin.display(boolean=True, description=gettext_lazy("On the site"))
    def visible(self, post):
        return post.is_public

    @admin.action(description=gettext_lazy("Publish the selected articles now"), permissions=["change"])
    def publish_now(self, request, queryset):
        updated = queryset.exclude(status=BlogPost.Status.PUBLISHED).update(
            status=BlogPost.Status.PUBLISHED, published_at=timezone.now(), updated_at=timezone.now()
        )
        self.message_user(request, ngettext("%(count)d article published.", "%(count)d articles published.", updated) % {"count": updated})

    @admin.action(description=gettext_lazy("Turn the selected articles back into drafts"), permissions=["change"])
    def back_to_draft(self, request, queryset):
        updated = queryset.update(status=BlogPost.Status.DRAFT, updated_at=timezone.now())
        self.message_user(request, ngettext("%(count)d article is a draft again.", "%(count)d articles are drafts again.", updated) % {"count": updated})


@admin.register(ContactInquiry)
class ContactInquiryAdmin(admin.ModelAdmin):
    list_display = ["created_at_local", "name", "email_link", "stay", "emailed", "handled"]
    list_filter = ["handled", "emailed"]
    list_editable = ["handled"]
    search_fields = ["name", "email", "message"]
    date_hierarchy = "created_at"
    readonly_fields = ["created_at_local", "name", "email", "phone", "check_in", "check_out", "guests", "message", "client_ip", "emailed"]
    fields = ["created_at_local", "name", "email", "phone", "check_in", "check_out", "guests", "message", "client_ip", "emailed", "handled"]
    created_at_local = time_column(ContactInquiry, "created_at")

    def has_add_permission(self, request):
        return False  # inquiries come from guests, through the contact form

    @admin.display(description=gettext_lazy("Email"), ordering="email")
    def email_link(self, inquiry):
        return format_html('<a href="mailto:{}">{}</a>', inquiry.email, inquiry.email)

    @admin.display(description=gettext_lazy("Stay"))
    def stay(self, inquiry):
        if inquiry.check_in and inquiry.check_out:
            guests = ngettext(", %(count)d guest", ", %(count)d guests", inquiry.guests) % {"count": inquiry.guests} if inquiry.guests else ""
            return f"{date_format(inquiry.check_in, 'd M')} → {date_format(inquiry.check_out, 'd M Y')}{guests}"
        return "—"
