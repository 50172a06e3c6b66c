from django.contrib.sitemaps.views import sitemap
from django.urls import path, re_path
from django.views.decorators.cache import cache_control

from pages import manage, views
from pages.sitemaps import SITEMAPS

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
    # The guest's own booking page: the token is the credential (see pages/manage.py).
    path("manage/<str:token>", manage.manage, name="manage"),
    path("manage/<str:token>/cancel", manage.cancel, name="manage-cancel"),
    path("manage/<str:token>/stay.ics", manage.stay_ics, name="manage-ics"),
    path("blog", views.blog_index, name="blog"),
    path("blog/<str:slug>", views.blog_post, name="blog-post"),
    path("sitemap.xml", cache_control(max_age=3600)(sitemap), {"sitemaps": SITEMAPS}, name="sitemap"),
    path("robots.txt", cache_control(max_age=3600)(views.robots_txt), name="robots"),
    path("media/<path:path>", views.media, name="media"),
    re_path(
        r"^(?P<page>penthouse-florence|availability|reviews|location|faq|booking-policies|book|contact|thank-you|blog)/$",
        views.remove_trailing_slash,
    ),
]
