"""The website's pages. config/urls.py mounts them with i18n_patterns: English at these paths,
Italian, German and French under /it/, /de/, /fr/ (the same paths after the prefix)."""

from django.urls import path, re_path

from pages import change_dates, check_in, deposit, hold_reminders, manage, views
from pages.caching import public_page

app_name = "pages"

# The pages that change only with the owner's content and rates are public_page: shared caches may
# keep them for a minute and revalidate them by ETag (pages/caching.py). The booking flow, the
# availability calendar, the contact form and the guest's own pages are not.
urlpatterns = [
    path("", public_page(views.home), name="home"),
    path("availability", views.availability, name="availability"),
    path("reviews", public_page(views.reviews), name="reviews"),
    path("location", public_page(views.location), name="location"),
    path("faq", public_page(views.faq), name="faq"),
    path("booking-policies", public_page(views.booking_policies), name="booking-policies"),
    path("book", views.book, name="book"),
    # The one reminder of an unfinished booking (pages/hold_reminders.py).
    path("book/remind", hold_reminders.remind, name="book-remind"),
    path("book/resume/<str:token>", hold_reminders.resume, name="book-resume"),
    path("contact", views.contact, name="contact"),
    path("thank-you", views.thank_you, name="thank-you"),
    path("privacy", public_page(views.privacy), name="privacy"),
    # The guest's own booking page: the token is the credential (see pages/manage.py).
    path("manage/<str:token>", manage.manage, name="manage"),
    path("manage/<str:token>/cancel", manage.cancel, name="manage-cancel"),
    path("manage/<str:token>/stay.ics", manage.stay_ics, name="manage-ics"),
    path("manage/<str:token>/pay-balance", manage.pay_balance, name="manage-pay-balance"),
    path("manage/<str:token>/receipts/<int:year>/<str:sequence>.pdf", manage.receipt, name="manage-receipt"),
    path("manage/<str:token>/review", manage.review, name="manage-review"),
    path("manage/<str:token>/check-in", check_in.check_in, name="check-in"),
    path("manage/<str:token>/check-in/comuni", check_in.comuni, name="check-in-comuni"),
    path("manage/<str:token>/change-dates", change_dates.change_dates_page, name="manage-change-dates"),
    path("manage/<str:token>/authorise-deposit", deposit.authorise_deposit, name="manage-authorise-deposit"),
    path("blog", public_page(views.blog_index), name="blog"),
    path("blog/<str:slug>", public_page(views.blog_post), name="blog-post"),
    re_path(
        r"^(?P<page>availability|reviews|location|faq|booking-policies|book|contact|thank-you|privacy|blog)/$",
        views.remove_trailing_slash,
    ),
    # The property's own page at its slug (/{property.slug}): last, so a page above keeps its path;
    # any other slug is the site's 404 (views.property_page).
    path("<slug:slug>", public_page(views.property_page), name="property"),
    path("<slug:slug>/", views.property_page_with_slash),
]
