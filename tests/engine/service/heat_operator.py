"""Heat 27.0.1's EngineService calling stack operations on a database OpenKeel wrote
(runs in the oracle).

``python heat_operator.py REQUEST`` with ``{"url", "project", "config", "calls"}``:
``config`` overrides heat.conf options, ``calls`` is a list of ``{"method",
"arguments"}``. Each method is called in turn and the threads it started (convergence
starts its traversal in one) are waited for before the next; prints the list of answers
(as the RPC layer would serialise them) or ``{"exception", "message"}``.
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
from heat.engine import resources, service, worker  # noqa: E402
from oslo_serialization import jsonutils  # noqa: E402


def wait_for_threads(engine):
    # A thread may start others (a rollback starts its traversal): wait until none runs.
    while True:
        running = [
            thread
            for group in list(engine.thread_group_mgr.groups.values())
            for thread in list(group.threads)
            if thread.is_alive()
        ]
        if not running:
            return
        for thread in running:
            thread.join()


def answer(method, *arguments, **keywords):
    try:
        return jsonutils.to_primitive(method(*arguments, **keywords), convert_instances=True)
    except Exception as error:
        # request_context wraps Heat's own errors in ExpectedException(exc_info).
        error = getattr(error, "exc_info", (None, error))[1]
        return {"exception": type(error).__name__, "message": str(error)}


def main():
    request = json.loads(sys.argv[1])
    cfg.CONF.set_override("connection", request["url"], group="database")
    # Stored credentials are used as they are: no Keystone to renew trusts with.
    cfg.CONF.set_override("deferred_auth_method", "password")
    for name, value in request.get("config", {}).items():
        cfg.CONF.set_override(name, value)
    messaging.setup("fake://")
    resources.initialise()
    engine = service.EngineService("host", "engine")
    engine.engine_id = "oracle"
    # What EngineService.start sets up, without its RPC servers.
    engine.thread_group_mgr = service.ThreadGroupManager()
    engine.worker_service = worker.WorkerService(
        "host", "engine_worker", engine.engine_id, engine.thread_group_mgr
    )
    context = heat_context.RequestContext(
        project_id=request["project"],
        user_id="user-1",
        username="alice",
        password="secret",
        is_admin=False,
        roles=["member"],
    )
    answers = []
    for call in request["calls"]:
        method = getattr(engine, call["method"])
        answers.append(answer(method, context, **call["arguments"]))
        wait_for_threads(engine)
    print(json.dumps(answers, default=str))


main()
