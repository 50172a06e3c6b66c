"""The one place every per-process cache is dropped (tests: a rolled-back database reuses ids and
versions, so what a process remembers must go with it). docs/development.md lists the caches."""

from booking.api import validation
from booking.catalog.rules import clear_cache
from booking.reservations.services import stays
from pages.caching import forget_pages


def forget_process_caches() -> None:
    clear_cache()
    stays.forget_remembered()
    validation.forget_validated()
    forget_pages()
