"""Stack adopt answers, refuses and stores as Heat's own EngineService does.

OpenKeel creates a stack and abandons it; Heat 27.0.1, pointed at the same database,
adopts the abandon data as one stack while OpenKeel adopts it as another. Heat's
traversal runs to its end in the oracle: its worker's casts are kept in a list and
each step is run in turn (beside the others once it waits, as a resource group's does
for its nested stack), and its engine calls are answered by the same engine. The two
stacks, and the stacks nested in them, must then hold the same rows.
"""

from __future__ import annotations

import copy
import dataclasses
import json
from collections.abc import Iterator
from typing import Any

import pytest

from keel_app.engine.service.stack_abandon import abandon_stack
from keel_app.engine.service.stack_preview import preview_stack
from keel_app.models import Event
from tests import oracle
from tests.engine.convergence.nested import PROJECT, NestedEngine, nested_engine
from tests.engine.service.stack_life import rows

pytestmark = pytest.mark.oracle

HEAT_ADOPTER = """
import json, logging, sys
logging.disable(logging.CRITICAL)
from oslo_config import cfg
cfg.CONF([], project="heat")
from heat.common import context as heat_context
from heat.common import messaging
from heat.db import api as db_api  # registers [database]
from heat.engine import resources, service, stack as parser, worker
from heat.rpc import worker_client
from oslo_serialization import jsonutils

from heat.rpc import client as engine_client
import threading, time

casts = []
worker_client.WorkerClient.cast = lambda self, ctxt, msg, version=None: casts.append(msg)
# A nested stack's engine calls are answered here, by the same engine.
engine_client.EngineClient.call = lambda self, ctxt, msg, version=None, timeout=None: (
    getattr(engine, msg[0])(ctxt, **msg[1])
)
# No Keystone here: the stack user project is the caller's, as without a stack domain.
parser.Stack.create_stack_user_project_id = lambda self: None


def answer(call):
    try:
        return jsonutils.to_primitive(call(), convert_instances=True)
    except Exception as error:
        error = getattr(error, "exc_info", (None, error))[1]
        return {"exception": type(error).__name__, "message": str(error)}


def engine_threads(engine):
    return [
        thread
        for group in list(engine.thread_group_mgr.groups.values())
        for thread in list(group.threads)
    ]


def wait_for_threads(engine):
    while True:
        running = [thread for thread in engine_threads(engine) if thread.is_alive()]
        if not running:
            # Finished threads count against the group's limit until removed.
            for group in engine.thread_group_mgr.groups.values():
                group.threads[:] = []
            return
        for thread in running:
            thread.join()


request = json.loads(sys.argv[1])
cfg.CONF.set_override("connection", request["url"], group="database")
cfg.CONF.set_override("deferred_auth_method", "password")
for name, value in request["config"].items():
    cfg.CONF.set_override(name, value)
messaging.setup("fake://")
resources.initialise()
engine = service.EngineService("host", "engine")
engine.engine_id = "oracle"
engine.thread_group_mgr = service.ThreadGroupManager()
engine.worker_service = worker.WorkerService(
    "host", "engine_worker", engine.engine_id, engine.thread_group_mgr
)
ctx = heat_context.RequestContext(
    project_id=request["project"], user_id="user-1", username="alice", password="secret",
    is_admin=False, roles=["member"],
)
answers = []
for call in request["creates"]:
    method = getattr(engine, call.pop("method", "create_stack"))
    answers.append(answer(lambda: method(ctx, **call)))
    wait_for_threads(engine)
    # The traversal's steps one after the other, each in a thread of its own: a step
    # still running after a while waits for its nested stack, whose steps then run
    # beside it.
    steps = []
    while casts or any(thread.is_alive() for thread in steps + engine_threads(engine)):
        if not casts:
            time.sleep(0.05)
            continue
        method, arguments = casts.pop(0)
        step = threading.Thread(
            target=getattr(engine.worker_service, method), args=(ctx,), kwargs=arguments
        )
        step.start()
        steps.append(step)
        step.join(timeout=3)
        wait_for_threads(engine)
    wait_for_threads(engine)
print(json.dumps(answers, default=str))
"""

