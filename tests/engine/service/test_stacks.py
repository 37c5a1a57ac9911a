"""The stack calls of the service on real databases, up to where a traversal starts."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest
import sqlalchemy as sa

from keel_app.common import exception
from keel_app.engine.service import stacks as service
from keel_app.engine.settings import EngineSettings
from keel_app.models import Stack as StackRow
from tests import oracle

TEMPLATE: dict[str, Any] = {
    "heat_template_version": "2018-08-31",
    "description": "a greeting",
    "parameters": {
        "greeting": {"type": "string", "default": "hello"},
        "secret": {"type": "string", "hidden": True, "default": "x"},
    },
    "resources": {
        "first": {"type": "OS::Heat::Value", "properties": {"value": {"get_param": "greeting"}}},
    },
    "outputs": {
        "out": {"value": {"get_attr": ["first", "value"]}, "description": "the value"},
        "name": {"value": {"get_param": "OS::stack_name"}},
    },
}


def _environment(**parameters: Any) -> dict[str, Any]:
    return {
        "parameters": parameters,
        "parameter_defaults": {},
        "resource_registry": {},
        "event_sinks": [],
        "encrypted_param_names": [],
    }


def _stored_stack(context, settings, database, name: str = "web", **args: Any) -> Any:
    """What create_stack stores before it hands the stack to convergence."""
    stack = service.parse_and_validate_stack(
        context,
        settings,
        database,
        name,
        TEMPLATE,
        _environment(secret="s3"),
        {"f.txt": "data"},
        args,
    )
    stack.store()
    return stack


def _call(function: Any, context, settings, database, **arguments: Any) -> Any:
    return function(context, settings, database, None, **arguments)


def test_identify_stack_by_name_and_by_id(context, settings, database) -> None:
    stack = _stored_stack(context, settings, database)
    expected = {"tenant": "project-a", "stack_name": "web", "stack_id": stack.id, "path": ""}

    assert _call(service.identify_stack, context, settings, database, stack_name="web") == expected
    assert (
        _call(service.identify_stack, context, settings, database, stack_name=stack.id) == expected
    )


def test_identify_stack_of_an_unknown_name(context, settings, database) -> None:
    with pytest.raises(exception.EntityNotFound, match=r"The Stack \(nope\) could not be found."):
        _call(service.identify_stack, context, settings, database, stack_name="nope")


def test_a_new_stack_may_not_reuse_a_live_name(context, settings, database) -> None:
    _stored_stack(context, settings, database)

    with pytest.raises(exception.StackExists, match=r"The Stack \(web\) already exists."):
        _stored_stack(context, settings, database)


def test_stacks_per_tenant_are_limited(context, database) -> None:
    settings = EngineSettings(max_stacks_per_tenant=1)
    _stored_stack(context, settings, database, "one")

    with pytest.raises(exception.RequestLimitExceeded) as raised:
        _stored_stack(context, settings, database, "two")

    assert str(raised.value) == (
        "Request limit exceeded: You have reached the maximum stacks per tenant, 1. "
        "Please delete some stacks."
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({"timeout_mins": -3}, "Invalid timeout value -3"),
        (
            {"disable_rollback": "maybe"},
            'Unrecognized value "maybe" for "disable_rollback", '
            "acceptable values are: true, false.",
        ),
        ({"tags": "a"}, "Invalid tags, not a list: a"),
        ({"tags": ["a,b"]}, 'Invalid tag, "a,b" contains a comma'),
        ({"tags": ["x" * 81]}, f'Invalid tag, "{"x" * 81}" is longer than 80 characters'),
    ],
)
def test_bad_arguments_are_refused(context, settings, database, args, message) -> None:
    with pytest.raises(ValueError) as raised:
        _stored_stack(context, settings, database, **args)

    assert str(raised.value) == message
    with database.transaction() as session:
        assert session.scalars(sa.select(StackRow)).all() == []


def test_arguments_reach_the_stored_row(context, settings, database) -> None:
    stack = _stored_stack(
        context, settings, database, timeout_mins="7", disable_rollback="false", tags=["t1"]
    )

    with database.transaction() as session:
        row = session.get(StackRow, stack.id)
        assert (row.timeout, row.disable_rollback, [tag.tag for tag in row.tags]) == (
            7,
            False,
            ["t1"],
        )


def test_an_invalid_template_stores_nothing(context, settings, database) -> None:
    template = {"heat_template_version": "2018-08-31", "resources": {"r": {"type": "No::Such"}}}

    with pytest.raises(exception.StackValidationFailed):
        service.parse_and_validate_stack(
            context, settings, database, "web", template, _environment(), {}, {}
        )
    with database.transaction() as session:
        assert session.scalars(sa.select(StackRow)).all() == []


def test_stored_template_environment_and_files(context, settings, database) -> None:
    stack = _stored_stack(context, settings, database)
    identity = dict(stack.identifier())

    assert _call(service.get_template, context, settings, database, stack_identity=identity) == (
        TEMPLATE
    )
    assert _call(service.get_files, context, settings, database, stack_identity=identity) == {
        "f.txt": "data"
    }
    assert _call(service.get_environment, context, settings, database, stack_identity=identity) == {
        "parameters": {"secret": "******"},
        "parameter_defaults": {},
        "resource_registry": {"resources": {}},
        "event_sinks": [],
        "encrypted_param_names": [],
    }


def test_a_stack_of_another_project_is_not_found(context, settings, database) -> None:
    # Heat's stack_get reads in the caller's scope: the stack does not exist for them.
    stack = _stored_stack(context, settings, database)
    outsider = dataclasses.replace(context, project_id="project-b")

    with pytest.raises(exception.EntityNotFound) as raised:
        _call(
            service.get_template,
            outsider,
            settings,
            database,
            stack_identity=dict(stack.identifier()),
        )
    assert str(raised.value) == f"The Stack ({stack.name}) could not be found."


def test_an_identifier_with_the_wrong_name_is_not_found(context, settings, database) -> None:
    stack = _stored_stack(context, settings, database)
    identity = dict(stack.identifier(), stack_name="other")

    with pytest.raises(exception.EntityNotFound, match=r"The Stack \(other\) could not be found."):
        _call(service.get_template, context, settings, database, stack_identity=identity)


def test_outputs_listed_and_shown(context, settings, database) -> None:
    stack = _stored_stack(context, settings, database)
    identity = dict(stack.identifier())

    assert _call(service.list_outputs, context, settings, database, stack_identity=identity) == [
        {"output_key": "out", "description": "the value"},
        {"output_key": "name", "description": "No description given"},
    ]
    assert _call(
        service.show_output, context, settings, database, stack_identity=identity, output_key="name"
    ) == {"output_key": "name", "description": "No description given", "output_value": "web"}
    with pytest.raises(exception.NotFound, match="Specified output key nope not found."):
        _call(
            service.show_output,
            context,
            settings,
            database,
            stack_identity=identity,
            output_key="nope",
        )


HEAT_SHOW = """
import datetime, json, logging, sys
logging.disable(logging.CRITICAL)
from oslo_config import cfg
cfg.CONF([], project="heat")
from heat.common import context as heat_context
from heat.engine import api, environment, resources, stack as parser, template
resources.initialise()
request = json.loads(sys.argv[1])
context = heat_context.RequestContext(project_id="project-a", user_id="user-1",
                                      username="alice", is_admin=False)
