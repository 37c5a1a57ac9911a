"""Heat 27.0.1's EngineService signalling resources of a stack that OpenKeel stored
(runs in the oracle).

``python heat_signaller.py REQUEST`` with ``{"url", "project", "identity", "signals":
[{"resource", "details", "sync_call"}]}``; prints, for each signal in turn, its answer
or ``{"exception", "message"}``.
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
    engine.thread_group_mgr = service.ThreadGroupManager()
    context = heat_context.RequestContext(
        project_id=request["project"],
        user_id="user-1",
        username="alice",
        is_admin=False,
        roles=["member"],
    )
    answers = []
    for signal in request["signals"]:
        answers.append(
            answer(
                lambda signal=signal: engine.resource_signal(
                    context,
                    request["identity"],
                    signal["resource"],
                    signal["details"],
                    sync_call=signal.get("sync_call", False),
                )
            )
        )
        # A signal handled in a thread of its own is waited for before the next: joined
        # first, since stopping the group may drop a thread that has not run yet.
        group = engine.thread_group_mgr.groups.get(request["identity"]["stack_id"])
        for thread in list(group.threads) if group is not None else []:
            thread.join()
        engine.thread_group_mgr.stop(request["identity"]["stack_id"], graceful=True)
    print(json.dumps(answers, default=str))


main()
