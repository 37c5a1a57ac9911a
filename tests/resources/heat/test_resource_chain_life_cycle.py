"""OS::Heat::ResourceChain through the engine: one member per listed type, each waiting
for the one before it (or, when concurrent, for the one as many engines back)."""

from __future__ import annotations

from typing import Any

import pytest

from keel_app.common.exception import StackValidationFailed
from keel_app.models import RawTemplate, Service
from tests.engine.convergence.nested import NestedEngine


def chain_template(types: list[str], concurrent: bool = False) -> dict[str, Any]:
    return {
        "heat_template_version": "2018-08-31",
        "resources": {
            "chain": {
                "type": "OS::Heat::ResourceChain",
                "properties": {
                    "resources": types,
                    "concurrent": concurrent,
                    "resource_properties": {"value": "same"},
                },
            }
        },
        "outputs": {
            "refs": {"value": {"get_attr": ["chain", "refs"]}},
            "values": {"value": {"get_attr": ["chain", "attributes", "value"]}},
            "listed": {"value": {"get_attr": ["chain", "value"]}},
            "second": {"value": {"get_attr": ["chain", "resource.1"]}},
            "second_value": {"value": {"get_attr": ["chain", "resource.1.value"]}},
        },
    }


VALUES = ["OS::Heat::Value", "OS::Heat::Value", "OS::Heat::Value"]


def _child_template(nested: NestedEngine, stack_id: str) -> dict[str, Any]:
    child = nested.child(stack_id)
    with nested.database.transaction() as session:
        stored = session.get(RawTemplate, child.raw_template_id)
        assert stored is not None
        return dict(stored.template)


def test_a_chain_creates_its_members_one_after_another(nested: NestedEngine) -> None:
    identity = nested.create(chain_template(VALUES))

    child = nested.child(identity["stack_id"])
    member_events = [event for event in nested.events(child.id) if event[0] != child.name]
    assert member_events == [
        (name, "CREATE", status) for name in "012" for status in ("IN_PROGRESS", "COMPLETE")
    ]
    ids = {name: row.physical_resource_id for name, row in nested.resources(child.id).items()}
    assert nested.outputs(identity) == {
        "refs": [ids["0"], ids["1"], ids["2"]],
        "values": {"0": "same", "1": "same", "2": "same"},
        "listed": ["same", "same", "same"],
        "second": ids["1"],
        "second_value": "same",
    }


def test_the_nested_template_chains_the_members(nested: NestedEngine) -> None:
    identity = nested.create(chain_template(["OS::Heat::None", "OS::Heat::Value"]))

    resources = _child_template(nested, identity["stack_id"])["resources"]
    assert resources == {
        "0": {"type": "OS::Heat::None", "properties": {"value": "same"}},
        "1": {"type": "OS::Heat::Value", "properties": {"value": "same"}, "depends_on": ["0"]},
    }


def _engines_up(nested: NestedEngine, count: int) -> None:
    with nested.database.transaction() as session:
        session.add_all(
            Service(
                engine_id=f"engine-{index}",
                host="host",
                hostname="host",
                binary="heat-engine",
                topic="engine",
                report_interval=60,
            )
            for index in range(count)
        )


def test_a_concurrent_chain_runs_as_many_members_at_once_as_engines(nested: NestedEngine) -> None:
    _engines_up(nested, 2)

    identity = nested.create(chain_template(VALUES, concurrent=True))

    resources = _child_template(nested, identity["stack_id"])["resources"]
    assert {name: resource.get("depends_on") for name, resource in resources.items()} == {
        "0": None,
        "1": None,
        "2": ["0"],
    }
    assert nested.states(nested.child(identity["stack_id"]).id) == {
        name: ("CREATE", "COMPLETE") for name in ("1", "0", "2")
    }


def test_with_no_engine_up_a_concurrent_chain_is_sequential(nested: NestedEngine) -> None:
    identity = nested.create(chain_template(VALUES, concurrent=True))

    resources = _child_template(nested, identity["stack_id"])["resources"]
    assert [resources[name].get("depends_on") for name in "012"] == [None, ["0"], ["1"]]


def test_an_update_adds_the_new_member(nested: NestedEngine) -> None:
    identity = nested.create(chain_template(VALUES[:2]))
    child_id = nested.child(identity["stack_id"]).id
    before = nested.resources(child_id)

    nested.update(identity, chain_template(VALUES))

    after = nested.resources(child_id)
    # The members whose definition is the same are left alone.
    assert nested.states(child_id) == {
        "1": ("CREATE", "COMPLETE"),
        "0": ("CREATE", "COMPLETE"),
        "2": ("CREATE", "COMPLETE"),
    }
    assert [after[name].id for name in "01"] == [before[name].id for name in "01"]
    assert nested.stack(child_id).action == "UPDATE"
    assert nested.outputs(identity)["listed"] == ["same", "same", "same"]


def test_a_failed_member_fails_the_chain_and_stops_it(nested: NestedEngine) -> None:
    template = chain_template(["OS::Heat::TestResource", "OS::Heat::TestResource"])
    template["resources"]["chain"]["properties"]["resource_properties"] = {"fail": True}
    template["outputs"] = {}

    identity = nested.create(template, disable_rollback=True)

    chain = nested.resources(identity["stack_id"])["chain"]
    assert (chain.action, chain.status, chain.status_reason) == (
        "CREATE",
        "FAILED",
        "ValueError: resources.chain.resources[0]: Test Resource failed 0",
    )
    assert nested.states(nested.child(identity["stack_id"]).id) == {
        "1": ("INIT", "COMPLETE"),
        "0": ("CREATE", "FAILED"),
    }


def test_an_unknown_member_property_fails_validation(nested: NestedEngine) -> None:
    template = chain_template(["OS::Heat::RandomString"])
    template["resources"]["chain"]["properties"]["resource_properties"] = {"colour": "red"}

    with pytest.raises(StackValidationFailed) as raised:
        nested.create(template)

    assert str(raised.value) == (
        "Property error: resources.chain<nested_stack>.resources[0].properties: "
        "Unknown Property colour"
    )