tmpl = template.Template(request["template"],
                         env=environment.Environment(request["environment"]))
stack = parser.Stack(context, request["name"], tmpl, stack_id=request["id"],
                     tags=request["tags"], timeout_mins=request["timeout"],
                     disable_rollback=True, username="alice",
                     created_time=datetime.datetime.fromisoformat(request["created"]))
print(json.dumps(api.format_stack(stack), default=str))
"""


def test_show_stack_document_is_heats(context, settings, database) -> None:
    stack = _stored_stack(context, settings, database, tags=["t1"], timeout_mins=9)

    (ours,) = _call(
        service.show_stack, context, settings, database, stack_identity=dict(stack.identifier())
    )

    request = {
        "template": TEMPLATE,
        "environment": _environment(secret="s3"),
        "name": "web",
        "id": stack.id,
        "tags": ["t1"],
        "timeout": 9,
        "created": stack.created_time.isoformat(),
    }
    heat = oracle.run_json(HEAT_SHOW, json.dumps(request))
    # Heat's in-memory stack has not started its CREATE: only the state differs.
    heat.update(stack_action="CREATE", stack_status="IN_PROGRESS")
    # Heat lists outputs in the order of a set; ours come in template order.
    heat["outputs"].sort(key=lambda output: output["output_key"])
    assert ours["outputs"] == [heat["outputs"][1], heat["outputs"][0]]
    assert ours == dict(heat, outputs=ours["outputs"])


def _created(context, settings, database, name: str, **row: Any) -> str:
    stack = _stored_stack(context, settings, database, name)
    if row:
        with database.transaction() as session:
            stored = session.get(StackRow, stack.id)
            for column, value in row.items():
                setattr(stored, column, value)
    return str(stack.id)


def _names(answers: list[dict[str, Any]]) -> list[str]:
    return [answer["stack_name"] for answer in answers]


def test_list_stacks_newest_first_with_filters_tags_and_paging(context, settings, database) -> None:
    import datetime

    base = datetime.datetime(2026, 1, 1)
    ids = {}
    for offset, name in enumerate(["a", "b", "c", "d"]):
        ids[name] = _created(
            context,
            settings,
            database,
            name,
            created_at=base + datetime.timedelta(minutes=offset),
            status="COMPLETE" if name in "ab" else "FAILED",
        )
    with database.transaction() as session:
        from keel_app.models import StackTag

        session.add_all(
            [
                StackTag(stack_id=ids["a"], tag="red"),
                StackTag(stack_id=ids["b"], tag="red"),
                StackTag(stack_id=ids["b"], tag="blue"),
            ]
        )

    def listed(**arguments: Any) -> list[str]:
        return _names(_call(service.list_stacks, context, settings, database, **arguments))

    assert listed() == ["d", "c", "b", "a"]
    assert listed(sort_keys=["stack_name"], sort_dir="asc") == ["a", "b", "c", "d"]
    assert listed(filters={"stack_status": "CREATE_FAILED"}) == ["d", "c"]
    assert listed(filters={"stack_name": ["a", "c"]}) == ["c", "a"]
    assert listed(tags=["red", "blue"]) == ["b"]
    assert listed(tags_any=["red", "blue"]) == ["b", "a"]
    assert listed(not_tags=["red", "blue"]) == ["d", "c", "a"]
    assert listed(not_tags_any=["blue"]) == ["d", "c", "a"]
    assert listed(limit=2, marker=ids["c"]) == ["b", "a"]
    hiding = dataclasses.replace(settings, hidden_stack_tags=("red",))
    assert _names(_call(service.list_stacks, context, hiding, database)) == ["d", "c"]
    assert _call(service.count_stacks, context, hiding, database) == 2
    assert _call(service.count_stacks, context, settings, database, tags_any=["red"]) == 2
    outsider = dataclasses.replace(context, project_id="project-b")
    assert _call(service.list_stacks, outsider, settings, database) == []
    assert _names(_call(service.list_stacks, outsider, settings, database, tenant_safe=False)) == [
        "d",
        "c",
        "b",
        "a",
    ]


def test_listing_shows_the_rows_document(context, settings, database) -> None:
    stack_id = _created(context, settings, database, "web")

    (answer,) = _call(service.list_stacks, context, settings, database)

    with database.transaction() as session:
        row = session.get(StackRow, stack_id)
        created = row.created_at.strftime("%Y-%m-%dT%H:%M:%SZ")
    assert answer == {
        "stack_identity": {
            "tenant": "project-a",
            "stack_name": "web",
            "stack_id": stack_id,
            "path": "",
        },
        "stack_name": "web",
        "description": "",
        "stack_action": "CREATE",
        "stack_status": "IN_PROGRESS",
        "stack_status_reason": "",
        "creation_time": created,
        "updated_time": None,
        "deletion_time": None,
        "stack_owner": "alice",
        "parent": None,
        "stack_user_project_id": None,
        "tags": None,
    }


def test_a_resource_not_created_yet_shows_its_template_metadata(
    context, settings, database
) -> None:
    from keel_app.engine.service import resources as resource_service

    template = {
        "heat_template_version": "2018-08-31",
        "resources": {"r": {"type": "OS::Heat::None", "metadata": {"role": "db"}}},
    }
    stack = service.parse_and_validate_stack(
        context, settings, database, "web", template, _environment(), {}, {}
    )
    stack.store()

    described = resource_service.describe_stack_resource(
        context,
        settings,
        database,
        None,
        stack_identity=dict(stack.identifier()),
        resource_name="r",
    )

    assert (described["resource_action"], described["metadata"], described["creation_time"]) == (
        "INIT",
        {"role": "db"},
        None,
    )


def test_adopting_is_not_supported(context, settings, database) -> None:
    with pytest.raises(exception.NotSupported, match="Stack Adopt is not supported."):
        _stored_stack(context, settings, database, adopt_stack_data='{"resources": {}}')
