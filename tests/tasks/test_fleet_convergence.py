"""Stacks traversed by real ``keel-worker`` processes on RabbitMQ and MariaDB/PostgreSQL:
created, deleted, and finished even when an engine is killed in the middle."""

from __future__ import annotations

import re
import time
from typing import Any

import sqlalchemy as sa

from keel_app.engine.service import stacks as service
from keel_app.models import Event, Service
from keel_app.models import Resource as ResourceRow
from keel_app.models import Stack as StackRow
from keel_app.models.database import Database

FINAL_STATUSES = ("COMPLETE", "FAILED")


def _template(count: int, **properties: Any) -> dict[str, Any]:
    resource_type = "OS::Heat::TestResource" if properties else "OS::Heat::None"
    resources: dict[str, Any] = {}
    for index in range(count):
        resource: dict[str, Any] = {"type": resource_type}
        if properties:
            resource["properties"] = properties
        if index >= count // 2 and index > 0:
            resource["depends_on"] = [f"r{index - count // 2}"]
        resources[f"r{index}"] = resource
    return {"heat_template_version": "2015-04-30", "resources": resources}


def _create(context, settings, database, dispatcher, template: dict[str, Any]) -> dict[str, str]:
    return service.create_stack(
        context,
        settings,
        database,
        dispatcher,
        stack_name="fleet",
        template=template,
        params={},
        files={},
        args={},
    )


def _wait_final(database: Database, stack_id: str, timeout: float = 90) -> StackRow:
    deadline = time.monotonic() + timeout
    while True:
        with database.transaction() as session:
            row = session.get(StackRow, stack_id)
            assert row is not None
            if row.status in FINAL_STATUSES:
                return row
        if time.monotonic() > deadline:
            raise AssertionError(f"stack still {row.action}_{row.status} after {timeout} s")
        time.sleep(0.2)


def _kill_an_engine_once_both_hold_locks(workers: Any, database: Database, stack_id: str) -> None:
    """Wait until both engines are busy with the stack, then kill one outright."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        holders = {r.engine_id for r in _resources(database, stack_id)} - {None}
        if len(holders) == 2:
            break
        time.sleep(0.05)
    workers.kill(workers.processes[0])


def _resources(database: Database, stack_id: str) -> list[ResourceRow]:
    with database.transaction() as session:
        return list(
            session.scalars(sa.select(ResourceRow).where(ResourceRow.stack_id == stack_id)).all()
        )


def _eventually_no_resources(database: Database, stack_id: str, timeout: float = 10) -> bool:
    deadline = time.monotonic() + timeout
    while _resources(database, stack_id):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


def test_a_fleet_of_two_creates_and_deletes_a_stack(
    workers, fleet_database, api_settings, dispatcher, context
) -> None:
    workers.start(2)
    identity = _create(context, api_settings, fleet_database, dispatcher, _template(20))
    stack_id = identity["stack_id"]

    created = _wait_final(fleet_database, stack_id)
    assert (created.action, created.status, created.status_reason) == (
        "CREATE",
        "COMPLETE",
        "Stack CREATE completed successfully",
    )
    rows = _resources(fleet_database, stack_id)
    assert sorted((r.name, r.action, r.status, r.engine_id) for r in rows) == sorted(
        (f"r{i}", "CREATE", "COMPLETE", None) for i in range(20)
    )

    service.delete_stack(context, api_settings, fleet_database, dispatcher, stack_identity=identity)
    deleted = _wait_final(fleet_database, stack_id)
    assert (deleted.action, deleted.status) == ("DELETE", "COMPLETE")
    # The rows are purged just after the stack is marked complete, as in Heat.
    assert _eventually_no_resources(fleet_database, stack_id)


def test_each_engine_reports_a_service_row(workers, fleet_database) -> None:
    workers.start(2)

    with fleet_database.transaction() as session:
        services = session.scalars(sa.select(Service).where(Service.deleted_at.is_(None))).all()
        assert sorted((s.binary, s.topic, s.report_interval) for s in services) == [
            ("heat-engine", "engine", 1),
            ("heat-engine", "engine", 1),
        ]
        assert len({s.engine_id for s in services}) == 2
        first_report = {s.id: s.updated_at for s in services}
    time.sleep(2.5)
    with fleet_database.transaction() as session:
        for service_id, updated_at in first_report.items():
            assert session.get(Service, service_id).updated_at > (updated_at or 0)


def test_a_stopped_engine_deletes_its_service_row(workers, fleet_database) -> None:
    workers.start(1)
    workers.stop()

    with fleet_database.transaction() as session:
        services = session.scalars(sa.select(Service)).all()
        assert [s.deleted_at is not None for s in services] == [True]


def test_a_stack_survives_an_engine_killed_during_its_traversal(
    workers, fleet_database, api_settings, dispatcher, context
) -> None:
    workers.start(2)
    template = _template(40, action_wait_secs={"create": 1, "delete": 1})
    stack_id = _create(context, api_settings, fleet_database, dispatcher, template)["stack_id"]
    _kill_an_engine_once_both_hold_locks(workers, fleet_database, stack_id)

    created = _wait_final(fleet_database, stack_id, timeout=120)
    assert (created.action, created.status) == ("CREATE", "COMPLETE")
    rows = _resources(fleet_database, stack_id)
    live = [r for r in rows if r.replaced_by is None]
    assert sorted((r.name, r.action, r.status, r.engine_id) for r in live) == sorted(
        (f"r{i}", "CREATE", "COMPLETE", None) for i in range(40)
    )
    # A step killed while it held its lock failed its resource; a replacement took over.
    replaced = [r for r in rows if r.replaced_by is not None]
    assert {(r.status, r.status_reason, r.engine_id) for r in replaced} <= {
        ("FAILED", "Worker went down during resource CREATE", None)
    }


def test_a_lock_left_by_a_dead_engine_is_taken_over(
    workers, fleet_database, api_settings, dispatcher, context
) -> None:
    """A step that died holding a resource's lock fails it, as Heat says, and moves on."""
    workers.start(1)
    identity = _create(context, api_settings, fleet_database, dispatcher, _template(1))
    stack_id = identity["stack_id"]
    _wait_final(fleet_database, stack_id)
    # An engine that registered and died: its row is there, its process is not.
    with fleet_database.transaction() as session:
        session.add(
            Service(
                engine_id="dead-engine",
                host="gone",
                hostname="gone-host",
                binary="heat-engine",
                topic="engine",
                report_interval=1,
            )
        )
        session.execute(
            sa.update(ResourceRow)
            .where(ResourceRow.stack_id == stack_id)
            .values(engine_id="dead-engine", status="IN_PROGRESS", action="UPDATE")
        )
    service_template = _template(1)
    service_template["resources"]["r0"]["metadata"] = {"changed": True}
    from keel_app.engine.service import stack_update  # noqa: PLC0415

    stack_update.update_stack(
        context,
        api_settings,
        fleet_database,
        dispatcher,
        stack_identity=identity,
        template=service_template,
        params={},
        files={},
        args={},
    )

    updated = _wait_final(fleet_database, stack_id)
    assert (updated.action, updated.status) == ("UPDATE", "COMPLETE")
    with fleet_database.transaction() as session:
        reasons = session.scalars(
            sa.select(Event.resource_status_reason).where(Event.stack_id == stack_id)
        ).all()
    assert "Worker went down during resource UPDATE" in reasons


