"""Scenario: create a stack of independent resources of every no-cloud type."""

from __future__ import annotations

from keel_app.common import crypt
from keel_app.engine.resource.lifecycle import short_id
from tests.engine.convergence.harness import Engine

TEMPLATE = {
    "heat_template_version": "2018-08-31",
    "resources": {
        "nothing": {"type": "OS::Heat::None"},
        "value": {"type": "OS::Heat::Value", "properties": {"value": "forty-two"}},
        "secret": {"type": "OS::Heat::RandomString", "properties": {"length": 12}},
    },
}


def test_stack_and_every_resource_end_create_complete(engine: Engine) -> None:
    stack_id = engine.create(TEMPLATE)

    stack = engine.stack_row(stack_id)
    assert (stack.action, stack.status, stack.status_reason) == (
        "CREATE",
        "COMPLETE",
        "Stack CREATE completed successfully",
    )
    assert engine.states(stack_id) == {
        "nothing": ("CREATE", "COMPLETE"),
        "value": ("CREATE", "COMPLETE"),
        "secret": ("CREATE", "COMPLETE"),
    }
    assert {row.engine_id for row in engine.resources(stack_id)} == {None}
    assert {row.status_reason for row in engine.resources(stack_id)} == {"state changed"}


def test_sync_points_are_gone_and_the_graph_is_stored(engine: Engine) -> None:
    stack_id = engine.create(TEMPLATE)

    assert engine.sync_points(stack_id) == []
    ids = sorted(row.id for row in engine.resources(stack_id))
    edges = engine.stack_row(stack_id).current_deps["edges"]
    assert sorted(edges) == sorted([[resource_id, True], None] for resource_id in ids)


def test_one_event_per_state_change_as_heat_writes_them(engine: Engine) -> None:
    stack_id = engine.create(TEMPLATE)

    events = engine.events(stack_id)
    assert events[0] == ("demo", "CREATE", "IN_PROGRESS", "Stack CREATE started")
    assert events[-1] == ("demo", "CREATE", "COMPLETE", "Stack CREATE completed successfully")
    assert sorted(events[1:-1]) == sorted(
        (name, "CREATE", status, "state changed")
        for name in ("nothing", "value", "secret")
        for status in ("IN_PROGRESS", "COMPLETE")
    )


def test_physical_ids_follow_heats_rules(engine: Engine) -> None:
    stack_id = engine.create(TEMPLATE)

    rows = {row.name: row for row in engine.resources(stack_id)}
    # None makes up a UUID; Value and RandomString are named after stack, resource, uuid.
    assert len(rows["nothing"].physical_resource_id) == 36
    assert rows["value"].physical_resource_id == f"demo-value-{short_id(rows['value'].uuid)}"
    assert rows["secret"].physical_resource_id == f"demo-secret-{short_id(rows['secret'].uuid)}"


def test_random_string_is_stored_redacted_and_encrypted(engine: Engine) -> None:
    stack_id = engine.create(TEMPLATE)

    secret = next(row for row in engine.resources(stack_id) if row.name == "secret")
    [stored] = engine.resource_data(secret.id)
    assert (stored.key, stored.redact, stored.decrypt_method) == (
        "value",
        True,
        "cryptography_decrypt_v1",
    )
    value = crypt.decrypt(stored.decrypt_method, stored.value, engine.settings.auth_encryption_key)
    assert value is not None and len(value) == 12 and value.isalnum()


def test_none_records_that_it_is_a_placeholder(engine: Engine) -> None:
    stack_id = engine.create(TEMPLATE)

    nothing = next(row for row in engine.resources(stack_id) if row.name == "nothing")
    assert [(row.key, row.value, row.redact) for row in engine.resource_data(nothing.id)] == [
        ("is_placeholder", "True", False)
    ]
