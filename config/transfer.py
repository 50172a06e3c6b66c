"""Fewer bytes on the wire: compressed HTML and JSON, and answers a browser can revalidate.

Compression is Django's GZipMiddleware, which carries Django's BREACH mitigation (random bytes in
the gzip header, so a page that reflects a secret such as the CSRF token does not compress to a
length an attacker can probe). Two kinds of answer are never compressed:

- event streams (`text/event-stream`): gzip buffers, and a stream must reach the client as it is
  written;
- answers that say `Content-Encoding` already (WhiteNoise serves static files pre-compressed).

ETags come from Django's ConditionalGetMiddleware, placed after this one: the tag is the hash of
the uncompressed body, so it changes exactly when the content does, and a browser that sends it
back gets a 304 with no body.
"""

import re

from django.middleware.gzip import GZipMiddleware

ACCEPTS_GZIP = re.compile(r"\bgzip\b")


class CompressionMiddleware(GZipMiddleware):
    def process_response(self, request, response):
        if response.get("Content-Type", "").startswith("text/event-stream"):
            return response
        if response.status_code == 304:
            return self.weaken_etag_of_not_modified(request, response)
        return super().process_response(request, response)

    @staticmethod
    def weaken_etag_of_not_modified(request, response):
        """A compressed 200 carries its ETag weakened (W/"…", Django's rule: the bytes differ from
        the uncompressed ones). The 304 for the same client must repeat that tag, not the strong one."""
        etag = response.get("ETag", "")
        if etag.startswith('"') and ACCEPTS_GZIP.search(request.META.get("HTTP_ACCEPT_ENCODING", "")):
            response["ETag"] = "W/" + etag
        return response
