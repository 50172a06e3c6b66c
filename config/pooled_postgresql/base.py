"""Django's PostgreSQL backend with psycopg's pool, where a busy web thread keeps its connection
between requests (config/kept_connections.py says why and when). DATABASE_URL's postgres:// and
postgresql:// select it (config/settings.py); `connection.vendor` is "postgresql" as before."""

import time

from django.db.backends.postgresql import base
from psycopg.pq import TransactionStatus

from config import kept_connections


class DatabaseWrapper(base.DatabaseWrapper):
    keeps_connection_between_requests = True

    def close_if_unusable_or_obsolete(self):
        """At the start and end of each request (Django's close_old_connections): as Django's, but
        in a thread that keeps its connection, an idle healthy pooled connection younger than
        KEEP_AT_MOST is kept rather than handed back to the pool, unless another thread is waiting
        for one (the pool is at its size): then it goes back, so no request waits on another's
        streak."""
        if (
            self.connection is None
            or self.pool is None
            or not kept_connections.thread_keeps()
            or self.close_at is None  # close_at is when it was checked out (CONN_MAX_AGE = 0)
            or time.monotonic() - self.close_at >= kept_connections.KEEP_AT_MOST
            or self.connection.info.transaction_status != TransactionStatus.IDLE
            or self.pool.get_stats()["requests_waiting"]  # another thread waits for a connection: this one goes to it
        ):
            super().close_if_unusable_or_obsolete()
            return
        checked_out_at, self.close_at = self.close_at, None
        try:
            super().close_if_unusable_or_obsolete()  # still hands back a broken connection or one left out of autocommit
        finally:
            if self.connection is not None:
                self.close_at = checked_out_at
                kept_connections.note_kept()
