"""What text the service can keep: no NUL and no lone surrogate (no database stores them), checked
the same way by every interface and every service that takes text."""

NUL_MESSAGE = "Input must not contain NUL characters."
SURROGATE_MESSAGE = "Input must not contain lone surrogates (half of a UTF-16 pair is not text)."


def has_lone_surrogate(text: str) -> bool:
    """Whether `text` holds half of a UTF-16 pair (JSON may escape one, "\\ud800"): no database can
    store it, so it is refused as input like a NUL rather than failing at the query."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def text_problem(text: str) -> str | None:
    """Why `text` cannot be kept as text (a NUL, a lone surrogate), or None."""
    if "\x00" in text:
        return NUL_MESSAGE
    return SURROGATE_MESSAGE if has_lone_surrogate(text) else None
