"""``keel-manage``: heat-manage's sub-commands, arguments, output and exit codes.

Options come from heat.conf (``--config-file``/``--config-dir``) and the sub-command from
an oslo.config ``SubCommandOpt``, as heat-manage parses them. A failing command prints
``ERROR: <message>`` on standard error and exits with 1.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

from oslo_config import cfg

from keel_app.cli.package_version import package_version
from keel_app.common import config
from keel_app.common.context import admin_context
from keel_app.common.exception import (
    ActionInProgress,
    ActionNotComplete,
    Error,
    NotFound,
    NotSupported,
)
from keel_app.models import migration
from keel_app.models.database import Database
from keel_app.models.maintenance import (
    parameter_encryption,
    purge,
    resource_data,
    services,
    stack_status,
)

PROG = "keel-manage"
SERVICE_FORMAT = "%-16s %-16s %-36s %-10s %-10s %-10s %-10s"
RESOURCE_DATA_FORMAT = "%-16s %-64s"
LOG_FORMAT = "%(asctime)s.%(msecs)03d %(process)d %(levelname)s %(name)s [-] %(message)s"

LOG = logging.getLogger(__name__)

Command = Callable[[cfg.ConfigOpts], None]


@contextmanager
def _database(conf: cfg.ConfigOpts) -> Iterator[Database]:
    database = Database.from_conf(conf)
    try:
        yield database
    finally:
        database.dispose()


def _encryption_key(conf: cfg.ConfigOpts) -> str:
    return str(conf.auth_encryption_key)


def db_version(conf: cfg.ConfigOpts) -> None:
    with _database(conf) as database:
        print(migration.db_version(database.engine))


def db_sync(conf: cfg.ConfigOpts) -> None:
    with _database(conf) as database:
        LOG.info("Applying migration(s)")
        migration.db_sync(database.engine, conf.command.version)
        LOG.info("Migration(s) applied")


def service_list(conf: cfg.ConfigOpts) -> None:
    with _database(conf) as database:
        states = services.list_services(database)
    print(
        SERVICE_FORMAT
        % ("Hostname", "Binary", "Engine_Id", "Host", "Topic", "Status", "Updated At")
    )
    for state in states:
        print(
            SERVICE_FORMAT
            % (
                state.hostname,
                state.binary,
                state.engine_id,
                state.host,
                state.topic,
                state.status,
                state.updated_at,
            )
        )


def service_clean(conf: cfg.ConfigOpts) -> None:
    with _database(conf) as database:
        services.clean_services(database)
    print("Dead engines are removed.")


def resource_data_list(conf: cfg.ConfigOpts) -> None:
    with _database(conf) as database:
        data = resource_data.resource_data_get_all(
            database, conf.command.resource_id, _encryption_key(conf)
        )
    for key, value in data.items():
        print(RESOURCE_DATA_FORMAT % (key, value))


def reset_stack_status(conf: cfg.ConfigOpts) -> None:
    print(
        "Warning: this command is potentially destructive and only "
        "intended to recover from specific crashes."
    )
    print("It is advised to shutdown all Heat engines beforehand.")
    print("Continue ? [y/N]")
    if not input().lower().startswith("y"):
        return
    with _database(conf) as database:
        stack_status.reset_stack_status(database, conf.command.stack_id)


def _engine_up(database: Database) -> Callable[[str], bool]:
    """Whether an engine holding a lock still runs, as its heartbeat row says: this
    process has no engine to ask it as heat-manage's does."""

    def engine_up(engine_id: str) -> bool:
        states = services.list_services(database)
        return any(state.engine_id == engine_id and state.status == "up" for state in states)

    return engine_up


def migrate_convergence_1(conf: cfg.ConfigOpts) -> None:
    # The engine's own code (heat-manage reaches it by RPC), loaded by this command
    # only: the others need no engine.
    from keel_app.engine.service.convergence_migration import migrate_stack_tree
    from keel_app.engine.settings import from_conf

    stack_id = conf.command.stack_id
    with _database(conf) as database:
        try:
            migrate_stack_tree(
                admin_context(), from_conf(conf), database, stack_id, _engine_up(database)
            )
        except NotFound:
            raise Error(f"Stack with id {stack_id} can not be found.") from None
        except (NotSupported, ActionNotComplete, ActionInProgress) as error:
            raise Error(error.message) from None


