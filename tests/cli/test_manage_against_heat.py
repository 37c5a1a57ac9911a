"""keel-manage and Heat's heat-manage leave the same rows behind: two copies of one
database, Heat's command on one and ours on the other."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import sqlalchemy as sa

from keel_app.cli.manage import main
from keel_app.models import metadata
from keel_app.models.database import Database
from tests import databases, oracle
from tests.cli.conftest import write_heat_conf
from tests.models.maintenance import factories
from tests.models.maintenance.factories import ago

pytestmark = pytest.mark.oracle

HIDDEN_TEMPLATE = {
    "heat_template_version": "2021-04-16",
    "parameters": {
        "password": {"type": "string", "hidden": True},
        "flavor": {"type": "string"},
    },
}
NO_ECHO_TEMPLATE = {
    "HeatTemplateFormatVersion": "2012-12-12",
    "Parameters": {"Secret": {"Type": "String", "NoEcho": "true"}},
}


def _twins(tmp_path: Path) -> tuple[Path, Path, Database]:
    """heat.conf files for an original database and for a copy made later."""
    original = tmp_path / "keel.sqlite"
    twin = tmp_path / "heat.sqlite"
    database = factories.migrated_database(f"sqlite:///{original}")
    return (
        write_heat_conf(tmp_path, f"sqlite:///{original}", "keel.conf"),
        write_heat_conf(tmp_path, f"sqlite:///{twin}", "heat.conf"),
        database,
    )


def _copy(tmp_path: Path, database: Database) -> Database:
    database.dispose()
    shutil.copy(tmp_path / "keel.sqlite", tmp_path / "heat.sqlite")
    return Database(f"sqlite:///{tmp_path / 'heat.sqlite'}")


def _clone(source: Database, target: Database) -> None:
    with source.engine.connect() as reading, target.engine.begin() as writing:
        for table in metadata.sorted_tables:
            rows = [dict(row) for row in reading.execute(sa.select(table)).mappings()]
            if rows:
                writing.execute(sa.insert(table), rows)


# Heat 27's purge reads its stack list from a closed connection, which only MySQL and
# PostgreSQL drivers (buffering the whole result) survive: heat-manage purge_deleted fails
# on SQLite with "This Connection is closed".
@pytest.mark.parametrize("backend", ["mysql", "postgresql"])
@pytest.mark.parametrize(
    "arguments",
    [["1"], ["30", "-g", "minutes", "-p", "project-1", "-b", "1"]],
)
def test_purge_deleted_leaves_the_rows_heat_manage_leaves(
    tmp_path: Path, backend: str, arguments: list[str]
) -> None:
    with (
        databases.fresh_database(backend, tmp_path) as keel_url,
        databases.fresh_database(backend, tmp_path) as heat_url,
    ):
        database = factories.migrated_database(keel_url)
        heat_database = factories.migrated_database(heat_url)
        try:
            _purge_both(tmp_path, database, heat_database, arguments)
        finally:
            database.dispose()
            heat_database.dispose()


def _purge_both(
    tmp_path: Path, database: Database, heat_database: Database, arguments: list[str]
) -> None:
    with database.transaction() as session:
        shared = factories.files(session)
        factories.full_stack(
            session, "old", deleted_at=ago(days=3), snapshot=False, shared_files=shared
        )
        factories.full_stack(
            session, "old-2", tenant="project-2", deleted_at=ago(days=3), snapshot=False
        )
        factories.full_stack(session, "recent", deleted_at=ago(hours=2), snapshot=False)
        factories.full_stack(session, "live", shared_files=shared)
        factories.service(session, "dead", deleted_at=ago(days=2))
        factories.service(session, "alive")
    _clone(database, heat_database)
    before = factories.all_rows(database)
    heat_url = heat_database.url.render_as_string(hide_password=False)
    keel_url = database.url.render_as_string(hide_password=False)

    oracle.heat_manage(write_heat_conf(tmp_path, heat_url, "h.conf"), "purge_deleted", *arguments)
    keel_conf = write_heat_conf(tmp_path, keel_url, "k.conf")
    assert main(["--config-file", str(keel_conf), "purge_deleted", *arguments]) == 0

    after = factories.all_rows(database)
    assert after == factories.all_rows(heat_database)
    assert after != before


def _secrets(database: Database) -> None:
    with database.transaction() as session:
        factories.template(
            session,
            template=HIDDEN_TEMPLATE,
            environment={"parameters": {"password": "s3cret", "flavor": "m1.tiny"}},
        )
        factories.template(
            session, template=NO_ECHO_TEMPLATE, environment={"parameters": {"Secret": 42}}
        )
        factories.properties_data(session, {"name": "web", "ports": [1, 2]})


def test_heat_manage_decrypts_what_keel_manage_encrypted(tmp_path: Path) -> None:
    keel_conf, heat_conf, database = _twins(tmp_path)
    _secrets(database)
    assert main(["--config-file", str(keel_conf), "update_params", "encrypt"]) == 0
    heat_database = _copy(tmp_path, database)

    # Without this flag Heat 27's heat-manage passes a batch size of 0 and changes nothing.
    oracle.heat_manage(heat_conf, "update_params", "decrypt", "--verbose-update-params")
    assert main(["--config-file", str(keel_conf), "update_params", "decrypt"]) == 0

    ours = factories.all_rows(database, skip=("updated_at",))
    assert ours == factories.all_rows(heat_database, skip=("updated_at",))
    environments = [row[3] for row in ours["raw_template"]]
    assert environments[1] == {"parameters": {"Secret": "42"}, "encrypted_param_names": []}
    heat_database.dispose()


def test_keel_manage_decrypts_what_heat_manage_encrypted(tmp_path: Path) -> None:
    keel_conf, heat_conf, database = _twins(tmp_path)
    _secrets(database)
    heat_database = _copy(tmp_path, database)

    oracle.heat_manage(heat_conf, "update_params", "encrypt", "--verbose-update-params")
    assert main(["--config-file", str(keel_conf), "update_params", "encrypt"]) == 0
    for conf in (keel_conf, heat_conf):
        assert main(["--config-file", str(conf), "update_params", "decrypt"]) == 0

    assert factories.all_rows(database, skip=("updated_at",)) == factories.all_rows(
        heat_database, skip=("updated_at",)
    )
    heat_database.dispose()
