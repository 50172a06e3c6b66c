"""POST {BASE_URL}/partner/channex/webhook: Channex's booking events, as triggers.

Channex does not sign webhooks; it sends back the headers configured on the webhook, so the
`X-Channex-Token` header must equal CHANNEX_WEBHOOK_SECRET (constant-time compare), else 403 and
nothing is done. A good request is answered 200 at once: the work (get the revision by id, apply,
acknowledge) is queued, and the feed drain every 60 s catches whatever a lost queue or webhook missed.
"""

import json
import logging

from django.conf import settings
from django.http import HttpRequest, JsonResponse
from django.utils.crypto import constant_time_compare
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from partner_sync import tasks
from partner_sync.channex.connection import is_on

logger = logging.getLogger("partner_sync.channex")
MAX_BODY = 1024 * 1024


@csrf_exempt
@require_POST
def channex_webhook(request: HttpRequest) -> JsonResponse:
    if not is_on():
        return JsonResponse({"detail": "The channel manager is not connected.", "code": "not_found"}, status=404)
    secret = settings.CHANNEX_WEBHOOK_SECRET
    token = request.headers.get("X-Channex-Token", "")
    if not secret or not constant_time_compare(token, secret):
        logger.warning("Channex webhook refused: wrong or missing X-Channex-Token")
        return JsonResponse({"detail": "Forbidden.", "code": "forbidden"}, status=403)
    if int(request.headers.get("Content-Length") or 0) > MAX_BODY:
        return JsonResponse({"detail": "Payload too large.", "code": "payload_too_large"}, status=413)
    try:
        event = json.loads(request.body or b"{}")
    except ValueError:
        event = {}
    if not isinstance(event, dict):
        event = {}
    kind = str(event.get("event") or "")
    raw_payload = event.get("payload")
    payload: dict = raw_payload if isinstance(raw_payload, dict) else {}
    revision_id = str(payload.get("revision_id") or payload.get("booking_revision_id") or "")[:64]
    try:
        if kind.startswith("booking") and revision_id:
            tasks.fetch_channex_revision.delay(revision_id)
        elif kind.startswith("booking") or kind == "non_acked_booking":
            tasks.drain_channex_feed.delay()
        else:
            logger.info("Channex webhook %r received", kind[:50])
    except Exception:  # the queue is down: the feed drain brings the booking within a minute
        logger.exception("could not queue the work of a Channex webhook")
    return JsonResponse({"ok": True})
