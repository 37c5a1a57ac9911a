"""list_stack_resources through nested stacks: ``nested_depth`` adds the resources of
the stacks nested under the stack (a resource group's, a template resource's), each with
its stack's identity and ``parent_resource``; a resource that owns a nested stack names
it as ``nested_stack_id``. An OS::Heat::Stack's stack is a stack of its own, not nested.
"""

from __future__ import annotations

import copy
import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from keel_app.engine.service import resources
from tests import oracle
from tests.engine.convergence.nested import PROJECT, NestedEngine, nested_engine

HEAT_OPERATOR = Path(__file__).with_name("heat_operator.py")
PAIR = """\
heat_template_version: 2018-08-31
resources:
  inner: {type: OS::Heat::Value, properties: {value: v}}
  deep:
    type: OS::Heat::ResourceGroup
    properties: {count: 1, resource_def: {type: OS::Heat::None}}
"""
OTHER = """\
heat_template_version: 2018-08-31
resources:
  elsewhere: {type: OS::Heat::None}
"""
TEMPLATE: dict[str, Any] = {
    "heat_template_version": "2018-08-31",
    "resources": {
        "group": {
            "type": "OS::Heat::ResourceGroup",
            "properties": {"count": 2, "resource_def": {"type": "OS::Heat::None"}},
        },
        "pair": {"type": "pair.yaml"},
        "other": {"type": "OS::Heat::Stack", "properties": {"template": OTHER}},
        "alone": {"type": "OS::Heat::None"},
    },
}


@pytest.fixture
def nested(empty_database_url: str) -> Iterator[NestedEngine]:
    yield from nested_engine(empty_database_url)


@pytest.fixture
def identity(nested: NestedEngine) -> dict[str, str]:
    return nested.create(TEMPLATE, files={"pair.yaml": PAIR})


def _listed(nested: NestedEngine, identity: dict[str, str], **arguments: Any) -> list[Any]:
    return resources.list_stack_resources(
        nested.context,
        nested.settings,
        nested.database,
        None,
        stack_identity=identity,
        **arguments,
    )


def _child_identity(nested: NestedEngine, stack_id: str, name: str) -> dict[str, str]:
    child = nested.stack(nested.resources(stack_id)[name].physical_resource_id)
    return {"stack_name": child.name, "stack_id": child.id, "tenant": PROJECT, "path": ""}


def _where(listing: list[dict[str, Any]]) -> list[tuple[str, str | None, str]]:
    """Each listed resource as (its stack's name, its parent resource, its name)."""
    return [
        (item["stack_name"], item.get("parent_resource"), item["resource_name"]) for item in listing
    ]


def _parents(listing: list[dict[str, Any]]) -> list[tuple[str | None, str]]:
    return [(parent, name) for _, parent, name in _where(listing)]


def _stored(nested: NestedEngine, identity: dict[str, str]) -> list[tuple[str, str | None, str]]:
    """A stack's own resources as listed: in the order of their rows."""
    row = nested.stack(identity["stack_id"])
    return [(row.name, row.parent_resource_name, name) for name in nested.resources(row.id)]


def _below(
    nested: NestedEngine, identity: dict[str, str], owners: tuple[str, ...]
) -> list[tuple[str, str | None, str]]:
    """The resources of the stacks that the named resources own, in row order."""
    found = []
    for _, _, name in _stored(nested, identity):
        if name in owners:
            found += _stored(nested, _child_identity(nested, identity["stack_id"], name))
    return found


def test_without_depth_the_stacks_own_resources_name_their_nested_stacks(
    nested: NestedEngine, identity: dict[str, str]
) -> None:
    listing = _listed(nested, identity)

    assert _where(listing) == _stored(nested, identity)
    by_name = {item["resource_name"]: item for item in listing}
    assert sorted(by_name) == ["alone", "group", "other", "pair"]
    stack_id = identity["stack_id"]
    assert by_name["group"]["nested_stack_id"] == _child_identity(nested, stack_id, "group")
    assert by_name["pair"]["nested_stack_id"] == _child_identity(nested, stack_id, "pair")
    assert "nested_stack_id" not in by_name["other"]
    assert "nested_stack_id" not in by_name["alone"]
    assert all("parent_resource" not in item for item in listing)


def test_depth_one_adds_the_nested_stacks_resources(
    nested: NestedEngine, identity: dict[str, str]
) -> None:
    group = _child_identity(nested, identity["stack_id"], "group")
    pair = _child_identity(nested, identity["stack_id"], "pair")

    listing = _listed(nested, identity, nested_depth=1)

    assert _where(listing) == _stored(nested, identity) + _below(
        nested, identity, ("group", "pair")
    )
    assert sorted(_where(listing)[4:]) == [
        (group["stack_name"], "group", "0"),
        (group["stack_name"], "group", "1"),
        (pair["stack_name"], "pair", "deep"),
        (pair["stack_name"], "pair", "inner"),
    ]
    by_name = {(item["stack_name"], item["resource_name"]): item for item in listing}
    first = by_name[group["stack_name"], "0"]
    assert first["stack_identity"] == group
    assert first["resource_identity"] == {**group, "path": "/resources/0"}
    deep = by_name[pair["stack_name"], "deep"]
    assert deep["nested_stack_id"] == _child_identity(nested, pair["stack_id"], "deep")


