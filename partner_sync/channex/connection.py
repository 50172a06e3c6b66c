"""The connection's settings: CHANNEX_API_KEY switches it on (the key stays in the environment);
CHANNEX_API_BASE and the ids seed the admin-editable row (ChannexConnection), whose edits stick."""

from dataclasses import dataclass

from django.conf import settings
from django.db import IntegrityError, transaction

from partner_sync.channex.client import ChannexClient
from partner_sync.models import ChannexConnection


def is_on() -> bool:
    """Without an API key nothing is marked, pushed, fetched or shown."""
    return bool(settings.CHANNEX_API_KEY)


def ensure_connection() -> ChannexConnection | None:
    """The connection row (created from the environment the first time), or None when off."""
    if not is_on():
        return None
    connection = ChannexConnection.objects.filter(pk=ChannexConnection.SINGLETON_PK).first()
    if connection is not None:
        return connection
    try:
        with transaction.atomic():
            return ChannexConnection.objects.create(
                pk=ChannexConnection.SINGLETON_PK,
                api_base=settings.CHANNEX_API_BASE,
                property_id=settings.CHANNEX_PROPERTY_ID,
                room_type_id=settings.CHANNEX_ROOM_TYPE_ID,
                rate_plan_id=settings.CHANNEX_RATE_PLAN_ID,
            )
    except IntegrityError:  # another process created it first
        return ChannexConnection.objects.get(pk=ChannexConnection.SINGLETON_PK)


@dataclass(frozen=True)
class Mapping:
    """The three Channex ids the engine sells through."""

    property_id: str
    room_type_id: str
    rate_plan_id: str

    @property
    def complete(self) -> bool:
        return bool(self.property_id and self.room_type_id and self.rate_plan_id)


def mapping_of(connection: ChannexConnection) -> Mapping:
    return Mapping(connection.property_id.strip(), connection.room_type_id.strip(), connection.rate_plan_id.strip())


def client_for(connection: ChannexConnection) -> ChannexClient:
    return ChannexClient(api_base=connection.api_base, api_key=settings.CHANNEX_API_KEY)
