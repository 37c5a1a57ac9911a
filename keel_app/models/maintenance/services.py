"""Engine heartbeat rows as ``keel-manage service list/clean`` shows and prunes them."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

import sqlalchemy as sa

from keel_app.models.base import utcnow
from keel_app.models.database import Database
from keel_app.models.service import Service

# An engine that missed two heartbeats in a row is taken for dead.
MISSED_REPORTS_BEFORE_DOWN = 2


@dataclass(frozen=True)
class ServiceState:
    id: str
    hostname: str
    binary: str
    engine_id: str
    host: str
    topic: str
    report_interval: int
    created_at: datetime.datetime | None
    updated_at: datetime.datetime | None
    deleted_at: datetime.datetime | None
    status: str


def service_status(service: Service, now: datetime.datetime) -> str:
    """``up`` while the last heartbeat is at most two report intervals old, else ``down``."""
    last_report = service.updated_at or service.created_at
    if last_report is None:
        return "down"
    silence = (now - last_report).total_seconds()
    return "up" if silence <= MISSED_REPORTS_BEFORE_DOWN * service.report_interval else "down"


def list_services(database: Database) -> list[ServiceState]:
    """Every engine not yet deleted, with its status as of now."""
    with database.transaction() as session:
        services = session.scalars(
            sa.select(Service).where(Service.deleted_at.is_(None)).order_by(Service.id)
        ).all()
        now = utcnow()
        return [_state(service, service_status(service, now)) for service in services]


def clean_services(database: Database) -> list[str]:
    """Soft-delete the engines that are down; return their ids."""
    with database.transaction() as session:
        services = session.scalars(
            sa.select(Service).where(Service.deleted_at.is_(None)).order_by(Service.id)
        ).all()
        now = utcnow()
        dead = [service for service in services if service_status(service, now) == "down"]
        for service in dead:
            service.deleted_at = utcnow()
        return [service.id for service in dead]


def _state(service: Service, status: str) -> ServiceState:
    return ServiceState(
        id=service.id,
        hostname=service.hostname,
        binary=service.binary,
        engine_id=service.engine_id,
        host=service.host,
        topic=service.topic,
        report_interval=service.report_interval,
        created_at=service.created_at,
        updated_at=service.updated_at,
        deleted_at=service.deleted_at,
        status=status,
    )


# The heartbeat itself, written by each engine process


def register_service(
    database: Database,
    *,
    engine_id: str,
    host: str,
    hostname: str,
    binary: str,
    topic: str,
    report_interval: int,
) -> str:
    """A new row for a starting engine; its id."""
    with database.transaction() as session:
        service = Service(
            engine_id=engine_id,
            host=host,
            hostname=hostname,
            binary=binary,
            topic=topic,
            report_interval=report_interval,
        )
        session.add(service)
        session.flush()
        return service.id


def report_service(database: Database, service_id: str) -> bool:
    """One heartbeat; a row that ``service clean`` took for dead comes back, as in Heat."""
    with database.transaction() as session:
        result = session.execute(
            sa.update(Service)
            .where(Service.id == service_id)
            .values(updated_at=utcnow(), deleted_at=None)
            .execution_options(synchronize_session=False)
        )
        return bool(result.rowcount)


def delete_service(database: Database, service_id: str) -> None:
    """Soft-delete a stopping engine's row, as Heat's engine does on a clean stop."""
    with database.transaction() as session:
        service = session.get(Service, service_id)
        if service is not None and service.deleted_at is None:
            service.deleted_at = utcnow()


def clean_host_services(database: Database, host: str, binary: str) -> list[str]:
    """Soft-delete the rows of this host's engines that stopped reporting; their ids."""
    with database.transaction() as session:
        services = session.scalars(
            sa.select(Service).where(
                Service.deleted_at.is_(None), Service.host == host, Service.binary == binary
            )
        ).all()
        now = utcnow()
        dead = [service for service in services if service_status(service, now) == "down"]
        for service in dead:
            service.deleted_at = now
        return [service.id for service in dead]
