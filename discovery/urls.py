from django.urls import path

from discovery import views
from discovery.ucp import views as ucp

app_name = "discovery"

urlpatterns = [
    path("llms.txt", views.llms_txt, name="llms-txt"),
    path(".well-known/llms.txt", views.llms_txt, name="llms-txt-well-known"),
    path(".well-known/ai-plugin.json", views.ai_plugin, name="ai-plugin"),
    path(".well-known/agent-card.json", views.agent_card, name="agent-card"),
    # The card's name before A2A 0.3, still fetched by older clients.
    path(".well-known/agent.json", views.agent_card, name="agent-card-legacy"),
    path(".well-known/mcp/server-card.json", views.mcp_server_card, name="mcp-server-card"),
    path("mcp/server-card", views.mcp_server_card, name="mcp-server-card-reserved"),
    path(".well-known/mcp/catalog.json", views.mcp_catalog, name="mcp-catalog"),
    path("api", views.api_page, name="api"),
    # GET from a browser; MCP clients' POSTs never reach Django (config/asgi.py routes them).
    path("mcp", views.mcp_page, name="mcp"),
    path("agents", views.agents_page, name="agents"),
    # GET only; A2A clients' POSTs never reach Django (config/asgi.py routes them).
    path("a2a", views.a2a_endpoint_description, name="a2a"),
    # The Universal Commerce Protocol's lodging booking (discovery/ucp/, docs/ucp.md).
    path(".well-known/ucp", ucp.business_profile, name="ucp-profile"),
    path("ucp/v1/booking-sessions", ucp.BookingSessionsView.as_view(), name="ucp-sessions"),
    path("ucp/v1/booking-sessions/<str:session_id>", ucp.BookingSessionView.as_view(), name="ucp-session"),
    path("ucp/v1/booking-sessions/<str:session_id>/complete", ucp.CompleteView.as_view(), name="ucp-complete"),
    path("ucp/v1/booking-sessions/<str:session_id>/cancel", ucp.CancelView.as_view(), name="ucp-cancel"),
    path("pay/<str:session_id>", ucp.continue_booking, name="ucp-continue"),
]
