"""A busy web thread keeps its pooled PostgreSQL connection from one request to the next.

Django hands a pooled connection back to psycopg's pool at the end of every request (its pool
requires CONN_MAX_AGE = 0) and checks one out again at the next request's first query. On the hot
reads, whose whole work is one query, that checkout and hand-back cost as much as the query itself
in the web process (README "Performance", instruction counts). The web server's threads
(config/threaded_wsgi.py) therefore promise to hand their connections back before they wait for
work; in such a thread the database backend (config/pooled_postgresql) keeps a healthy connection
at the end of a request instead of returning it, for as long as the thread goes straight on to
another request (at most KEEP_AT_MOST seconds in a row, and never while another thread waits for a
connection from the pool).

No pooled connection is held through a streamed answer either (config/threaded_wsgi.py). So a
thread never sleeps holding a connection, the pool still bounds the connections of a process,
and no request sees another's state: a connection is kept only when it is idle (no transaction
open, autocommit as configured, no error since its last use), exactly what the pool would have
handed out. Everywhere else (management commands, Celery workers, the tests' own thread) Django's
behaviour is unchanged. This module is the backend-free half: SQLite processes never import
psycopg for it.
"""

import logging
import threading

from django.db import DatabaseError, connections

logger = logging.getLogger("config.kept_connections")

KEEP_AT_MOST = 30.0  # seconds of back-to-back requests on one connection; then it goes back to the pool

_thread = threading.local()


def keep_between_requests() -> None:
    """Called once by a thread that calls release_kept() before each wait for work."""
    _thread.keeps = True


def thread_keeps() -> bool:
    return getattr(_thread, "keeps", False)


def note_kept() -> None:
    _thread.holding = True


def release_kept(*, even_in_use: bool = False) -> None:
    """Hand this thread's kept connections back to the pool (a connection inside a transaction is
    never kept, so there is nothing to commit or lose); with even_in_use, also the one the current
    request checked out, outside a transaction (before a streamed answer: Django reconnects if the
    stream queries)."""
    if not (even_in_use or getattr(_thread, "holding", False)):
        return
    _thread.holding = False
    for wrapper in connections.all(initialized_only=True):
        if getattr(wrapper, "keeps_connection_between_requests", False) and wrapper.connection is not None and not wrapper.in_atomic_block:
            try:
                wrapper.close()  # Django forgets the connection even when handing it back fails
            except DatabaseError:
                logger.warning("a kept connection could not be handed back to the pool", exc_info=True)
