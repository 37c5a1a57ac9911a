"""``keel all-in-one``: the native API, the CFN API and an engine in one process, on the
embedded default.

    keel all-in-one [--host 127.0.0.1] [--port 8004] [--cfn-port 8000] [--state-dir DIR]
                    [--config-file FILE] [--engine-threads N]

With no configuration file: SQLite in the state directory (``$KEEL_STATE_DIR``, by default
``~/.local/share/openkeel``), the convergence steps on threads of this process instead of
a broker, and the ``noauth`` flavor (``X-Auth-User``/``X-Auth-Project`` name the caller).
A configuration file may name another database; a flavor it names wins over noauth.
The database is taken to the head revision at start.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from typing import Any

from keel_app.cli import config_arguments, glibc_malloc, metrics_endpoint, service_logging
from keel_app.clients.stack_domain import StackDomainNotConfigured
from keel_app.common import config, startup_heap
from keel_app.web.auth_noauth import DEFAULT_IDENTITY

LOG = logging.getLogger(__name__)

NOAUTH_FLAVOR = "noauth"
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8004
DEFAULT_CFN_PORT = 8000

DESCRIPTION = """\
Run the native API (heat-api v1), the CFN API (heat-api-cfn) and an engine in one
process, with no external service: SQLite in the state directory, convergence steps on
threads of this process, and no Keystone (the noauth flavor: every caller is an admin;
X-Auth-User and X-Auth-Project name the user and project, both "admin" when absent).
"""


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "all-in-one",
        help="Run the API and an engine in one process on the embedded default.",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--host", default=DEFAULT_HOST, help=f"Address (default {DEFAULT_HOST}).")
    parser.add_argument(
        "--port", type=int, default=DEFAULT_PORT, help=f"Port (default {DEFAULT_PORT})."
    )
    parser.add_argument(
        "--cfn-port",
        type=int,
        default=DEFAULT_CFN_PORT,
        help=f"Port of the CFN API (default {DEFAULT_CFN_PORT}).",
    )
    parser.add_argument("--state-dir", help="Directory of the SQLite database.")
    config_arguments.add(parser)
    parser.add_argument("--engine-threads", type=int, default=4, help="Engine threads (4).")
    metrics_endpoint.add_arguments(parser)
    parser.set_defaults(handler=run)


def load_conf(arguments: argparse.Namespace) -> Any:
    if arguments.state_dir:
        os.environ[config.STATE_DIR_ENV] = os.path.abspath(arguments.state_dir)
    # An explicit file is all that is read: the machine's /etc/heat belongs to a real Heat.
    conf = config.load(config_arguments.oslo_argv(arguments), default_config_files=[])
    if not conf.paste_deploy.flavor:
        conf.set_override("flavor", NOAUTH_FLAVOR, group="paste_deploy")
    return conf


def run(arguments: argparse.Namespace) -> int:
    conf = load_conf(arguments)
    glibc_malloc.limit_arenas()
    # A service logs whether or not `keel -v` was given: each request, each error.
    service_logging.configure(conf.debug)
    # Imported here: `keel template validate` needs neither the engine nor a server.
    from keel_app.cli import embedded_catalog, embedded_engine
    from keel_app.web import create_app
    from keel_app.web.cfn import create_cfn_app
    from keel_app.web.server import (
        CannotListen,
        listen,
        make_server,
        serve_until_stopped,
    )

    # The ports first: a busy one stops the command before anything is written.
    try:
        listener = listen(arguments.host, arguments.port, "--port")
        cfn_listener = listen(arguments.host, arguments.cfn_port, "--cfn-port")
    except CannotListen as error:
        print(f"keel all-in-one: {error}", file=sys.stderr)
        return 2
    # Port 0 means any: the catalog names the ports the sockets got.
    port = listener.getsockname()[1]
    cfn_port = cfn_listener.getsockname()[1]
    embedded_catalog.install(conf, config.state_dir(), arguments.host, port, cfn_port)
    try:
        engine = embedded_engine.start(conf, threads=arguments.engine_threads)
    except StackDomainNotConfigured as error:
        print(f"keel all-in-one: ERROR: {error}", file=sys.stderr)
        return 1
    deployment = metrics_endpoint.DeploymentCollector(engine.database, arguments.metrics_lock_age)
    metrics_endpoint.serve(arguments, [deployment])
    app = create_app({"HEAT_CONF": conf, "ENGINE_CLIENT": engine.client})
    server = make_server(app, listener)
    cfn_app = create_cfn_app({"HEAT_CONF": conf, "ENGINE_CLIENT": engine.client})
    cfn_server = make_server(cfn_app, cfn_listener)
    print(
        f"OpenKeel all-in-one: native API on http://{arguments.host}:{port}/v1/"
        f"{DEFAULT_IDENTITY} (database {config.database_url(conf)})",
        flush=True,
    )
    print(
        f"OpenKeel all-in-one: CFN API on http://{arguments.host}:{cfn_port}/v1/",
        flush=True,
    )
    startup_heap.freeze()
    try:
        serve_until_stopped(server, cfn_server)
    finally:
        engine.stop()
    return 0
