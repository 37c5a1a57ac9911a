"""The stack operations, signals and software configs through EngineClient over the local
transport: Heat's argument names in, the service's answer out in its JSON shape."""

from __future__ import annotations

import copy
import dataclasses

import pytest
import sqlalchemy as sa

from keel_app.common import exception
from keel_app.engine.service.stacks import HIDDEN_VALUE  # noqa: F401 - the module is served
from keel_app.models import Stack as StackRow
from keel_app.rpc.client import EngineClient
from keel_app.rpc.local import LocalTransport
from tests.engine.service.chain import ENVIRONMENT, TEMPLATE


def _row(database, stack_id: str) -> StackRow:
    with database.transaction() as session:
        return session.scalars(
            sa.select(StackRow)
            .where(StackRow.id == stack_id)
            .execution_options(include_deleted=True)
        ).one()


def _changed_template() -> dict:
    template = copy.deepcopy(TEMPLATE)
    template["resources"]["last"]["metadata"] = {"changed": True}
    return template


def test_update_stack(local_client, context, database, queue, identity) -> None:
    answer = local_client.update_stack(context, identity, _changed_template(), ENVIRONMENT, {}, {})
    queue.run_until_idle()

    assert answer == identity
    row = _row(database, identity["stack_id"])
    assert (row.action, row.status) == ("UPDATE", "COMPLETE")


def test_preview_update_stack(local_client, context, identity) -> None:
    answer = local_client.preview_update_stack(
        context, identity, _changed_template(), ENVIRONMENT, {}, {}
    )

    assert sorted(answer) == ["added", "deleted", "replaced", "unchanged", "updated"]
    changed = {
        resource["resource_name"] for key in ("updated", "replaced") for resource in answer[key]
    }
    assert changed | {r["resource_name"] for r in answer["unchanged"]} == {
        "first",
        "second",
        "last",
    }


def test_preview_stack(local_client, context) -> None:
    answer = local_client.preview_stack(context, "preview", TEMPLATE, ENVIRONMENT, {}, {})

    assert answer["stack_name"] == "preview"
    assert sorted(resource["resource_name"] for resource in answer["resources"]) == [
        "first",
        "last",
        "second",
    ]


def test_cancel_update_of_a_stack_not_updating_is_refused(local_client, context, identity) -> None:
    with pytest.raises(exception.NotSupported) as raised:
        local_client.stack_cancel_update(context, identity, cancel_with_rollback=False)

    assert str(raised.value) == (
        "Cancelling update when stack is CREATE_COMPLETE is not supported."
    )


def test_export_and_abandon_when_enabled(settings, database, queue, context, identity) -> None:
    enabled = dataclasses.replace(settings, enable_stack_abandon=True)
    client = EngineClient(LocalTransport(enabled, database, queue))

    exported = client.export_stack(context, identity)
    abandoned = client.abandon_stack(context, identity)
    queue.run_until_idle()

    assert exported["id"] == abandoned["id"] == identity["stack_id"]
    assert sorted(exported["resources"]) == ["first", "last", "second"]
    assert _row(database, identity["stack_id"]).action == "DELETE"


def test_resource_signal_to_a_resource_without_signals(local_client, context, identity):
    with pytest.raises(exception.ResourceActionNotSupported):
        local_client.resource_signal(context, identity, "last", {"data": 1})


def test_software_config_round_trip(local_client, context) -> None:
    created = local_client.create_software_config(context, "script", "hello", "echo hi", [], [], {})
    shown = local_client.show_software_config(context, created["id"])
    listed = local_client.list_software_configs(context, limit=10, marker=None)
    local_client.delete_software_config(context, created["id"])

    assert (shown["name"], shown["group"], shown["config"]) == ("hello", "script", "echo hi")
    assert [config["id"] for config in listed] == [created["id"]]
    with pytest.raises(exception.NotFound):
        local_client.show_software_config(context, created["id"])
