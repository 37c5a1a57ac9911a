"""``keel-bridge``: Heat's RPC topics on the ``heat`` exchange, answered by OpenKeel.

    keel-bridge [--config-file heat.conf] [--config-dir DIR] [--loglevel LEVEL]

The oslo side is heat.conf's ``transport_url``; the ``keel-worker`` fleet's broker is the
same unless ``KEEL_BROKER_URL`` names another.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence

from keel_app.cli import config_arguments
from keel_app.clients.stack_domain import StackDomainNotConfigured
from keel_app.common import config


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="keel-bridge",
        description="Serve Heat's engine RPC (oslo.messaging on RabbitMQ) with OpenKeel.",
    )
    parser.add_argument("--loglevel", default="INFO", help="Log level (default INFO).")
    config_arguments.add(parser)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    arguments, rest = build_parser().parse_known_args(argv)
    conf = config.load(config_arguments.oslo_argv(arguments) + rest)
    logging.basicConfig(level=arguments.loglevel.upper())
    # Imported after parsing, so that --help needs no broker library set-up.
    from keel_app.compat_oslo import bridge_process
    from keel_app.tasks.app import configure

    configure(conf)
    try:
        bridge_process.run(conf)
    except StackDomainNotConfigured as error:
        print(f"keel-bridge: ERROR: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
