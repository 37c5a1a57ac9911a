"""Sync points: where the outputs of a node's predecessors meet before the node runs.

Graph keys are tuples (resource id, is_update), and JSON has only string keys, so
tuples are stored and sent in Python's own spelling behind a ``tuple:`` prefix:
``(41, True)`` becomes ``"tuple:(41, True)"``. Other engines (Heat's) read these strings
back with ``ast.literal_eval``; the forms here are theirs character for character.
"""

from __future__ import annotations

import ast
import logging
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from keel_app.common import exception
from keel_app.models.api import sync_points
from keel_app.models.database import Database

LOG = logging.getLogger(__name__)

KEY_SEPARATOR = ":"
TUPLE_PREFIX = "tuple:"

# Propagate callback: (entity id, serialised input data, resource failures, skip propagate).
Propagate = Callable[[Any, dict[str, Any], dict[str, str], bool], None]


def make_key(*components: Any) -> str:
    assert len(components) >= 2
    return KEY_SEPARATOR.join(str(component) for component in components)


def str_pack_tuple(values: Iterable[Any]) -> str:
    return TUPLE_PREFIX + str(tuple(values))


# The keys of resource nodes, by far the most common: read without a Python parser.
# Heat's graph nodes are (id, is_update) or, with their type, (id, is_update, 'resource').
_RESOURCE_NODE_KEY = re.compile(r"tuple:\((\d+), (True|False)(?:, '(\w+)')?\)")


def _str_unpack_tuple(text: str) -> Any:
    match = _RESOURCE_NODE_KEY.fullmatch(text)
    if match is not None:
        node = (int(match.group(1)), match.group(2) == "True")
        return node if match.group(3) is None else (*node, match.group(3))
    return ast.literal_eval(text[text.index(":") + 1 :])


def _deserialize(data: Mapping[Any, Any]) -> dict[Any, Any]:
    result: dict[Any, Any] = {}
    for key, value in data.items():
        if isinstance(key, str) and key.startswith(TUPLE_PREFIX + "("):
            key = _str_unpack_tuple(key)
        if isinstance(value, dict):
            value = _deserialize(value)
        result[key] = value
    return result


def _serialize(data: Mapping[Any, Any]) -> dict[Any, Any]:
    result: dict[Any, Any] = {}
    for key, value in data.items():
        if isinstance(key, tuple):
            key = str_pack_tuple(key)
        if isinstance(value, dict):
            value = _serialize(value)
        result[key] = value
    return result


def _deserialize_data(stored: Mapping[str, Any] | None, key: str) -> dict[Any, Any]:
    inner = (stored or {}).get(key)
    if not inner:
        return {}
    return _deserialize(inner)


def deserialize_input_data(stored: Mapping[str, Any] | None) -> dict[Any, Any]:
    return _deserialize_data(stored, "input_data")


def deserialize_extra_data(stored: Mapping[str, Any] | None) -> dict[Any, Any]:
    return _deserialize_data(stored, "extra_data")


def serialize_input_data(input_data: Mapping[Any, Any]) -> dict[str, Any]:
    return {"input_data": _serialize(input_data)}


def serialize_extra_data(extra_data: Mapping[Any, Any]) -> dict[str, Any]:
    return {"extra_data": _serialize(extra_data)}


def create_all(
    database: Database, nodes: list[tuple[Any, bool]], traversal_id: str, stack_id: str
) -> None:
    """The empty sync points of a traversal's nodes, (entity id, is_update) each."""
    sync_points.create_sync_points(
        database,
        nodes,
        {"traversal_id": traversal_id, "atomic_key": 0, "stack_id": stack_id, "input_data": {}},
    )


def get(database: Database, entity_id: Any, traversal_id: str, is_update: bool) -> Any:
    sync_point = sync_points.get_sync_point(database, entity_id, traversal_id, is_update)
    if sync_point is None:
        key = (str(entity_id), traversal_id, is_update)
        raise exception.EntityNotFound(entity="Sync Point", name=key)
    return sync_point


def delete_all(database: Database, stack_id: str, traversal_id: str) -> int:
    return sync_points.delete_sync_points(database, stack_id, traversal_id)


