"""Every served engine call through EngineClient over the local transport, on each
database: Heat's argument names in, the service's answer out in its JSON shape."""

from __future__ import annotations

import datetime
from typing import Any

import sqlalchemy as sa

from keel_app.common import jsonwire
from keel_app.engine.service import stacks as stack_service
from keel_app.models import Stack as StackRow
from tests.engine.conftest import PROJECT
from tests.engine.service.chain import ENVIRONMENT, TEMPLATE
from tests.rpc.conftest import create_web_stack

HOT_VERSION = "heat_template_version.2018-08-31"


def _stack_row(database, stack_id: str) -> StackRow:
    with database.transaction() as session:
        return session.scalars(sa.select(StackRow).where(StackRow.id == stack_id)).one()


def test_create_stack_answers_the_identifier_and_starts_the_traversal(
    local_client, context, database, queue
) -> None:
    identity = create_web_stack(local_client, context)

    assert identity == {
        "stack_name": "web",
        "stack_id": identity["stack_id"],
        "tenant": PROJECT,
        "path": "",
    }
    row = _stack_row(database, identity["stack_id"])
    assert (row.action, row.status, row.current_traversal is not None) == (
        "CREATE",
        "IN_PROGRESS",
        True,
    )
    assert [message.method for message in queue.pending()] == ["check_resource"]


def test_create_stack_passes_the_api_args(local_client, context, database) -> None:
    identity = create_web_stack(local_client, context, timeout_mins=7, disable_rollback=False)

    row = _stack_row(database, identity["stack_id"])
    assert (row.timeout, row.disable_rollback) == (7, False)


def test_internal_create_stack_passes_the_nesting_arguments(
    local_client, context, database, identity
) -> None:
    child = local_client._create_stack(
        context,
        "web-child",
        TEMPLATE,
        ENVIRONMENT,
        {},
        {},
        owner_id=identity["stack_id"],
        nested_depth=1,
    )

    row = _stack_row(database, child["stack_id"])
    assert (row.owner_id, row.nested_depth) == (identity["stack_id"], 1)


def test_identify_stack(local_client, context, identity) -> None:
    assert local_client.identify_stack(context, "web") == identity


def test_show_stack_answers_json(local_client, context, identity) -> None:
    (shown,) = local_client.show_stack(context, identity)

    assert (shown["stack_name"], shown["stack_action"], shown["stack_status"]) == (
        "web",
        "CREATE",
        "COMPLETE",
    )
    outputs = {output["output_key"]: output["output_value"] for output in shown["outputs"]}
    assert (sorted(outputs), outputs["joined"]) == (["joined", "last_id"], "X-hello")
    # A datetime answers as the text a JSON reply carries.
    datetime.datetime.fromisoformat(shown["creation_time"])
    assert isinstance(shown["creation_time"], str)


def test_show_stack_without_outputs(local_client, context, identity) -> None:
    (shown,) = local_client.show_stack(context, identity, resolve_outputs=False)

    assert "outputs" not in shown


def test_show_stack_is_the_service_answer_as_json(
    local_client, context, settings, database, identity
) -> None:
    direct = stack_service.show_stack(
        context, settings, database, None, stack_identity=identity, resolve_outputs=True
    )

    assert local_client.show_stack(context, identity) == jsonwire.to_primitive(direct)


def test_list_and_count_stacks(local_client, context, identity) -> None:
    listed = local_client.list_stacks(context, sort_keys=("stack_name",), limit=5)

    assert [(stack["stack_name"], stack["stack_status"]) for stack in listed] == [
        ("web", "COMPLETE")
    ]
    assert local_client.count_stacks(context) == 1
    assert local_client.count_stacks(context, tags=["nothing-has-it"]) == 0


def test_delete_stack(local_client, context, database, queue, identity) -> None:
    assert local_client.delete_stack(context, identity) is None
    queue.run_until_idle()

    row = _stack_row(database, identity["stack_id"])
    assert (row.action, row.status) == ("DELETE", "COMPLETE")