def purge_deleted(conf: cfg.ConfigOpts) -> None:
    with _database(conf) as database:
        purge.purge_deleted(
            database,
            conf.command.age,
            conf.command.granularity,
            conf.command.project_id,
            conf.command.batch_size,
        )


def update_params(conf: cfg.ConfigOpts) -> None:
    key = conf.command.previous_encryption_key
    if key is None:
        key = _encryption_key(conf)
    if conf.command.crypt_operation == "encrypt":
        crypt_all = parameter_encryption.encrypt_parameters_and_properties
    else:
        crypt_all = parameter_encryption.decrypt_parameters_and_properties
    with _database(conf) as database:
        crypt_all(database, key, verbose=conf.command.verbose_update_params)


def migrate_properties_data(conf: cfg.ConfigOpts) -> None:
    print(
        "This command has been deprecated and is now a no-op. "
        "It will be removed in a future release."
    )


def _add_command_parsers(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    def command(name: str, function: Command) -> argparse.ArgumentParser:
        parser = subparsers.add_parser(name)
        parser.set_defaults(func=function)
        return parser

    command("db_version", db_version)
    command("db_sync", db_sync).add_argument("version", nargs="?")
    command("migrate_convergence_1", migrate_convergence_1).add_argument("stack_id")

    parser = command("purge_deleted", purge_deleted)
    parser.add_argument("age", nargs="?", default="90", help="How long to preserve deleted data.")
    parser.add_argument(
        "-g",
        "--granularity",
        default="days",
        choices=["days", "hours", "minutes", "seconds"],
        help="Granularity to use for age argument, defaults to days.",
    )
    parser.add_argument("-p", "--project-id", help="Project ID to purge deleted stacks.")
    parser.add_argument(
        "-b",
        "--batch_size",
        default="20",
        help="Number of stacks to delete at a time (per transaction). Note that a single "
        "stack may have many DB rows (events, etc.) associated with it.",
    )

    parser = command("update_params", update_params)
    parser.add_argument(
        "crypt_operation",
        choices=["encrypt", "decrypt"],
        help="Valid values are encrypt or decrypt. The heat-engine processes must be "
        "stopped to use this.",
    )
    parser.add_argument(
        "previous_encryption_key",
        nargs="?",
        default=None,
        help="Provide old encryption key. New encryption key would be used from config file.",
    )
    parser.add_argument(
        "--verbose-update-params",
        action="store_true",
        help="Print an INFO message when processing of each raw_template or resource "
        "begins or ends",
    )

    command("resource_data_list", resource_data_list).add_argument(
        "resource_id", help="Stack resource id"
    )
    command("reset_stack_status", reset_stack_status).add_argument("stack_id", help="Stack id")
    command("migrate_properties_data", migrate_properties_data)

    # Like heat-manage, "service" alone selects no function and fails when run.
    actions = subparsers.add_parser("service").add_subparsers(dest="action")
    actions.add_parser("list").set_defaults(func=service_list)
    actions.add_parser("clean").set_defaults(func=service_clean)


@contextmanager
def _logging_to_stderr(conf: cfg.ConfigOpts) -> Iterator[None]:
    """INFO and above on standard error while the command runs, as heat-manage logs."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter(LOG_FORMAT, datefmt="%Y-%m-%d %H:%M:%S"))
    root = logging.getLogger()
    level = root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG if "debug" in conf and conf.debug else logging.INFO)
    try:
        yield
    finally:
        root.removeHandler(handler)
        root.setLevel(level)


def main(argv: Sequence[str] | None = None) -> int:
    conf = config.build_conf()
    conf.register_cli_opt(
        cfg.SubCommandOpt(
            "command",
            title="Commands",
            help="Show available commands.",
            handler=_add_command_parsers,
        )
    )
    arguments = list(sys.argv[1:] if argv is None else argv)
    try:
        conf(
            arguments,
            project=config.PROJECT,
            prog=PROG,
            version=package_version(),
            default_config_files=cfg.find_config_files("heat", "heat-engine"),
            validate_default_values=True,
        )
    except SystemExit as exit_request:
        # argparse's own exits: --help, --version, and usage errors (status 2).
        return exit_request.code if isinstance(exit_request.code, int) else 1
    except (RuntimeError, cfg.Error) as error:
        print(f"ERROR: {error}", file=sys.stderr)
        return 1

    with _logging_to_stderr(conf):
        try:
            conf.command.func(conf)
        except Exception as error:
            print(f"ERROR: {error}", file=sys.stderr)
            return 1
    return 0
