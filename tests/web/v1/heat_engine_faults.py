"""The error bodies Heat 27.0.1's heat-api answers when its engine refuses a call (runs in
the oracle).

``python heat_engine_faults.py REQUEST`` with ``{"url", "project", "calls"}`` (and, for a
caller of a real Keystone, ``"keystone": {"auth_url", "user_id", "token", "token_info",
"region"}``): each call ``{"method", "arguments"}`` goes to Heat's EngineService on that
database; a refusal crosses oslo.messaging's failure serialisation both ways, as it does
between heat-engine and heat-api, and heat-api's fault middleware turns it into its body.
Prints the list of bodies (``null`` for a call that succeeded).
"""

import json
import logging
import sys

from oslo_config import cfg
from oslo_log import log

logging.disable(logging.CRITICAL)
log.register_options(cfg.CONF)
cfg.CONF([], project="heat")

from heat.api.middleware.fault import FaultWrapper  # noqa: E402
from heat.common import context as heat_context  # noqa: E402
from heat.common import messaging  # noqa: E402
from heat.db import api as db_api  # noqa: E402, F401 - registers [database]
from heat.engine import resources, service  # noqa: E402
from oslo_messaging._drivers import common as oslo_common  # noqa: E402


def fault_body(error):
    # request_context wraps Heat's own errors in ExpectedException(exc_info); the RPC
    # server replies with the wrapped one.
    exc_info = getattr(error, "exc_info", None) or (type(error), error, error.__traceback__)
    data = oslo_common.serialize_remote_exception(exc_info)
    rebuilt = oslo_common.deserialize_remote_exception(data, ["heat.common.exception"])
    return FaultWrapper(None)._error(rebuilt)


def main():
    request = json.loads(sys.argv[1])
    cfg.CONF.set_override("connection", request["url"], group="database")
    # Stored credentials are used as they are: no Keystone to renew trusts with.
    cfg.CONF.set_override("deferred_auth_method", "password")
    messaging.setup("fake://")
    resources.initialise()
    engine = service.EngineService("host", "engine")
    engine.engine_id = "oracle"
    keystone = request.get("keystone")
    if keystone is None:
        context = heat_context.RequestContext(
            project_id=request["project"], user_id="alice", username="alice", is_admin=False
        )
    else:
        cfg.CONF.set_override("auth_uri", keystone["auth_url"], group="clients_keystone")
        context = heat_context.RequestContext(
            project_id=request["project"],
            user_id=keystone["user_id"],
            username="alice",
            auth_url=keystone["auth_url"],
            auth_token=keystone["token"],
            auth_token_info=keystone["token_info"],
            region_name=keystone["region"],
            is_admin=False,
        )
    bodies = []
    for call in request["calls"]:
        try:
            getattr(engine, call["method"])(context, **call["arguments"])
            bodies.append(None)
        except Exception as error:
            bodies.append(fault_body(error))
    print(json.dumps(bodies))


main()
