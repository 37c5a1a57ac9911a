"""keel-manage: heat-manage's commands on real databases, run as a process and in-process."""

from __future__ import annotations

import datetime
import io
import subprocess
from pathlib import Path
from typing import Any

import pytest

from keel_app.cli.manage import main
from keel_app.common import crypt
from keel_app.models import RawTemplate, Resource, Stack, StackLock
from keel_app.models.database import Database
from keel_app.models.migration import HEAD_REVISION
from tests.cli.conftest import ENCRYPTION_KEY
from tests.models.heat_migrated import heat_db_sync
from tests.models.maintenance import factories
from tests.models.maintenance.factories import ago

KEEL_MANAGE = Path(__file__).resolve().parents[2] / ".venv" / "bin" / "keel-manage"


def _keel_manage(heat_conf: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(KEEL_MANAGE), "--config-file", str(heat_conf), *arguments],
        capture_output=True,
        text=True,
        timeout=300,
    )


def _run(
    heat_conf: Path, capsys: pytest.CaptureFixture[str], *arguments: str
) -> tuple[int, str, str]:
    status = main(["--config-file", str(heat_conf), *arguments])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_db_sync_takes_a_heat_database_to_head(
    empty_database_url: str, heat_conf: Path, tmp_path: Path
) -> None:
    heat_db_sync(empty_database_url, tmp_path, "d2db381e3324")
    assert _keel_manage(heat_conf, "db_version").stdout == "d2db381e3324\n"

    synced = _keel_manage(heat_conf, "db_sync")

    assert synced.returncode == 0, synced.stderr
    assert synced.stdout == ""
    assert _keel_manage(heat_conf, "db_version").stdout == f"{HEAD_REVISION}\n"


def test_db_version_of_an_empty_database_is_none(heat_conf: Path) -> None:
    version = _keel_manage(heat_conf, "db_version")

    assert (version.returncode, version.stdout) == (0, "None\n")


def test_db_sync_refuses_a_sqlalchemy_migrate_version(
    heat_conf: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, errors = _run(heat_conf, capsys, "db_sync", "73")

    assert status == 1
    assert errors.endswith(
        "ERROR: You requested an sqlalchemy-migrate database version; this is no longer supported\n"
    )


def test_purge_deleted_as_a_process(database: Database, heat_conf: Path) -> None:
    with database.transaction() as session:
        old = factories.full_stack(session, "old", deleted_at=ago(hours=5))
        recent = factories.full_stack(session, "recent", deleted_at=ago(minutes=5))

    purged = _keel_manage(heat_conf, "purge_deleted", "1", "-g", "hours", "-b", "1")

    assert purged.returncode == 0, purged.stderr
    left = factories.primary_keys(database)
    assert left["stack"] == {recent.stack_id}
    assert all(not (ids & left[table]) for table, ids in old.ids.items())
    assert f"Purging stacks ('{old.stack_id}'" in purged.stderr


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["abc"], "ERROR: age should be an integer\n"),
        (["--", "-3"], "ERROR: age should be a positive integer\n"),
        (["1", "-b", "many"], "ERROR: batch_size should be an integer\n"),
    ],
)
def test_purge_deleted_rejects_a_bad_number(
    database: Database,
    heat_conf: Path,
    capsys: pytest.CaptureFixture[str],
    arguments: list[str],
    message: str,
) -> None:
    with database.transaction() as session:
        factories.stack(session, "old", deleted_at=ago(days=400))

    status, _, errors = _run(heat_conf, capsys, "purge_deleted", *arguments)

    assert (status, errors) == (1, message)
    assert len(factories.primary_keys(database)["stack"]) == 1


