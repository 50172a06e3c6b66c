"""Files of the site that have no language: the sitemap, robots.txt and the owner's uploads."""

from django.contrib.sitemaps.views import sitemap
from django.urls import path
from django.views.decorators.cache import cache_control

from pages import views
from pages.sitemaps import SITEMAPS

urlpatterns = [
    path("sitemap.xml", cache_control(max_age=3600)(sitemap), {"sitemaps": SITEMAPS}, name="sitemap"),
    path("robots.txt", cache_control(max_age=3600)(views.robots_txt), name="robots"),
    path("media/<path:path>", views.media, name="media"),
]
