"""``list_services`` answers as Heat's EngineService does on the same service rows, with
the datetimes as Heat's RPC serialiser sends them."""

from __future__ import annotations

import datetime
import json

import pytest
import sqlalchemy as sa

from keel_app.common import jsonwire
from keel_app.engine.service import services
from keel_app.models.maintenance.services import register_service
from keel_app.models.service import Service
from tests import oracle

# Runs in the oracle: Heat's list_services on the database, serialised for the wire.
HEAT_LIST_SERVICES = """
import json, logging, sys
from oslo_config import cfg
logging.disable(logging.CRITICAL)
cfg.CONF([], project="heat")
from oslo_serialization import jsonutils
from heat.common import context, messaging
from heat.db import api as db_api
from heat.engine import service
cfg.CONF.set_override("connection", sys.argv[1], group="database")
messaging.setup("fake://")
engine = service.EngineService("host", "engine")
admin = context.RequestContext(project_id="admin", is_admin=True, roles=["admin"])
print(json.dumps(jsonutils.to_primitive(engine.list_services(admin))))
"""


def _register(database, engine_id: str, report_interval: int = 60) -> str:
    return register_service(
        database,
        engine_id=engine_id,
        host="engine-host",
        hostname="machine-1",
        binary="heat-engine",
        topic="engine",
        report_interval=report_interval,
    )


def _age(database, service_id: str, seconds: int) -> None:
    moment = datetime.datetime.now(datetime.UTC).replace(tzinfo=None)
    moment -= datetime.timedelta(seconds=seconds)
    with database.transaction() as session:
        session.execute(
            sa.update(Service)
            .where(Service.id == service_id)
            .values(created_at=moment, updated_at=moment)
        )


@pytest.mark.oracle
def test_services_are_listed_as_heat_lists_them(context, settings, database) -> None:
    _register(database, "engine-up")
    _age(database, _register(database, "engine-late", report_interval=10), 60)
    deleted = _register(database, "engine-gone")
    with database.transaction() as session:
        session.execute(
            sa.update(Service)
            .where(Service.id == deleted)
            .values(deleted_at=datetime.datetime(2026, 1, 1))
        )

    ours = jsonwire.to_primitive(services.list_services(context, settings, database, None))
    heat = oracle.run_json(HEAT_LIST_SERVICES, database.url.render_as_string(hide_password=False))

    assert sorted(ours, key=json.dumps) == sorted(heat, key=json.dumps)
    assert sorted((answer["engine_id"], answer["status"]) for answer in ours) == [
        ("engine-late", "down"),
        ("engine-up", "up"),
    ]
