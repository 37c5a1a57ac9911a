"""``keel-api``: the native API (heat-api v1) and the CFN API (heat-api-cfn) on a
production WSGI server.

    keel-api [--config-file heat.conf] [--config-dir DIR] [--host H] [--port P]
             [--cfn-port P] [--threads N]

The native API listens on heat.conf's ``[heat_api] bind_host``/``bind_port`` (8004), the
CFN API on ``[heat_api_cfn] bind_host``/``bind_port`` (8000), unless the flags say
otherwise (``--host`` applies to both). Both authenticate as ``[paste_deploy] flavor``
says and send every call to the engines (``keel-worker``) over heat.conf's
``transport_url``.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence

from keel_app.cli import config_arguments, glibc_malloc, metrics_endpoint, service_logging
from keel_app.common import config, startup_heap

LOG = logging.getLogger(__name__)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="keel-api", description="Serve the native API and the CFN API."
    )
    parser.add_argument("--host", help="Address to listen on ([heat_api] bind_host).")
    parser.add_argument("--port", type=int, help="Port to listen on ([heat_api] bind_port).")
    parser.add_argument(
        "--cfn-port", type=int, help="Port of the CFN API ([heat_api_cfn] bind_port)."
    )
    parser.add_argument("--threads", type=int, default=8, help="Request threads (default 8).")
    config_arguments.add(parser)
    metrics_endpoint.add_arguments(parser)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    arguments, rest = build_parser().parse_known_args(argv)
    glibc_malloc.limit_arenas()
    conf = config.load(config_arguments.oslo_argv(arguments) + rest)
    service_logging.configure(conf.debug)
    # Imported after parsing, so that --help needs neither Flask nor the broker library.
    from keel_app.web import create_app
    from keel_app.web.cfn import create_cfn_app
    from keel_app.web.server import CannotListen, listen, make_server, serve_until_stopped

    host = arguments.host or conf.heat_api.bind_host
    port = conf.heat_api.bind_port if arguments.port is None else arguments.port
    cfn_host = arguments.host or conf.heat_api_cfn.bind_host
    cfn_port = conf.heat_api_cfn.bind_port if arguments.cfn_port is None else arguments.cfn_port
    try:
        listener = listen(host, port, "--port")
        cfn_listener = listen(cfn_host, cfn_port, "--cfn-port")
    except CannotListen as error:
        print(f"keel-api: {error}", file=sys.stderr)
        return 2
    metrics_endpoint.serve(arguments, metrics_endpoint.deployment_collectors(conf, arguments))
    server = make_server(create_app({"HEAT_CONF": conf}), listener, arguments.threads)
    LOG.info("keel-api: native API on http://%s:%d/v1", host, listener.getsockname()[1])
    cfn_server = make_server(create_cfn_app({"HEAT_CONF": conf}), cfn_listener, arguments.threads)
    LOG.info("keel-api: CFN API on http://%s:%d/v1", cfn_host, cfn_listener.getsockname()[1])
    startup_heap.freeze()
    serve_until_stopped(server, cfn_server)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
