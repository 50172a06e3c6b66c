"""Celery tasks of the Italian obligations: thin adapters over booking/italy services."""
