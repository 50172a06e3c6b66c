"""Mounted at /api/v1/payments/ (config/urls.py)."""

from django.urls import path

from booking.api import payments as views

urlpatterns = [
    path("checkout-link", views.CheckoutLinkView.as_view(), name="api-checkout-link"),
    path("checkout-session", views.CheckoutSessionView.as_view(), name="api-checkout-session"),
    path("webhook", views.StripeWebhookView.as_view(), name="payments-webhook"),
    path("sandbox/<str:session_id>", views.SandboxCheckoutView.as_view(), name="payments-sandbox-checkout"),
]
