"""The website's pages. config/urls.py mounts them with i18n_patterns: English at these paths,
Italian, German and French under /it/, /de/, /fr/ (the same paths after the prefix)."""

from django.urls import path, re_path

from pages import manage, views

app_name = "pages"

urlpatterns = [
    path("", views.home, name="home"),
    path("penthouse-florence", views.property_page, name="property"),
    path("availability", views.availability, name="availability"),
    path("reviews", views.reviews, name="reviews"),
    path("location", views.location, name="location"),
    path("faq", views.faq, name="faq"),
    path("booking-policies", views.booking_policies, name="booking-policies"),
    path("book", views.book, name="book"),
    path("contact", views.contact, name="contact"),
    path("thank-you", views.thank_you, name="thank-you"),
    path("privacy", views.privacy, name="privacy"),
    # The guest's own booking page: the token is the credential (see pages/manage.py).
    path("manage/<str:token>", manage.manage, name="manage"),
    path("manage/<str:token>/cancel", manage.cancel, name="manage-cancel"),
    path("manage/<str:token>/stay.ics", manage.stay_ics, name="manage-ics"),
    path("blog", views.blog_index, name="blog"),
    path("blog/<str:slug>", views.blog_post, name="blog-post"),
    re_path(
        r"^(?P<page>penthouse-florence|availability|reviews|location|faq|booking-policies|book|contact|thank-you|privacy|blog)/$",
        views.remove_trailing_slash,
    ),
]