def test_delete_stack_cast_answers_nothing(local_client, context, database, queue, identity):
    assert local_client.delete_stack(context, identity, cast=True) is None
    queue.run_until_idle()

    assert _stack_row(database, identity["stack_id"]).action == "DELETE"


def test_template_environment_and_files(local_client, context, identity) -> None:
    assert local_client.get_template(context, identity) == TEMPLATE
    assert local_client.get_environment(context, identity) == {
        **ENVIRONMENT,
        "resource_registry": {"resources": {}},
    }
    assert local_client.get_files(context, identity) == {}


def test_outputs(local_client, context, identity) -> None:
    listed = local_client.list_outputs(context, identity)
    shown = local_client.show_output(context, identity, "joined")

    assert sorted(output["output_key"] for output in listed) == ["joined", "last_id"]
    assert (shown["output_key"], shown["output_value"], shown["description"]) == (
        "joined",
        "X-hello",
        "both",
    )


def test_resources(local_client, context, identity) -> None:
    listed = local_client.list_stack_resources(context, identity, filters={"type": "Value"})
    described = local_client.describe_stack_resource(context, identity, "second")
    all_described = local_client.describe_stack_resources(context, identity, None)

    assert sorted(resource["resource_name"] for resource in listed) == ["first", "second"]
    assert (described["resource_name"], described["resource_status"]) == (
        "second",
        "COMPLETE",
    )
    assert described["required_by"] == ["last"]
    assert sorted(resource["resource_name"] for resource in all_described) == [
        "first",
        "last",
        "second",
    ]


def test_list_events(local_client, context, identity) -> None:
    events = local_client.list_events(context, identity, sort_dir="asc", sort_keys=["created_at"])

    assert [(event["resource_name"], event["resource_status"]) for event in events][:2] == [
        ("web", "IN_PROGRESS"),
        ("first", "IN_PROGRESS"),
    ]
    assert all(isinstance(event["event_time"], str) for event in events)


def test_template_catalog(local_client, context) -> None:
    versions = local_client.list_template_versions(context)
    functions = local_client.list_template_functions(context, HOT_VERSION, with_condition=True)

    aliases = ["heat_template_version.rocky"]
    assert {"version": HOT_VERSION, "type": "hot", "aliases": aliases} in versions
    names = {function["functions"] for function in functions}
    assert {"get_attr", "str_replace", "equals"} <= names


def test_resource_type_catalog(local_client, context) -> None:
    types = local_client.list_resource_types(context, type_name="OS::Heat::No.*")
    schema = local_client.resource_schema(context, "OS::Heat::None")
    generated = local_client.generate_template(context, "OS::Heat::None", template_type="hot")

    assert "OS::Heat::None" in types
    assert schema["resource_type"] == "OS::Heat::None"
    assert generated["heat_template_version"] == "2016-10-14"
    assert generated["resources"]["NoneResource"]["type"] == "OS::Heat::None"


def test_validate_template(local_client, context) -> None:
    answer = local_client.validate_template(context, TEMPLATE, params=ENVIRONMENT)

    assert answer["Description"] == "values in a chain"
    assert answer["Parameters"]["greeting"]["Default"] == "hi"


def test_get_revision(local_client, context, settings) -> None:
    assert local_client.get_revision(context) == settings.heat_revision


def _answer_types(answer: Any) -> set[type]:
    if isinstance(answer, dict):
        return {dict}.union(*(_answer_types(value) for value in answer.values()))
    if isinstance(answer, list):
        return {list}.union(*(_answer_types(value) for value in answer))
    return {type(answer)}


def test_answers_hold_only_json_types(local_client, context, identity) -> None:
    answers = [
        local_client.show_stack(context, identity),
        local_client.list_stacks(context),
        local_client.list_stack_resources(context, identity, with_detail=True),
        local_client.list_events(context, identity),
        local_client.list_resource_types(context, type_name="OS::Heat::.*"),
    ]

    assert _answer_types(answers) <= {dict, list, str, int, float, bool, type(None)}
