"""A client's malformed A2A envelope is the client's mistake: a one-line warning, not an ERROR with
the protobuf parser's chained traceback (which the a2a SDK's dispatcher logs for every such
request, and which buries real errors). The answer the client gets is the SDK's, unchanged."""

import logging

A2A_DISPATCHER = "a2a.server.routes.jsonrpc_dispatcher"
PARSE_FAILURE = "Failed to parse request params"


class ShortEnvelopeErrors(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno >= logging.ERROR and str(record.msg).startswith(PARSE_FAILURE):
            reason = record.exc_info[1] if record.exc_info else None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
            record.msg, record.args = (f"{PARSE_FAILURE}: {reason}" if reason else PARSE_FAILURE), None
            record.exc_info, record.exc_text = None, None
        return True


def install() -> None:
    logger = logging.getLogger(A2A_DISPATCHER)
    if not any(isinstance(existing, ShortEnvelopeErrors) for existing in logger.filters):
        logger.addFilter(ShortEnvelopeErrors())