def test_a_stack_of_many_leaves_survives_an_engine_killed_during_a_batch(
    workers, fleet_database, api_settings, dispatcher, context
) -> None:
    workers.start(2)
    # 80 resources, 40 of them leaves: batches of two, each step waiting a second.
    template = _template(80, action_wait_secs={"create": 1, "delete": 1})
    stack_id = _create(context, api_settings, fleet_database, dispatcher, template)["stack_id"]
    _kill_an_engine_once_both_hold_locks(workers, fleet_database, stack_id)

    created = _wait_final(fleet_database, stack_id, timeout=180)
    assert (created.action, created.status) == ("CREATE", "COMPLETE")
    live = [r for r in _resources(fleet_database, stack_id) if r.replaced_by is None]
    assert sorted((r.name, r.action, r.status) for r in live) == sorted(
        (f"r{i}", "CREATE", "COMPLETE") for i in range(80)
    )


def _chain(count: int) -> dict[str, Any]:
    resources: dict[str, Any] = {"r0": {"type": "OS::Heat::None"}}
    for index in range(1, count):
        resources[f"r{index}"] = {"type": "OS::Heat::None", "depends_on": [f"r{index - 1}"]}
    return {"heat_template_version": "2015-04-30", "resources": resources}


def _step_messages_run() -> int:
    from keel_app.tasks.app import app

    stats = app.control.inspect(timeout=2).stats() or {}
    return sum(node.get("total", {}).get("keel.check_resource", 0) for node in stats.values())


def test_a_chain_goes_on_in_the_thread_of_its_step_fifty_hops_a_message(
    workers, fleet_database, api_settings, dispatcher, context
) -> None:
    workers.start(1)
    stack_id = _create(context, api_settings, fleet_database, dispatcher, _chain(60))["stack_id"]

    created = _wait_final(fleet_database, stack_id)

    assert (created.action, created.status) == ("CREATE", "COMPLETE")
    rows = _resources(fleet_database, stack_id)
    assert sorted((r.name, r.status, r.engine_id) for r in rows) == sorted(
        (f"r{i}", "COMPLETE", None) for i in range(60)
    )
    # r0 came as the traversal's one leaf; r1-r49 went on in its thread, r50 left as
    # the second message and r51-r59 went on after it.
    assert _step_messages_run() == 2


def test_an_engine_freezes_its_start_up_objects_once_ready(workers) -> None:
    workers.start(1, extra_arguments=("--loglevel", "INFO"))

    log = workers.log_directory / "worker-0.log"
    deadline = time.monotonic() + 30
    while not (frozen := re.search(r"Froze (\d+) start-up objects", log.read_text())):
        assert time.monotonic() < deadline, log.read_text()[-2000:]
        time.sleep(0.1)
    # Celery, kombu, SQLAlchemy and the engine's modules: far more than a bare interpreter.
    assert int(frozen.group(1)) > 100_000
