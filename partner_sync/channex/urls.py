from django.urls import path

from partner_sync.channex.webhook import channex_webhook

urlpatterns = [path("webhook", channex_webhook, name="channex-webhook")]
