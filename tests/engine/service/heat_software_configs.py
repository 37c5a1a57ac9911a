"""Heat 27.0.1's EngineService making and reading software configs on a database
(runs in the oracle).

``python heat_software_configs.py REQUEST`` with ``{"url", "project", "is_admin",
"calls": [[method, arguments], ...]}``; prints each call's answer in turn, or
``{"exception", "message"}``.
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
        is_admin=request.get("is_admin", False),
        roles=["admin"] if request.get("is_admin") else ["member"],
    )
    answers = [
        answer(
            lambda method=method, arguments=arguments: getattr(engine, method)(context, **arguments)
        )
        for method, arguments in request["calls"]
    ]
    print(json.dumps(answers, default=str))


main()