def test_purge_deleted_rejects_an_unknown_granularity_as_a_usage_error(
    heat_conf: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, errors = _run(heat_conf, capsys, "purge_deleted", "1", "-g", "weeks")

    assert status == 2
    assert errors.endswith(
        "keel-manage purge_deleted: error: argument -g/--granularity: invalid choice: "
        "'weeks' (choose from 'days', 'hours', 'minutes', 'seconds')\n"
    )


def test_service_list_prints_heats_table(
    database: Database, heat_conf: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Whole seconds: Heat's MySQL columns keep no fraction.
    last_seen = datetime.datetime(2024, 1, 2, 3, 4, 5)
    with database.transaction() as session:
        factories.service(session, "dead", id="a-dead", updated_at=last_seen)
        factories.service(session, "alive", id="b-alive", created_at=ago(seconds=3))
        factories.service(session, "gone", id="c-gone", deleted_at=ago(days=1))

    status, output, _ = _run(heat_conf, capsys, "service", "list")

    row = "%-16s %-16s %-36s %-10s %-10s %-10s %-10s"
    assert status == 0
    assert output.splitlines() == [
        row % ("Hostname", "Binary", "Engine_Id", "Host", "Topic", "Status", "Updated At"),
        row % ("dead-hostname", "heat-engine", "dead", "host", "engine", "down", last_seen),
        row % ("alive-hostname", "heat-engine", "alive", "host", "engine", "up", None),
    ]
    assert output.splitlines()[1].endswith("down       2024-01-02 03:04:05")


def test_service_clean_removes_the_dead_engines(
    database: Database, heat_conf: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with database.transaction() as session:
        factories.service(session, "dead", updated_at=ago(hours=1))
        factories.service(session, "alive", updated_at=ago(seconds=10))

    status, output, _ = _run(heat_conf, capsys, "service", "clean")

    assert (status, output) == (0, "Dead engines are removed.\n")
    _, listing, _ = _run(heat_conf, capsys, "service", "list")
    assert [line.split()[2] for line in listing.splitlines()[1:]] == ["alive"]


def test_service_without_an_action_fails_like_heat_manage(
    heat_conf: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, errors = _run(heat_conf, capsys, "service")

    assert (status, errors) == (1, "ERROR: no such option func in group [DEFAULT]\n")


def _stuck_stack(database: Database) -> str:
    with database.transaction() as session:
        stuck = factories.stack(session, "stuck", action="DELETE", status="IN_PROGRESS")
        session.add(StackLock(stack_id=stuck.id, engine_id="dead-engine"))
        return stuck.id


def _status(database: Database, stack_id: str) -> tuple[str | None, bool]:
    with database.transaction() as session:
        stack = session.get(Stack, stack_id)
        assert stack is not None
        return stack.status, session.get(StackLock, stack_id) is not None


PROMPT = (
    "Warning: this command is potentially destructive and only intended to recover from "
    "specific crashes.\nIt is advised to shutdown all Heat engines beforehand.\n"
    "Continue ? [y/N]\n"
)


def test_reset_stack_status_after_a_yes(
    database: Database,
    heat_conf: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    stack_id = _stuck_stack(database)
    monkeypatch.setattr("sys.stdin", io.StringIO("yes\n"))

    status, output, _ = _run(heat_conf, capsys, "reset_stack_status", stack_id)

    assert (status, output) == (0, PROMPT)
    assert _status(database, stack_id) == ("FAILED", False)


def test_reset_stack_status_does_nothing_without_a_yes(
    database: Database,
    heat_conf: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    stack_id = _stuck_stack(database)
    monkeypatch.setattr("sys.stdin", io.StringIO("\n"))

    status, _, _ = _run(heat_conf, capsys, "reset_stack_status", stack_id)

    assert status == 0
    assert _status(database, stack_id) == ("IN_PROGRESS", True)


def test_reset_stack_status_of_an_unknown_stack(
    database: Database,
    heat_conf: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("y\n"))

    status, _, errors = _run(heat_conf, capsys, "reset_stack_status", "no-such-stack")

    assert (status, errors) == (1, "ERROR: Stack with id no-such-stack not found\n")


def _hidden_parameter_template(database: Database) -> int:
    with database.transaction() as session:
        return factories.template(
            session,
            template={
                "heat_template_version": "2021-04-16",
                "parameters": {"password": {"type": "string", "hidden": True}},
            },
            environment={"parameters": {"password": "s3cret"}},
        ).id


def _parameters(database: Database, template_id: int) -> dict[str, object]:
    with database.transaction() as session:
        template = session.get(RawTemplate, template_id)
        assert template is not None
        return dict(template.environment)


def test_update_params_encrypts_with_the_configured_key_and_decrypts_back(
    database: Database, heat_conf: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    template_id = _hidden_parameter_template(database)

    assert _run(heat_conf, capsys, "update_params", "encrypt")[0] == 0
    encrypted = _parameters(database, template_id)
    assert _run(heat_conf, capsys, "update_params", "decrypt")[0] == 0

    assert crypt.decrypt(*encrypted["parameters"]["password"], ENCRYPTION_KEY) == "s3cret"
    assert _parameters(database, template_id) == {
        "parameters": {"password": "s3cret"},
        "encrypted_param_names": [],
    }


def test_update_params_decrypts_with_a_previous_key(
    database: Database, heat_conf: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    template_id = _hidden_parameter_template(database)
    previous_key = "an older key, thirty-two letters"
    _run(heat_conf, capsys, "update_params", "encrypt", previous_key)

    status, _, errors = _run(
        heat_conf, capsys, "update_params", "decrypt", previous_key, "--verbose-update-params"
    )

    assert status == 0
    assert _parameters(database, template_id)["parameters"] == {"password": "s3cret"}
    assert f"Processing raw_template {template_id}..." in errors
    assert f"Finished decrypt processing of raw_template {template_id}." in errors


def test_resource_data_list_prints_decrypted_values(
    database: Database, heat_conf: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    method, secret = crypt.encrypt("s3cret", ENCRYPTION_KEY)
    other_method, foreign = crypt.encrypt("other", "a key that is not the right one!")
    with database.transaction() as session:
        server = factories.resource(session, factories.stack(session, "s"), "server")
        factories.resource_data(
            session, server, "password", secret, redact=True, decrypt_method=method
        )
        factories.resource_data(session, server, "handle", "plain")
        factories.resource_data(
            session, server, "token", foreign, redact=True, decrypt_method=other_method
        )
        resource_id = server.id

    status, output, _ = _run(heat_conf, capsys, "resource_data_list", str(resource_id))

    assert status == 0
    assert output.splitlines() == [
        f"{'password':<16} {'s3cret':<64}",
        f"{'handle':<16} {'plain':<64}",
        f"{'token':<16} {foreign:<64}",
    ]


def test_resource_data_list_of_a_resource_without_data(
    database: Database, heat_conf: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, errors = _run(heat_conf, capsys, "resource_data_list", "42")

    assert (status, errors) == (1, "ERROR: no resource data found\n")


def test_migrate_properties_data_is_a_no_op(
    heat_conf: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, output, _ = _run(heat_conf, capsys, "migrate_properties_data")

    assert (status, output) == (
        0,
        "This command has been deprecated and is now a no-op. "
        "It will be removed in a future release.\n",
    )


def test_migrate_convergence_1_checks_the_stack(
    database: Database, heat_conf: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with database.transaction() as session:
        converged = factories.stack(session, "converged").id
        nested = factories.stack(session, "nested", owner_id=converged).id
        legacy_busy = factories.stack(
            session, "busy", convergence=False, action="UPDATE", status="FAILED"
        ).id
        deleted = factories.stack(session, "deleted", deleted_at=ago(days=1)).id
        legacy = factories.stack(session, "legacy", convergence=False)
        busy_child = factories.stack(
            session,
            "busy-child",
            convergence=False,
            owner_id=legacy.id,
            status="FAILED",
            backup=False,
        ).id
        legacy = legacy.id

    outcomes = {
        stack_id: _run(heat_conf, capsys, "migrate_convergence_1", stack_id)[::2]
        for stack_id in (nested, legacy_busy, deleted, legacy)
    }
    status, _, log = _run(heat_conf, capsys, "migrate_convergence_1", converged)

    assert (status, log.endswith(f"Convergence was already enabled for stack {converged}\n")) == (
        0,
        True,
    )
    assert outcomes == {
        nested: (1, f"ERROR: Migration of nested stack {nested} is not supported.\n"),
        legacy_busy: (
            1,
            "ERROR: Stack busy has an action (UPDATE) in progress or failed state.\n",
        ),
        deleted: (1, f"ERROR: Stack with id {deleted} can not be found.\n"),
        legacy: (
            1,
            "ERROR: Stack busy-child has an action (CREATE) in progress or failed state.\n",
        ),
    }
    assert _stored(database, Stack, busy_child).convergence is False


def _stored(database: Database, model: type[Any], key: Any) -> Any:
    with database.transaction() as session:
        return session.get(model, key)


LEGACY_TEMPLATE = {
    "heat_template_version": "2018-08-31",
    "resources": {
        "a": {"type": "OS::Heat::None"},
        "b": {"type": "OS::Heat::None", "depends_on": ["a"]},
        "c": {"type": "OS::Heat::Value", "properties": {"value": {"get_attr": ["b", "x"]}}},
    },
}


def test_migrate_convergence_1_moves_a_legacy_tree_to_convergence(
    database: Database, heat_conf: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with database.transaction() as session:
        root = factories.stack(
            session,
            "legacy-root",
            convergence=False,
            current_traversal=None,
            raw_template=factories.template(session, template=LEGACY_TEMPLATE),
        )
        child = factories.stack(
            session,
            "legacy-child",
            convergence=False,
            owner_id=root.id,
            nested_depth=1,
            backup=False,
            raw_template=factories.template(session, template=LEGACY_TEMPLATE),
        )
        rows = {}
        for stack in (root, child):
            for name in ("a", "b", "c"):
                row = Resource(name=name, stack_id=stack.id, action="CREATE", status="COMPLETE")
                session.add(row)
                session.flush()
                rows[stack.name, name] = row.id
        stacks = {
            root.name: (root.id, root.raw_template_id),
            child.name: (child.id, child.raw_template_id),
        }

    status, _, _ = _run(heat_conf, capsys, "migrate_convergence_1", stacks["legacy-root"][0])

    assert status == 0
    for name, (stack_id, template_id) in stacks.items():
        stored = _stored(database, Stack, stack_id)
        assert (stored.convergence, bool(stored.current_traversal)) == (True, True)
        a, b, c = (_stored(database, Resource, rows[name, key]) for key in "abc")
        assert [(row.current_template_id, row.requires) for row in (a, b, c)] == [
            (template_id, []),
            (template_id, [a.id]),
            (template_id, [b.id]),
        ]
    assert _stored(database, StackLock, stacks["legacy-root"][0]) is None


def test_a_missing_config_file_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(["--config-file", str(tmp_path / "missing.conf"), "db_version"])

    assert status == 1
    assert capsys.readouterr().err == (
        f"ERROR: Failed to find some config files: {tmp_path / 'missing.conf'}\n"
    )


def test_service_list_changes_no_row(
    database: Database, heat_conf: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with database.transaction() as session:
        factories.full_stack(session, "live")
    before = factories.all_rows(database)

    _run(heat_conf, capsys, "service", "list")

    assert factories.all_rows(database) == before
