"""The read calls answer as Heat's own EngineService answers on the same database.

A stack is created (and traversed) by OpenKeel; then Heat 27.0.1, pointed at that
database, answers the same calls. Heat lists resources and outputs in the order of
a set: those lists are compared sorted.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from keel_app.engine.service import resources as resource_service
from keel_app.engine.service import stacks as service
from tests import oracle
from tests.engine.service.chain import ENVIRONMENT, TEMPLATE

HEAT_READER = Path(__file__).with_name("heat_reader.py")


def _by(key: str, entries: Any) -> Any:
    if isinstance(entries, list):
        return sorted(entries, key=lambda entry: entry[key])
    return entries


def _normalised(answers: dict[str, Any]) -> dict[str, Any]:
    answers = json.loads(json.dumps(answers))
    for name in ("resources", "resources_detail", "describe_all"):
        if name in answers:
            answers[name] = _by("resource_name", answers[name])
    answers["outputs"] = _by("output_key", answers["outputs"])
    for shown in answers["show"]:
        shown["outputs"] = _by("output_key", shown["outputs"])
    return answers


def _ours(
    context, settings, database, identity: dict[str, str], output: str = "joined"
) -> dict[str, Any]:
    def call(function: Any, **arguments: Any) -> Any:
        return function(context, settings, database, None, **arguments)

    return {
        "identify": call(service.identify_stack, stack_name="web"),
        "list": call(service.list_stacks),
        "count": call(service.count_stacks),
        "show": call(service.show_stack, stack_identity=identity),
        "show_all": call(service.show_stack, stack_identity=None, resolve_outputs=False),
        "resources": call(resource_service.list_stack_resources, stack_identity=identity),
        "resources_detail": call(
            resource_service.list_stack_resources, stack_identity=identity, with_detail=True
        ),
        "describe": call(
            resource_service.describe_stack_resource,
            stack_identity=identity,
            resource_name="second",
        ),
        "describe_all": call(
            resource_service.describe_stack_resources, stack_identity=identity, resource_name=None
        ),
        "resources_filtered": call(
            resource_service.list_stack_resources,
            stack_identity=identity,
            filters={"type": "Value", "name": ["first", "last"]},
        ),
        "events": call(resource_service.list_events, stack_identity=identity),
        "events_page": call(
            resource_service.list_events,
            stack_identity=identity,
            limit=3,
            sort_keys=["resource_type"],
            sort_dir="asc",
        ),
        "template": call(service.get_template, stack_identity=identity),
        "environment": call(service.get_environment, stack_identity=identity),
        "files": call(service.get_files, stack_identity=identity),
        "outputs": call(service.list_outputs, stack_identity=identity),
        "output": call(service.show_output, stack_identity=identity, output_key=output),
    }


def _heats(
    database, identity: dict[str, str], calls: list[str] | None = None, output: str = "joined"
) -> dict[str, Any]:
    request = {
        "calls": calls,
        "url": database.url.render_as_string(hide_password=False),
        "project": "project-a",
        "identity": identity,
        "resource": "second",
        "output": output,
    }
    return oracle.run_json(HEAT_READER.read_text(), json.dumps(request))


@pytest.fixture
def created(context, settings, database, queue) -> dict[str, str]:
    environment = json.loads(json.dumps(ENVIRONMENT))
    environment["parameters"]["secret"] = "s3"
    template = json.loads(json.dumps(TEMPLATE))
    template["parameters"]["secret"] = {"type": "string", "hidden": True}
    identity = service.create_stack(
        context,
        settings,
        database,
        queue,
        stack_name="web",
        template=template,
        params=environment,
        files={"notes.txt": "hello"},
        args={"tags": ["blue", "green"], "timeout_mins": 30},
    )
    queue.run_until_idle()
    return identity


def test_reads_of_a_created_stack_answer_as_heat(context, settings, database, created) -> None:
    ours = _normalised(_ours(context, settings, database, created))

    heat = _normalised(_heats(database, created))

    assert ours == heat


def _answer(call: Any) -> Any:
    try:
        return call()
    except Exception as error:
        return {"exception": type(error).__name__, "message": str(error)}


def test_reads_of_a_deleted_stack_answer_as_heat(
    context, settings, database, queue, created
) -> None:
    service.delete_stack(context, settings, database, queue, stack_identity=created)
    queue.run_until_idle()

    def call(function: Any, **arguments: Any) -> Any:
        return _answer(lambda: function(context, settings, database, None, **arguments))

    ours = {
        "identify": call(service.identify_stack, stack_name="web"),
        "list": call(service.list_stacks),
        "count": call(service.count_stacks),
        "show": call(service.show_stack, stack_identity=created),
        "events": call(resource_service.list_events, stack_identity=created),
        "template": call(service.get_template, stack_identity=created),
        "outputs": call(service.list_outputs, stack_identity=created),
    }

    heat = _heats(database, created, list(ours))
    assert json.loads(json.dumps(ours)) == heat


FAILING_TEMPLATE: dict[str, Any] = {
    "heat_template_version": "2018-08-31",
    "resources": {
        "first": {"type": "OS::Heat::Value", "properties": {"value": "ok"}},
        "second": {
            "type": "OS::Heat::TestResource",
            "properties": {"fail": True, "value": {"get_attr": ["first", "value"]}},
        },
    },
    "outputs": {
        "broken": {"value": {"get_attr": ["second", "output"]}},
        "fine": {"value": {"get_attr": ["first", "value"]}},
    },
}


def test_reads_of_a_failed_stack_answer_as_heat(context, settings, database, queue) -> None:
    identity = service.create_stack(
        context,
        settings,
        database,
        queue,
        stack_name="web",
        template=FAILING_TEMPLATE,
        params=dict(json.loads(json.dumps(ENVIRONMENT)), parameters={}),
        files={},
        args={},
    )
    queue.run_until_idle()
    calls = ["show", "resources", "resources_detail", "describe", "events", "outputs", "output"]

    ours = _ours(context, settings, database, identity, output="fine")
    ours = {name: ours[name] for name in calls}

    heat = _heats(database, identity, calls, output="fine")
    assert ours["show"][0]["stack_status"] == "FAILED"
    assert _normalised(ours) == _normalised(heat)
