"""Heat 27.0.1's EngineService reading a database that OpenKeel wrote (runs in the oracle).

``python heat_reader.py REQUEST`` with ``{"url", "project", "identity", "resource",
"output", "calls"?}``; prints each read call's answer (all of them unless ``calls``
names some), or ``{"exception", "message"}``. With ``listings`` and ``counts`` (lists of
keyword arguments) it answers only those list_stacks and count_stacks calls.
"""

import json
import logging
import sys

from oslo_config import cfg

logging.disable(logging.CRITICAL)
cfg.CONF([], project="heat")

from heat.common import context as heat_context  # noqa: E402
from heat.common import messaging  # noqa: E402
from heat.db import api as db_api  # noqa: E402, F401 - registers [database]
from heat.engine import resources, service  # noqa: E402


def answer(call):
    try:
        return call()
    except Exception as error:
        # request_context wraps Heat's own errors in ExpectedException(exc_info).
        error = getattr(error, "exc_info", (None, error))[1]
        return {"exception": type(error).__name__, "message": str(error)}


def main():
    request = json.loads(sys.argv[1])
    cfg.CONF.set_override("connection", request["url"], group="database")
    messaging.setup("fake://")
    resources.initialise()
    engine = service.EngineService("host", "engine")
    engine.engine_id = "oracle"
    context = heat_context.RequestContext(
        project_id=request["project"],
        user_id="user-1",
        username="alice",
        is_admin=False,
        roles=["member"],
    )
    identity = request["identity"]
    calls = {
        "identify": lambda: engine.identify_stack(context, "web"),
        "list": lambda: engine.list_stacks(context),
        "count": lambda: engine.count_stacks(context),
        "show": lambda: engine.show_stack(context, identity),
        "show_all": lambda: engine.show_stack(context, None, resolve_outputs=False),
        "resources": lambda: engine.list_stack_resources(context, identity),
        "resources_detail": lambda: engine.list_stack_resources(
            context, identity, with_detail=True
        ),
        "describe": lambda: engine.describe_stack_resource(context, identity, request["resource"]),
        "describe_all": lambda: engine.describe_stack_resources(context, identity, None),
        "resources_filtered": lambda: engine.list_stack_resources(
            context, identity, filters={"type": "Value", "name": ["first", "last"]}
        ),
        "events": lambda: engine.list_events(context, identity),
        "events_page": lambda: engine.list_events(
            context, identity, limit=3, sort_keys=["resource_type"], sort_dir="asc"
        ),
        "template": lambda: engine.get_template(context, identity),
        "environment": lambda: engine.get_environment(context, identity),
        "files": lambda: engine.get_files(context, identity),
        "outputs": lambda: engine.list_outputs(context, identity),
        "output": lambda: engine.show_output(context, identity, request["output"]),
    }
    if request.get("listings") is not None:
        cfg.CONF.set_override("hidden_stack_tags", request.get("hidden_stack_tags", []))
        answers = {
            "listings": [
                answer(lambda arguments=arguments: engine.list_stacks(context, **arguments))
                for arguments in request["listings"]
            ],
            "counts": [
                answer(lambda arguments=arguments: engine.count_stacks(context, **arguments))
                for arguments in request["counts"]
            ],
        }
        print(json.dumps(answers, default=str))
        return
    wanted = request.get("calls") or list(calls)
    answers = {name: answer(calls[name]) for name in wanted}
    print(json.dumps(answers, default=str))


main()
