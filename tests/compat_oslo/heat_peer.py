"""Heat's own RPC client, run in the oracle's environment as a peer of the bridge.

    <oracle python> heat_peer.py <transport_url>

Reads one JSON request a line on standard input and answers one JSON line on standard
output. A request names an ``EngineClient`` method of Heat's (``heat.rpc.client``) with
its keyword arguments, or, with ``"raw": true``, any method on any topic, server and
version through oslo.messaging's RPCClient configured as Heat configures it. The answer
is ``{"result": ...}`` or ``{"error": {...}}`` describing the exception the client raised.
This file is run by the oracle's interpreter, never imported by the test suite.
"""

import json
import sys

from oslo_config import cfg


def context_of(values):
    from heat.common import context

    return context.RequestContext(**values)


def describe(error):
    import oslo_messaging
    from heat.common import exception

    return {
        "type": type(error).__name__,
        "module": type(error).__module__,
        "is_heat_exception": isinstance(error, exception.HeatException),
        "heat_class": next(
            (
                cls.__name__
                for cls in type(error).__mro__
                if cls.__module__ == "heat.common.exception"
            ),
            None,
        ),
        "is_remote_error": isinstance(error, oslo_messaging.RemoteError),
        "is_timeout": isinstance(error, oslo_messaging.MessagingTimeout),
        "exc_type": getattr(error, "exc_type", None),
        "value": getattr(error, "value", None),
        "message": str(error).split("\n")[0],
    }


def main():
    from heat.common import (
        config,  # noqa: F401  (registers Heat's options)
        messaging,
    )

    cfg.CONF([], project="heat", default_config_files=[])
    messaging.setup(sys.argv[1])
    from heat.rpc import client

    engine = client.EngineClient()
    print(json.dumps({"ready": True}), flush=True)
    for line in sys.stdin:
        request = json.loads(line)
        context = context_of(request.get("context") or {})
        try:
            if request.get("raw"):
                rpc = messaging.get_rpc_client(
                    topic=request["topic"],
                    server=request.get("server"),
                    version=request.get("version", "1.0"),
                )
                rpc = rpc.prepare(
                    timeout=request.get("timeout", 10),
                    call_monitor_timeout=request.get("call_monitor_timeout"),
                )
                if request.get("cast"):
                    rpc.cast(context, request["method"], **request.get("kwargs", {}))
                    result = None
                else:
                    result = rpc.call(context, request["method"], **request.get("kwargs", {}))
            else:
                method = getattr(engine, request["method"])
                result = method(context, **request.get("kwargs", {}))
            answer = {"result": result}
        except Exception as error:
            answer = {"error": describe(error)}
        print(json.dumps(answer, default=str), flush=True)


if __name__ == "__main__":
    main()