TEMPLATE: dict[str, Any] = {
    "heat_template_version": "2018-08-31",
    "parameters": {"greeting": {"type": "string", "default": "hi"}},
    "resources": {
        "secret": {"type": "OS::Heat::RandomString", "properties": {"length": 12}},
        "told": {
            "type": "OS::Heat::Value",
            "properties": {
                "value": {
                    "list_join": ["-", [{"get_param": "greeting"}, {"get_resource": "secret"}]]
                }
            },
        },
        "nothing": {"type": "OS::Heat::None", "depends_on": ["told"]},
    },
    "outputs": {
        "told": {"value": {"get_attr": ["told", "value"]}},
        "secret": {"value": {"get_attr": ["secret", "value"]}},
    },
}
ENABLED = {"enable_stack_adopt": True}


@pytest.fixture
def nested(empty_database_url: str) -> Iterator[NestedEngine]:
    yield from nested_engine(empty_database_url, enable_stack_abandon=True, enable_stack_adopt=True)


GROUPED: dict[str, Any] = {
    "heat_template_version": "2018-08-31",
    "resources": {
        "group": {
            "type": "OS::Heat::ResourceGroup",
            "properties": {
                "count": 2,
                "resource_def": {"type": "OS::Heat::RandomString", "properties": {"length": 8}},
            },
        },
        "after": {"type": "OS::Heat::None", "depends_on": ["group"]},
    },
    "outputs": {"members": {"value": {"get_attr": ["group", "value"]}}},
}
GROUPED["parameters"] = {"greeting": {"type": "string"}}


@pytest.fixture
def abandoned(nested: NestedEngine) -> dict[str, Any]:
    return _abandoned(nested, TEMPLATE)


def _abandoned(nested: NestedEngine, template: dict[str, Any]) -> dict[str, Any]:
    """The data an abandon of the stack handed over, as JSON."""
    identity = nested.create(template, environment={"parameters": {"greeting": "hello"}})
    data = abandon_stack(
        nested.context, nested.settings, nested.database, nested.queue, stack_identity=identity
    )
    nested.queue.run_until_idle()
    return json.loads(json.dumps(data))


def _arguments(
    name: str, data: Any, params: dict[str, Any] | None = None, rollback: bool = False
) -> dict[str, Any]:
    template = data["template"] if isinstance(data, dict) else TEMPLATE
    text = data if isinstance(data, str) else json.dumps(data)
    return {
        "stack_name": name,
        "template": template,
        "params": params or {},
        "files": {},
        "args": {"adopt_stack_data": text, "disable_rollback": not rollback},
    }


def _heat(nested: NestedEngine, creates: list[dict[str, Any]], config: dict[str, Any]) -> Any:
    request = {
        "url": nested.database.url.render_as_string(hide_password=False),
        "project": PROJECT,
        "config": config,
        "creates": creates,
    }
    return oracle.run_json(HEAT_ADOPTER, json.dumps(request))


def _ours(nested: NestedEngine, creates: list[dict[str, Any]]) -> list[Any]:
    answers = []
    for create in copy.deepcopy(creates):
        arguments = create.pop("args")
        try:
            answers.append(
                nested.create(
                    create["template"],
                    name=create["stack_name"],
                    environment=create["params"],
                    **arguments,
                )
            )
        except Exception as error:
            answers.append({"exception": type(error).__name__, "message": str(error)})
    return answers


def _stored(nested: NestedEngine, identity: dict[str, str]) -> dict[str, Any]:
    """What an adopt leaves of a stack, the same for twins adopted from the same data."""
    stack_id = identity["stack_id"]
    row = nested.stack(stack_id)
    resources = {
        name: (
            resource.action,
            resource.status,
            resource.status_reason,
            resource.physical_resource_id,
            nested.resource_data(resource.id),
            resource.rsrc_metadata,
        )
        for name, resource in nested.resources(stack_id).items()
    }
    for child in nested.children(stack_id):
        # A nested stack's ids and names are its own: what it holds is compared.
        owner = child.parent_resource_name
        child_identity = {"stack_name": child.name, "stack_id": child.id, "tenant": PROJECT}
        resources[owner] = resources[owner][:3] + (_stored(nested, dict(child_identity, path="")),)
    # Each resource's events in order (independent resources' steps may run in any
    # order); the stack's own carry its name, and the twins' names differ.
    events: dict[str, list[tuple[str, str, str]]] = {}
    for event in rows(nested.database, Event, stack_id=stack_id):
        name = "" if event.resource_name == row.name else event.resource_name
        events.setdefault(name, []).append(
            (event.resource_action, event.resource_status, event.resource_status_reason)
        )
    return {
        "state": (row.action, row.status, row.status_reason),
        "disable_rollback": row.disable_rollback,
        "environment": nested.environment(stack_id),
        "resources": resources,
        "events": events,
        "outputs": nested.outputs(identity),
    }


