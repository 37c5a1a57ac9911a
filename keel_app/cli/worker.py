"""``keel-worker``: one OpenKeel engine process (Celery worker) for a heat.conf.

    keel-worker [--config-file heat.conf] [--config-dir DIR] [--concurrency N] [--loglevel LEVEL]

The broker is heat.conf's ``transport_url`` (``KEEL_BROKER_URL`` overrides it), the
database ``[database]/connection``. Run one per core: each is an engine of its own.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence

from keel_app.cli import config_arguments, glibc_malloc, metrics_endpoint
from keel_app.clients.stack_domain import StackDomainNotConfigured
from keel_app.common import config

DEFAULT_CONCURRENCY = 8


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="keel-worker", description="Run one OpenKeel engine (a Celery worker)."
    )
    parser.add_argument(
        "--concurrency",
        type=int,
        default=DEFAULT_CONCURRENCY,
        help=f"Worker threads (default {DEFAULT_CONCURRENCY}).",
    )
    parser.add_argument("--loglevel", default="INFO", help="Celery log level (default INFO).")
    config_arguments.add(parser)
    metrics_endpoint.add_arguments(parser)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    arguments, rest = build_parser().parse_known_args(argv)
    glibc_malloc.limit_arenas()
    conf = config.load(config_arguments.oslo_argv(arguments) + rest)
    logging.basicConfig(level=arguments.loglevel.upper())
    # Imported after parsing, so that --help needs no broker library set-up.
    from keel_app.tasks import worker_process

    # The worker's own counts (steps, statements, retries); the API shows the deployment's.
    metrics_endpoint.serve(arguments)
    try:
        worker_process.run(conf, concurrency=arguments.concurrency, loglevel=arguments.loglevel)
    except StackDomainNotConfigured as error:
        print(f"keel-worker: ERROR: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
