"""The ``--config-file``/``--config-dir`` options every OpenKeel service takes, as Heat's do.

argparse declares them, so that ``--help`` lists them; oslo.config reads the files.
"""

from __future__ import annotations

import argparse


def add(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--config-file",
        action="append",
        default=[],
        metavar="PATH",
        help="A heat.conf to read; repeat for more, later files win.",
    )
    parser.add_argument(
        "--config-dir", metavar="DIR", help="A directory of *.conf files read after the files."
    )


def oslo_argv(arguments: argparse.Namespace) -> list[str]:
    """The options as oslo.config's command line takes them."""
    argv: list[str] = []
    for path in arguments.config_file:
        argv += ["--config-file", path]
    if arguments.config_dir:
        argv += ["--config-dir", arguments.config_dir]
    return argv
