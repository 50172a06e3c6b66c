"""The one place every per-process cache is dropped (tests: a rolled-back database reuses ids and
versions, so what a process remembers must go with it). Each cache is keyed by every input it
reads, so nothing in the service itself has to reset one; docs/development.md lists them and
docs/performance.md what each one saves. Three need no reset at all: the compiled hot SQL
(booking/reservations/selectors.py: it depends on the code and the database vendor only), the
police tables (booking/italy/tables.py: keyed by their files' times and sizes) and the API's CSP
header (config/middleware.py: keyed by the setting's text)."""

from booking.api import validation
from booking.catalog.rules import clear_cache
from booking.reservations.services import stays
from pages.caching import forget_pages


def forget_process_caches() -> None:
    clear_cache()
    stays.forget_remembered()  # with them the JSON booking/api/documents.py kept on each result
    validation.forget_validated()
    forget_pages()
