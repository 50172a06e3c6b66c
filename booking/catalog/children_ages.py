"""The one reading of `children_ages` (DESIGN "Party"; "one parser for children_ages"): the ages of
the children counted among the guests, 0 to 17. A JSON body, MCP and A2A give a list of integers; a
query string and the back office's form give text, "5, 14" (ages joined by commas, spaces around
them allowed, empty for no children). The API's validation field, the owner-booking form and any
HTML form read it here.
"""

from collections.abc import Iterable

from booking.errors import InvalidInput, Problem

FIELD = "children_ages"
MAX_CHILD_AGE = 17


class ChildrenAgesInvalid(InvalidInput):
    """An age that is not a whole number from 0 to 17; names the field and the age's index (the
    adapter adds where the field was: ["query", ...], ["body", ...], a form field)."""

    def __init__(self, index: int, given: object):
        self.index, self.given = index, given
        super().__init__([Problem((FIELD, index), f"Each child's age is a whole number from 0 to {MAX_CHILD_AGE}.", "invalid_child_age")])


def split_children_ages(text: str) -> list[int | str]:
    """ "5, 14" → [5, 14]; "" → []. A part that is not a plain number stays text ("5,x" → [5, "x"];
    "5,,14" → [5, "", 14]) so that its index can be named."""
    if text.strip() == "":
        return []
    parts = [part.strip() for part in text.split(",")]
    return [int(part) if part.isascii() and part.isdigit() else part for part in parts]


def parse_children_ages(value: str | Iterable[object] | None) -> tuple[int, ...]:
    """The ages as a tuple of ints, or ChildrenAgesInvalid at the first that is not 0 to 17."""
    if value is None:
        return ()
    items = split_children_ages(value) if isinstance(value, str) else list(value)
    ages = []
    for index, item in enumerate(items):
        if not isinstance(item, int) or isinstance(item, bool) or not 0 <= item <= MAX_CHILD_AGE:
            raise ChildrenAgesInvalid(index, item)
        ages.append(item)
    return tuple(ages)
