"""update_stack through the service, PUT and PATCH, traversed on the LocalQueue: the
stored stack, template, tags and resources after each, and Heat's refusals."""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

import pytest

from keel_app.common import exception
from keel_app.engine.service import stacks as service
from keel_app.engine.service.stack_update import update_stack
from keel_app.models import RawTemplate, SyncPoint
from tests.engine.service.chain import ENVIRONMENT, TEMPLATE
from tests.engine.service.rows import (
    all_rows,
    set_state,
    stack_events,
    stack_row,
    states,
    tags,
    template_row,
)


def _environment(**parameters: Any) -> dict[str, Any]:
    environment = copy.deepcopy(ENVIRONMENT)
    environment["parameters"] = parameters
    return environment


def _create(context, settings, database, queue, template=TEMPLATE, **args: Any) -> dict:
    identity = service.create_stack(
        context,
        settings,
        database,
        queue,
        stack_name="web",
        template=template,
        params=_environment(greeting="hello"),
        files=args.pop("files", {}),
        args=args,
    )
    queue.run_until_idle()
    return identity


def _update(context, settings, database, queue, identity, template=None, **kwargs: Any) -> dict:
    return update_stack(
        context,
        settings,
        database,
        queue,
        stack_identity=identity,
        template=template,
        params=kwargs.pop("params", _environment(greeting="hello")),
        files=kwargs.pop("files", {}),
        args=kwargs.pop("args", {}),
        **kwargs,
    )


def _changed_template() -> dict[str, Any]:
    """``first`` changes its value, ``last`` goes, ``extra`` comes."""
    template = copy.deepcopy(TEMPLATE)
    template["resources"]["first"]["properties"]["value"] = "changed"
    del template["resources"]["last"]
    del template["outputs"]["last_id"]
    template["resources"]["extra"] = {"type": "OS::Heat::None"}
    return template


def _output(context, settings, database, queue, identity, key: str = "joined") -> Any:
    return service.show_output(
        context, settings, database, queue, stack_identity=identity, output_key=key
    )["output_value"]


def test_put_update_starts_the_update_traversal(context, settings, database, queue) -> None:
    identity = _create(context, settings, database, queue)
    created = stack_row(database, identity["stack_id"])

    answer = _update(context, settings, database, queue, identity, _changed_template())

    assert answer == identity
    row = stack_row(database, identity["stack_id"])
    assert (row.action, row.status, row.status_reason) == (
        "UPDATE",
        "IN_PROGRESS",
        "Stack UPDATE started",
    )
    assert row.prev_raw_template_id == created.raw_template_id
    assert row.raw_template_id != created.raw_template_id
    assert template_row(database, row.raw_template_id).template == _changed_template()
    assert row.updated_at is not None
    assert row.current_traversal != created.current_traversal
    assert {point.traversal_id for point in all_rows(database, SyncPoint)} == {
        row.current_traversal
    }


def test_put_update_runs_to_complete(context, settings, database, queue) -> None:
    identity = _create(context, settings, database, queue, tags=["blue"])

    _update(context, settings, database, queue, identity, _changed_template())
    queue.run_until_idle()

    row = stack_row(database, identity["stack_id"])
    assert (row.action, row.status, row.status_reason) == (
        "UPDATE",
        "COMPLETE",
        "Stack UPDATE completed successfully",
    )
    assert row.prev_raw_template_id is None
    # The replaced template was purged with the traversal.
    assert [template.id for template in all_rows(database, RawTemplate)] == [row.raw_template_id]
    assert states(database, identity["stack_id"]) == {
        "first": ("UPDATE", "COMPLETE"),
        "second": ("UPDATE", "COMPLETE"),
        "extra": ("CREATE", "COMPLETE"),
    }
    assert _output(context, settings, database, queue, identity) == "X-changed"
    # A PUT names every option: without tags, the stack has none any more (as in Heat).
    assert tags(database, identity["stack_id"]) == []
    assert stack_events(database, identity["stack_id"])[2:] == [
        ("UPDATE", "IN_PROGRESS", "Stack UPDATE started"),
        ("UPDATE", "COMPLETE", "Stack UPDATE completed successfully"),
    ]


def test_put_update_stores_the_options_given(context, settings, database, queue) -> None:
    identity = _create(context, settings, database, queue, tags=["blue"])

    _update(
        context,
        settings,
        database,
        queue,
        identity,
        TEMPLATE,
        args={"timeout_mins": "30", "disable_rollback": "false", "tags": ["red", "green"]},
    )
    queue.run_until_idle()

    row = stack_row(database, identity["stack_id"])
    assert (row.action, row.status, row.timeout, row.disable_rollback) == (
        "UPDATE",
        "COMPLETE",
        30,
        False,
    )
    assert tags(database, identity["stack_id"]) == ["red", "green"]


def test_patch_keeps_the_template_and_merges_parameters(context, settings, database, queue) -> None:
    identity = _create(context, settings, database, queue, tags=["blue"], timeout_mins=20)

    _update(
        context,
        settings,
        database,
        queue,
        identity,
        params=_environment(greeting="yo"),
        args={"existing": True},
    )
    queue.run_until_idle()

    row = stack_row(database, identity["stack_id"])
    assert (row.action, row.status, row.timeout) == ("UPDATE", "COMPLETE", 20)
    stored = template_row(database, row.raw_template_id)
    assert stored.template == TEMPLATE
    assert stored.environment["parameters"] == {"greeting": "yo"}
    assert tags(database, identity["stack_id"]) == ["blue"]
    assert _output(context, settings, database, queue, identity) == "X-yo"