def update_sync_point(
    database: Database,
    entity_id: Any,
    current_traversal: str,
    is_update: bool,
    new_data: Mapping[Any, Any] | None,
    new_resource_failures: Mapping[str, str] | None = None,
    is_skip: bool = False,
    expect_first: bool = False,
    expect_stored: tuple[int, Any] | None = None,
) -> tuple[dict[str, Any], dict[str, str], bool]:
    """Merge one predecessor's data into the sync point (``expect_first``: likely the
    first merge into it; ``expect_stored``: what is likely stored already; see
    ``sync_points.merge_sync_point``).

    Returns (all inputs so far in their stored form, failures so far, skip propagate).
    EntityNotFound means the sync point is gone: the traversal was superseded and
    cleaned up. Merges into one sync point wait for each other on its row lock: no step
    sleeps and retries, however many predecessors report at once. The inputs stay in
    their stored form: a stack's own sync point gathers one key per root, and reading
    them all back at every merge would make each merge cost as much as the stack.
    """
    outcome: dict[str, Any] = {}

    def merge(stored_input: Any, stored_extra: Any) -> tuple[Any, Any]:
        inputs = dict((stored_input or {}).get("input_data") or {})
        if new_data is not None:
            inputs.update(_serialize(new_data))
        extra_data = deserialize_extra_data(stored_extra) if stored_extra is not None else {}
        resource_failures = extra_data.get("resource_failures", {})
        skip_propagate = extra_data.get("skip_propagate", False)
        if new_resource_failures is not None:
            resource_failures.update(new_resource_failures)
            extra_data["resource_failures"] = resource_failures
        if is_skip:
            extra_data["skip_propagate"] = is_skip
            skip_propagate = is_skip
        outcome.update(inputs=inputs, failures=resource_failures, skip=skip_propagate)
        stored = serialize_extra_data(extra_data) if extra_data else None
        return {"input_data": inputs}, stored

    merged = sync_points.merge_sync_point(
        database, entity_id, current_traversal, is_update, merge, expect_first, expect_stored
    )
    if merged is None:
        key = (str(entity_id), current_traversal, is_update)
        raise exception.EntityNotFound(entity="Sync Point", name=key)
    return outcome["inputs"], outcome["failures"], outcome["skip"]


def _expects_first(
    entity_id: Any, is_update: bool, predecessors: set[Any], new_data: Mapping[Any, Any] | None
) -> bool:
    """Whether this merge is likely the first into the sync point: a node with one
    predecessor hears from it once; a cleanup node hears from its own resource's update
    first, as whatever else it waits for (the cleanups of the resources that depend on
    it) comes after their updates, and so after this one."""
    if len(predecessors) == 1:
        return True
    # Senders are graph nodes: (resource id, is_update, node type).
    return not is_update and any(
        tuple(sender[:2]) == (entity_id, True) for sender in new_data or ()
    )


def _expected_stored(
    entity_id: Any,
    is_update: bool,
    predecessors: set[Any],
    new_data: Mapping[Any, Any] | None,
    new_resource_failures: Mapping[str, str] | None,
    is_skip: bool,
) -> tuple[int, Any] | None:
    """What a cleanup node's sync point likely holds when the last of its two
    predecessors reports: the merge of its own resource's update, which is always None
    (a node sends no data to a node of its own resource). Other senders' values depend
    on their rows (a replacement's id), so no other sync point is guessed."""
    if is_update or new_resource_failures or is_skip or not new_data or len(new_data) != 1:
        return None
    (sender,) = new_data
    others = [node for node in predecessors if tuple(node) != tuple(sender)]
    if len(others) != 1 or tuple(others[0])[:2] != (_entity_key(entity_id), True):
        return None
    return 1, {"input_data": {str_pack_tuple(others[0]): None}}


def _entity_key(entity_id: Any) -> Any:
    # Resource ids travel as integers; a sync point's entity id column holds their text.
    return int(entity_id) if isinstance(entity_id, str) and entity_id.isdigit() else entity_id


def sync(
    database: Database,
    entity_id: Any,
    current_traversal: str,
    is_update: bool,
    propagate: Propagate,
    predecessors: set[Any],
    new_data: Mapping[Any, Any] | None,
    new_resource_failures: Mapping[str, str] | None = None,
    is_skip: bool = False,
) -> None:
    """Merge ``new_data``; when every predecessor has reported, call ``propagate``."""
    inputs, resource_failures, skip_propagate = update_sync_point(
        database,
        entity_id,
        current_traversal,
        is_update,
        new_data,
        new_resource_failures,
        is_skip=is_skip,
        expect_first=_expects_first(entity_id, is_update, predecessors, new_data),
        expect_stored=_expected_stored(
            entity_id, is_update, predecessors, new_data, new_resource_failures, is_skip
        ),
    )
    key = make_key(entity_id, current_traversal, is_update)
    # Fewer inputs than predecessors: some are still to come (no need to read them).
    if len(inputs) < len(predecessors):
        LOG.debug("[%s] Waiting %s: %d of %d in", key, entity_id, len(inputs), len(predecessors))
        return
    waiting = predecessors - set(_deserialize(inputs))
    if waiting:
        LOG.debug("[%s] Waiting %s: still need %s", key, entity_id, sorted(map(str, waiting)))
        return
    LOG.debug("[%s] Ready %s", key, entity_id)
    propagate(entity_id, {"input_data": inputs}, resource_failures, skip_propagate)
