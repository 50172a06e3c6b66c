"""JSON bodies, parsed defensively: bounded nesting, strict numbers, clear 422s.

Python's json module recurses once per nesting level, so a 1 MiB body of '[' would exhaust the
stack (a RecursionError, i.e. a 500). No request body of this API nests deeper than a few levels.
"""

import json

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

MAX_DEPTH = 20


def nesting_depth_exceeds(text: str, limit: int) -> bool:
    """Whether brackets outside strings nest deeper than `limit` (a linear scan, no recursion)."""
    depth, in_string, escaped = 0, False, False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > limit:
                return True
        elif char in "]}":
            depth -= 1
    return False


def refuse_constant(name):
    raise ValueError(f"{name} is not a valid JSON number")


class SafeJSONParser(JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        encoding = (parser_context or {}).get("encoding", "utf-8")
        try:
            text = stream.read().decode(encoding) if stream is not None else ""
        except UnicodeDecodeError as error:
            raise ParseError(f"The body is not valid UTF-8: {error.reason}.") from None
        if nesting_depth_exceeds(text, MAX_DEPTH):
            raise ParseError(f"JSON nested deeper than {MAX_DEPTH} levels.")
        try:
            return json.loads(text, parse_constant=refuse_constant)
        except (ValueError, RecursionError) as error:
            raise ParseError(f"JSON parse error - {error}") from None