def test_patch_clears_the_parameters_named(context, settings, database, queue) -> None:
    identity = _create(context, settings, database, queue)

    _update(
        context,
        settings,
        database,
        queue,
        identity,
        params=_environment(),
        args={"existing": True, "clear_parameters": ["greeting"]},
    )
    queue.run_until_idle()

    row = stack_row(database, identity["stack_id"])
    assert template_row(database, row.raw_template_id).environment["parameters"] == {}
    # Back to the template's default.
    assert _output(context, settings, database, queue, identity) == "X-hi"


def test_patch_adds_files_to_the_stored_ones(context, settings, database, queue) -> None:
    identity = _create(context, settings, database, queue, files={"a.txt": "one"})

    _update(
        context,
        settings,
        database,
        queue,
        identity,
        files={"b.txt": "two"},
        args={"existing": True},
    )

    assert service.get_files(context, settings, database, queue, stack_identity=identity) == {
        "a.txt": "one",
        "b.txt": "two",
    }


def test_patch_with_a_template_uses_it(context, settings, database, queue) -> None:
    identity = _create(context, settings, database, queue)

    _update(
        context,
        settings,
        database,
        queue,
        identity,
        _changed_template(),
        params=_environment(),
        args={"existing": True},
    )
    queue.run_until_idle()

    row = stack_row(database, identity["stack_id"])
    stored = template_row(database, row.raw_template_id)
    assert (stored.template, stored.environment["parameters"]) == (
        _changed_template(),
        {"greeting": "hello"},
    )


def test_update_pre_empts_a_running_traversal(context, settings, database, queue) -> None:
    identity = service.create_stack(
        context,
        settings,
        database,
        queue,
        stack_name="web",
        template=TEMPLATE,
        params=_environment(greeting="hello"),
        files={},
        args={},
    )
    creating = stack_row(database, identity["stack_id"]).current_traversal

    _update(context, settings, database, queue, identity, _changed_template())
    queue.run_until_idle()

    row = stack_row(database, identity["stack_id"])
    assert row.current_traversal != creating
    assert (row.action, row.status) == ("UPDATE", "COMPLETE")
    assert states(database, identity["stack_id"]) == {
        "first": ("CREATE", "COMPLETE"),
        "second": ("CREATE", "COMPLETE"),
        "extra": ("CREATE", "COMPLETE"),
    }
    assert _output(context, settings, database, queue, identity) == "X-changed"


def test_a_failed_update_rolls_back(context, settings, database, queue) -> None:
    identity = _create(context, settings, database, queue, disable_rollback="false")
    failing = copy.deepcopy(TEMPLATE)
    failing["resources"]["broken"] = {
        "type": "OS::Heat::TestResource",
        "properties": {"fail": True},
    }

    _update(context, settings, database, queue, identity, failing)
    queue.run_until_idle()

    row = stack_row(database, identity["stack_id"])
    assert (row.action, row.status) == ("ROLLBACK", "COMPLETE")
    assert template_row(database, row.raw_template_id).template == TEMPLATE
    assert "broken" not in states(database, identity["stack_id"])
    assert [event[:2] for event in stack_events(database, identity["stack_id"])[2:]] == [
        ("UPDATE", "IN_PROGRESS"),
        ("UPDATE", "FAILED"),
        ("ROLLBACK", "IN_PROGRESS"),
        ("ROLLBACK", "COMPLETE"),
    ]


def test_the_converge_option_travels_with_the_steps(context, settings, database, queue) -> None:
    identity = _create(context, settings, database, queue)

    _update(context, settings, database, queue, identity, TEMPLATE, args={"converge": "true"})

    assert [message.arguments["converge"] for message in queue.pending()] == [True]


def test_updating_a_suspended_stack_is_not_supported(context, settings, database, queue) -> None:
    identity = _create(context, settings, database, queue)
    set_state(database, identity["stack_id"], "SUSPEND", "COMPLETE")

    with pytest.raises(exception.NotSupported) as raised:
        _update(context, settings, database, queue, identity, TEMPLATE)

    assert str(raised.value) == "Updating a stack when it is suspended is not supported."


def test_updating_a_deleting_stack_is_not_supported(context, settings, database, queue) -> None:
    identity = _create(context, settings, database, queue)
    service.delete_stack(context, settings, database, queue, stack_identity=identity)

    with pytest.raises(exception.NotSupported) as raised:
        _update(context, settings, database, queue, identity, TEMPLATE)

    assert str(raised.value) == "Updating a stack when it is deleting is not supported."
    assert stack_row(database, identity["stack_id"]).action == "DELETE"


def test_an_immutable_parameter_may_not_change(context, settings, database, queue) -> None:
    template = copy.deepcopy(TEMPLATE)
    template["parameters"]["greeting"]["immutable"] = True
    identity = _create(context, settings, database, queue, template)

    with pytest.raises(exception.ImmutableParameterModified) as raised:
        changed = _environment(greeting="yo")
        _update(context, settings, database, queue, identity, template, params=changed)

    assert str(raised.value) == (
        "The following parameters are immutable and may not be updated: greeting"
    )


def test_the_resource_limit_applies_to_the_new_template(context, settings, database, queue) -> None:
    identity = _create(context, settings, database, queue)
    limited = dataclasses.replace(settings, max_resources_per_stack=2)

    with pytest.raises(exception.RequestLimitExceeded) as raised:
        _update(context, limited, database, queue, identity, TEMPLATE)

    assert str(raised.value) == "Request limit exceeded: Maximum resources per stack exceeded."


def test_updating_an_unknown_stack(context, settings, database, queue) -> None:
    identity = _create(context, settings, database, queue)

    with pytest.raises(exception.EntityNotFound) as raised:
        _update(context, settings, database, queue, dict(identity, stack_name="nope"), TEMPLATE)

    assert str(raised.value) == "The Stack (nope) could not be found."