def test_depth_two_reaches_the_stacks_below(nested: NestedEngine, identity: dict[str, str]) -> None:
    pair = _child_identity(nested, identity["stack_id"], "pair")
    deep = _child_identity(nested, pair["stack_id"], "deep")

    listing = _listed(nested, identity, nested_depth=2)

    (below_deep,) = [item for item in listing if item.get("parent_resource") == "deep"]
    assert _where([below_deep]) == [(deep["stack_name"], "deep", "0")]
    assert below_deep["stack_identity"] == deep
    # Depth first: the deep group's resources right after the pair's own.
    pair_block = _stored(nested, pair) + _stored(nested, deep)
    start = _where(listing).index(pair_block[0])
    assert _where(listing)[start : start + len(pair_block)] == pair_block
    assert len(listing) == 9
    assert _listed(nested, identity, nested_depth=3) == listing


def test_depth_is_limited_by_max_nested_stack_depth(
    nested: NestedEngine, identity: dict[str, str]
) -> None:
    shallow = dataclasses.replace(nested.settings, max_nested_stack_depth=1)

    listing = resources.list_stack_resources(
        nested.context, shallow, nested.database, None, stack_identity=identity, nested_depth=4
    )

    assert listing == _listed(nested, identity, nested_depth=1)


def test_a_nested_stack_listed_itself_lists_its_own_below_it(
    nested: NestedEngine, identity: dict[str, str]
) -> None:
    pair = _child_identity(nested, identity["stack_id"], "pair")

    listing = _listed(nested, pair, nested_depth=1)

    assert _where(listing) == _stored(nested, pair) + _below(nested, pair, ("deep",))
    assert len(listing) == 3


def test_the_type_filter_applies_at_every_depth(
    nested: NestedEngine, identity: dict[str, str]
) -> None:
    listing = _listed(nested, identity, nested_depth=2, filters={"type": "Heat::None"})

    assert sorted((parent or "", name) for _, parent, name in _where(listing)) == [
        ("", "alone"),
        ("deep", "0"),
        ("group", "0"),
        ("group", "1"),
    ]


def test_column_filters_from_the_root_descend_only_into_matching_resources(
    nested: NestedEngine, identity: dict[str, str]
) -> None:
    # Heat's rule: a stack with resources that match descends only into those.
    matching_group = _listed(nested, identity, nested_depth=2, filters={"name": ["group", "0"]})
    matching_none = _listed(nested, identity, nested_depth=2, filters={"name": "0"})

    assert _parents(matching_group) == [(None, "group"), ("group", "0")]
    assert sorted(parent for parent, _ in _parents(matching_none)) == ["deep", "group"]
    assert {name for _, name in _parents(matching_none)} == {"0"}


def test_column_filters_below_the_root_select_without_narrowing_the_descent(
    nested: NestedEngine, identity: dict[str, str]
) -> None:
    pair = _child_identity(nested, identity["stack_id"], "pair")

    listing = _listed(nested, pair, nested_depth=1, filters={"name": ["inner", "0"]})

    assert _parents(listing) == [("pair", "inner"), ("deep", "0")]


def test_details_at_depth_give_the_nested_resources_attributes(
    nested: NestedEngine, identity: dict[str, str]
) -> None:
    listing = _listed(nested, identity, nested_depth=1, with_detail=True)

    (inner,) = [item for item in listing if item["resource_name"] == "inner"]
    assert inner["attributes"]["value"] == "v"
    assert inner["description"] == ""


@pytest.mark.oracle
def test_nested_listings_answer_as_heat(nested: NestedEngine, identity: dict[str, str]) -> None:
    pair = _child_identity(nested, identity["stack_id"], "pair")
    # Heat caches the rows a listing reads on the request's context, and its oracle
    # keeps one context: each listing with column filters is a request of its own.
    requests: list[list[dict[str, Any]]] = [
        [
            {"stack_identity": identity},
            {"stack_identity": identity, "nested_depth": 1},
            {"stack_identity": identity, "nested_depth": 3},
            {"stack_identity": identity, "nested_depth": 2, "filters": {"type": "Heat::None"}},
            {"stack_identity": pair, "nested_depth": 1},
        ],
        [{"stack_identity": identity, "nested_depth": 2, "filters": {"name": ["group", "0"]}}],
        [{"stack_identity": identity, "nested_depth": 2, "filters": {"name": "0"}}],
        [{"stack_identity": identity, "nested_depth": 2, "filters": {"status": "COMPLETE"}}],
        [{"stack_identity": pair, "nested_depth": 1, "filters": {"name": ["inner", "0"]}}],
    ]
    url = nested.database.url.render_as_string(hide_password=False)
    heat = []
    for request in requests:
        heat += oracle.run_json(
            HEAT_OPERATOR.read_text(),
            json.dumps(
                {
                    "url": url,
                    "project": PROJECT,
                    "config": {},
                    "calls": [
                        {"method": "list_stack_resources", "arguments": call} for call in request
                    ],
                }
            ),
        )
    calls = [call for request in requests for call in request]
    ours = [
        json.loads(
            json.dumps(
                resources.list_stack_resources(
                    nested.context,
                    nested.settings,
                    nested.database,
                    None,
                    **copy.deepcopy(call),
                )
            )
        )
        for call in calls
    ]

    # Heat reads the rows with no ordering, which the databases answer in their own
    # orders (not always the rows' on MariaDB and PostgreSQL): the contents compare.
    assert [_canonical(listing) for listing in ours] == [_canonical(listing) for listing in heat]
    assert [len(listing) for listing in ours] == [4, 8, 9, 4, 3, 2, 2, 9, 2]


def _canonical(listing: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(
        listing, key=lambda item: (item["stack_identity"]["stack_id"], item["resource_name"])
    )
