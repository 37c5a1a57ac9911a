"""Heat 27.0.1, pointed at a database where OpenKeel created a group and resized it,
reads the nested stack (its document, resources and template) and the parent as
OpenKeel does."""

from __future__ import annotations

import json
from typing import Any

import pytest

from keel_app.engine.service import resources as resource_service
from keel_app.engine.service import stacks as service
from tests import oracle
from tests.engine.convergence.nested import PROJECT, NestedEngine

pytestmark = pytest.mark.oracle

HEAT_READER = """
import json, logging, sys
logging.disable(logging.CRITICAL)
from oslo_config import cfg
cfg.CONF([], project="heat")
from heat.common import context, messaging
from heat.db import api as db_api
from heat.engine import resources, service


def answer(call):
    try:
        return call()
    except Exception as error:
        error = getattr(error, "exc_info", (None, error))[1]
        return {"exception": type(error).__name__, "message": str(error)}


request = json.loads(sys.argv[1])
cfg.CONF.set_override("connection", request["url"], group="database")
messaging.setup("fake://")
resources.initialise()
engine = service.EngineService("host", "engine")
engine.engine_id = "oracle"
ctx = context.RequestContext(
    project_id=request["project"], user_id="user-1", username="alice", roles=["member"]
)
child, parent = request["child"], request["parent"]
print(json.dumps({
    "child": answer(lambda: engine.show_stack(ctx, child)),
    "child_resources": answer(lambda: engine.list_stack_resources(ctx, child)),
    "child_template": answer(lambda: engine.get_template(ctx, child)),
    "parent": answer(lambda: engine.show_stack(ctx, parent, resolve_outputs=False)),
}, default=str))
"""

TEMPLATE: dict[str, Any] = {
    "heat_template_version": "2018-08-31",
    "resources": {
        "group": {
            "type": "OS::Heat::ResourceGroup",
            "properties": {
                "count": 3,
                "resource_def": {"type": "OS::Heat::Value", "properties": {"value": "v-%index%"}},
            },
        }
    },
    "outputs": {"values": {"value": {"get_attr": ["group", "value"]}}},
}


def _by_name(answer: Any) -> Any:
    if isinstance(answer, list):
        return sorted(answer, key=lambda entry: entry["resource_name"])
    return answer


def _outputs_by_key(shown: Any) -> Any:
    """Heat lists outputs in the order of a set: they are compared sorted."""
    for document in shown:
        document["outputs"] = sorted(document["outputs"], key=lambda entry: entry["output_key"])
    return shown


def test_heat_reads_the_nested_stack_as_openkeel_does(nested: NestedEngine) -> None:
    identity = nested.create(TEMPLATE)
    resized = json.loads(json.dumps(TEMPLATE))
    resized["resources"]["group"]["properties"]["count"] = 2
    nested.update(identity, resized)
    child = nested.child(identity["stack_id"])
    child_identity = {"tenant": PROJECT, "stack_name": child.name, "stack_id": child.id, "path": ""}

    def call(function: Any, **arguments: Any) -> Any:
        return function(nested.context, nested.settings, nested.database, None, **arguments)

    ours = {
        "child": call(service.show_stack, stack_identity=child_identity),
        "child_resources": _by_name(
            call(resource_service.list_stack_resources, stack_identity=child_identity)
        ),
        "child_template": call(service.get_template, stack_identity=child_identity),
        "parent": call(service.show_stack, stack_identity=identity, resolve_outputs=False),
    }
    request = {
        "url": nested.database.url.render_as_string(hide_password=False),
        "project": PROJECT,
        "child": child_identity,
        "parent": identity,
    }

    heat = oracle.run_json(HEAT_READER, json.dumps(request))
    heat["child_resources"] = _by_name(heat["child_resources"])
    heat["child"] = _outputs_by_key(heat["child"])
    ours["child"] = _outputs_by_key(ours["child"])

    assert ours["child"][0]["parent"] == identity["stack_id"]
    assert json.loads(json.dumps(ours, default=str)) == heat
