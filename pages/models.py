"""What the owner writes for the website: page texts, FAQ, blog articles; and what guests send
through the contact form.

Facts about the property (capacity, prices, policies, reviews) are not here: pages read them from
`booking` through the same presenter the API uses, so the site and the agents never disagree.
"""

import builtins

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from pages.templatetags.site import static_url


class PageKey(models.TextChoices):
    """The pages whose words the owner can edit. The label is the default title."""

    HOME = "home", _("Home")
    PROPERTY = "property", _("The property")
    AVAILABILITY = "availability", _("Availability and prices")
    REVIEWS = "reviews", _("Guest reviews")
    LOCATION = "location", _("Location")
    FAQ = "faq", _("Frequently asked questions")
    BOOKING_POLICIES = "booking_policies", _("Booking policies")
    BOOK = "book", _("Book your stay")
    CONTACT = "contact", _("Contact")
    THANK_YOU = "thank_you", _("Thank you")
    BLOG = "blog", _("Journal")
    PRIVACY = "privacy", _("Privacy")


class PageText(models.Model):
    """The editable words of one page. A page without a row shows its default title only."""

    key = models.CharField(max_length=40, choices=PageKey.choices, unique=True, help_text=_("Which page these words belong to."))
    title = models.CharField(max_length=120, help_text=_("The heading of the page and the title shown in search results."))
    meta_description = models.CharField(
        max_length=300, blank=True, help_text=_("One or two sentences for search results and link previews (about 155 characters).")
    )
    intro = models.TextField(blank=True, help_text=_("A short paragraph under the heading (plain text)."))
    body = models.TextField(blank=True, help_text=_("Further text, in Markdown (## headings, **bold**, [links](https://…), lists)."))
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["key"]
        verbose_name = _("page text")

    def __str__(self):
        return f"{self.get_key_display()}: {self.title}"


class FaqEntry(models.Model):
    question = models.CharField(max_length=300)
    answer = models.TextField(help_text=_("Markdown: **bold**, [links](/booking-policies), lists."))
    position = models.PositiveSmallIntegerField(default=0, help_text=_("Smaller numbers come first."))
    published = models.BooleanField(default=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["position", "id"]
        verbose_name = _("FAQ entry")
        verbose_name_plural = _("FAQ entries")

    def __str__(self):
        return self.question


class BlogPostQuerySet(models.QuerySet):
    def public(self, now=None):
        """Articles a visitor may read: published, with a publish date that has arrived."""
        return self.filter(status=BlogPost.Status.PUBLISHED, published_at__lte=now or timezone.now())


class BlogPost(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", "Draft"
        PUBLISHED = "published", "Published"

    title = models.CharField(max_length=200)
    slug = models.SlugField(max_length=200, unique=True, help_text=_("The article's address: /blog/<slug>. Letters, digits, hyphens and underscores."))
    summary = models.CharField(max_length=300, help_text=_("One or two sentences for the article list, search results and link previews."))
    body = models.TextField(help_text=_("The article, in Markdown."))
    cover_image = models.ImageField(upload_to="blog/", blank=True, help_text=_("Upload a cover picture, or give a static path below."))
    cover_static_path = models.CharField(max_length=200, blank=True, help_text=_("A file under static/, e.g. img/blog/cover.svg."))
    cover_alt = models.CharField(max_length=200, blank=True, help_text=_("What the cover shows, for screen readers."))
    author = models.CharField(max_length=100, blank=True, help_text=_("Shown under the title. Empty: the host's name."))
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAFT)
    published_at = models.DateTimeField(
        null=True, blank=True, help_text=_("Visible from this moment, once the status is Published. A future date schedules the article.")
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    updated_at = models.DateTimeField(auto_now=True)

    objects = BlogPostQuerySet.as_manager()

    class Meta:
        ordering = ["-published_at", "-id"]
        verbose_name = _("blog article")

    def __str__(self):
        return self.title

    def clean(self):
        if self.status == self.Status.PUBLISHED and not self.published_at:
            self.published_at = timezone.now()
        if (self.cover_image or self.cover_static_path) and not self.cover_alt:
            raise ValidationError({"cover_alt": "Describe the cover picture for visitors who cannot see it."})

    def translated_languages(self) -> list[str]:
        """The site's languages this article is written in (a title and a body of its own); the
        others show the English and claim no translation (no hreflang alternate, not in their
        sitemap)."""
        return [code for code, _name in settings.LANGUAGES if getattr(self, f"title_{code}", None) and getattr(self, f"body_{code}", None)]

    def get_absolute_url(self):
        return reverse("pages:blog-post", kwargs={"slug": self.slug})

    @builtins.property
    def is_public(self) -> bool:
        return self.status == self.Status.PUBLISHED and self.published_at is not None and self.published_at <= timezone.now()

    @builtins.property
    def cover_url(self) -> str:
        if self.cover_image:
            return self.cover_image.url
        if not self.cover_static_path:
            return ""
        return static_url(self.cover_static_path)


class ContactInquiry(models.Model):
    """A message sent through /contact. Stored first, then emailed to the owner."""

    name = models.CharField(max_length=100)
    email = models.EmailField()
    phone = models.CharField(max_length=40, blank=True)
    check_in = models.DateField(null=True, blank=True)
    check_out = models.DateField(null=True, blank=True)
    guests = models.PositiveSmallIntegerField(null=True, blank=True)
    message = models.TextField()
    client_ip = models.GenericIPAddressField(null=True, blank=True)
    emailed = models.BooleanField(default=False, help_text=_("Whether the email to the owner went out."))
    # The email to the owner in the outbox (booking.OutboundEmail), retried while the mail server is down.
    outbound_email = models.OneToOneField("outbox.OutboundEmail", null=True, blank=True, editable=False, on_delete=models.SET_NULL, related_name="inquiry")
    handled = models.BooleanField(default=False, help_text=_("Tick once you have answered."))
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("contact inquiry")
        verbose_name_plural = _("contact inquiries")

    def __str__(self):
        return f"{self.name} <{self.email}> ({self.created_at:%Y-%m-%d})"