def test_an_adopt_stores_what_heats_stores(nested: NestedEngine, abandoned) -> None:
    creates = [_arguments("heat", abandoned)]

    (heat,) = _heat(nested, creates, ENABLED)
    (ours,) = _ours(nested, [_arguments("ours", abandoned)])

    assert _stored(nested, ours) == _stored(nested, heat)
    assert _stored(nested, ours)["state"] == (
        "ADOPT",
        "COMPLETE",
        "Stack ADOPT completed successfully",
    )


def test_a_group_is_adopted_as_heat_adopts_it(nested: NestedEngine) -> None:
    grouped = _abandoned(nested, GROUPED)

    (heat,) = _heat(nested, [_arguments("heat", grouped)], ENABLED)
    (ours,) = _ours(nested, [_arguments("ours", grouped)])

    stored = _stored(nested, ours)
    assert stored == _stored(nested, heat)
    assert stored["resources"]["group"][3]["state"] == (
        "ADOPT",
        "COMPLETE",
        "Stack ADOPT completed successfully",
    )


def test_parameters_given_win_over_the_adopted_ones(nested: NestedEngine, abandoned) -> None:
    params = {"parameters": {"greeting": "yo"}}

    (heat,) = _heat(nested, [_arguments("heat", abandoned, params)], ENABLED)
    (ours,) = _ours(nested, [_arguments("ours", abandoned, params)])

    assert _stored(nested, ours) == _stored(nested, heat)
    secret = abandoned["resources"]["secret"]["resource_data"]["value"]
    assert nested.outputs(ours)["told"] == f"yo-{secret}"


@pytest.mark.parametrize("rollback", [False, True], ids=["no rollback", "rollback"])
def test_a_resource_missing_from_the_data_fails_as_heats(
    nested: NestedEngine, abandoned, rollback
) -> None:
    partial = copy.deepcopy(abandoned)
    del partial["resources"]["told"]

    (heat,) = _heat(nested, [_arguments("heat", partial, rollback=rollback)], ENABLED)
    (ours,) = _ours(nested, [_arguments("ours", partial, rollback=rollback)])

    assert _stored(nested, ours) == _stored(nested, heat)
    expected = ("ROLLBACK", "COMPLETE") if rollback else ("ADOPT", "FAILED")
    assert _stored(nested, ours)["state"][:2] == expected


def test_a_preview_of_an_adopt_answers_as_heat(nested: NestedEngine, abandoned) -> None:
    preview = dict(_arguments("preview", abandoned), method="preview_stack")

    (heat,) = _heat(nested, [preview], ENABLED)
    del preview["method"]
    ours = json.loads(
        json.dumps(
            preview_stack(nested.context, nested.settings, nested.database, nested.queue, **preview)
        )
    )

    def comparable(answer: dict[str, Any]) -> dict[str, Any]:
        # A preview's creation time is the time of the call; Heat lists resources and
        # outputs in the order of a set.
        resources = sorted(answer["resources"], key=lambda resource: resource["resource_name"])
        outputs = sorted(answer["outputs"], key=lambda output: output["output_key"])
        return dict(answer, creation_time=None, resources=resources, outputs=outputs)

    assert comparable(ours) == comparable(heat)
    # The adopted environment's parameter, not the template's default.
    assert ours["parameters"]["greeting"] == "hello"
    assert nested.stack_names() == ["web"]


@pytest.mark.parametrize(
    ("config", "data"),
    [
        ({}, "abandoned"),
        (ENABLED, "[1]"),
        (ENABLED, "{not: [closed"),
        (ENABLED, "just text"),
    ],
    ids=["disabled", "a list", "unparseable", "a string"],
)
def test_refusals_answer_as_heat(nested: NestedEngine, abandoned, config, data) -> None:
    if data == "abandoned":
        data = abandoned
    if not config:
        nested.settings = dataclasses.replace(nested.settings, enable_stack_adopt=False)
    creates = [_arguments("refused", data)]

    heat = _heat(nested, creates, config)
    ours = _ours(nested, creates)

    assert ours == heat
    assert "exception" in ours[0]
    assert nested.stack_names() == ["web"]
