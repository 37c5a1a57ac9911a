"""The test cloud's database schemas: migrated by the services' own tools the first time,
restored from dumps of that first migration ever after.

Migrating the seven databases takes 10 to 16 s of a two-core machine; loading the dumps
takes under a second. The dumps are taken straight after each schema tool ran, before
anything names the run (nova's cell mappings hold the run's database URLs, so they are
made afresh every run), and kept beside the virtual environment they came from
(``<venv>/.schema-dumps/<digest of the requirements>``): a new release gets new dumps.
Delete that directory to migrate again.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from tests.cloud_config import HOST, Layout
from tests.cloud_processes import CloudStartError, run_logged

# Each database and the dump it is restored from (nova's cells share one schema).
DUMP_OF = {
    "nova_api": "nova_api",
    "nova": "nova",
    "nova_cell0": "nova",
    "placement": "placement",
    "neutron": "neutron",
    "cinder": "cinder",
    "glance": "glance",
}
_COMPLETE = "complete"

Step = Callable[[], None]


def dump_directory(layout: Layout, requirements: list[str]) -> Path:
    digest = hashlib.sha256("\n".join(requirements).encode()).hexdigest()[:12]
    return layout.venv / ".schema-dumps" / digest


def create_schemas(layout: Layout, requirements: list[str]) -> str:
    """Give the run's databases their schemas and nova its cells; say how it was done."""
    dumps = dump_directory(layout, requirements)
    tools_present = shutil.which("mysql") and shutil.which("mysqldump")
    if tools_present and (dumps / _COMPLETE).exists():
        for database, dump in DUMP_OF.items():
            _restore(layout, database, dumps / f"{dump}.sql")
        _run_chains(layout, {"nova": _nova_cells(layout)})
        return "restored"
    record = dumps if tools_present else None
    _run_chains(layout, _migrations(layout, record))
    if record is not None:
        (record / _COMPLETE).write_text("\n".join(requirements) + "\n")
    return "migrated"


def _run_chains(layout: Layout, chains: dict[str, list[Step]]) -> None:
    # The services' chains are independent; three at a time keep two cores busy.
    with ThreadPoolExecutor(max_workers=3) as pool:
        futures = [
            pool.submit(lambda steps=steps: [step() for step in steps]) for steps in chains.values()
        ]
        for future in futures:
            future.result()


def _manage(layout: Layout, service: str, *argv: str) -> Step:
    log_path = layout.home("logs") / f"{service}-manage.log"
    command = [str(layout.venv / "bin" / argv[0]), *argv[1:]]
    return lambda: run_logged(" ".join(argv[:1] + argv[3:]), command, log_path)


def _dump(layout: Layout, database: str, record: Path | None) -> Step:
    def dump() -> None:
        if record is None:
            return
        record.mkdir(parents=True, exist_ok=True)
        partial = record / f"{database}.sql.{os.getpid()}"
        with open(partial, "wb") as output:
            completed = subprocess.run(
                [
                    "mysqldump",
                    "-uroot",
                    f"-h{HOST}",
                    "--single-transaction",
                    "--skip-dump-date",
                    "--skip-comments",
                    layout.database_prefix + database,
                ],
                stdout=output,
                stderr=subprocess.PIPE,
                timeout=120,
            )
        if completed.returncode != 0:
            raise CloudStartError(f"mysqldump {database} failed: {completed.stderr.decode()}")
        # Workers racing to record the same dump each replace it whole.
        partial.replace(record / f"{database}.sql")

    return dump


def _restore(layout: Layout, database: str, dump: Path) -> None:
    with open(dump, "rb") as source:
        completed = subprocess.run(
            ["mysql", "-uroot", f"-h{HOST}", layout.database_prefix + database],
            stdin=source,
            capture_output=True,
            timeout=120,
        )
    if completed.returncode != 0:
        raise CloudStartError(f"restoring {database} from {dump} failed: {completed.stderr!r}")


def _nova_cells(layout: Layout) -> list[Step]:
    conf = str(layout.home("nova") / "nova.conf")
    cell0 = layout.database_url("nova_cell0")
    return [
        _manage(
            layout,
            "nova",
            "nova-manage",
            "--config-file",
            conf,
            "cell_v2",
            "map_cell0",
            "--database_connection",
            cell0,
        ),
        _manage(
            layout,
            "nova",
            "nova-manage",
            "--config-file",
            conf,
            "cell_v2",
            "create_cell",
            "--name",
            "cell1",
        ),
    ]


def _migrations(layout: Layout, record: Path | None) -> dict[str, list[Step]]:
    """Each service's schema steps in order, each schema dumped as soon as it is made."""
    nova_conf = str(layout.home("nova") / "nova.conf")
    neutron = layout.home("neutron")
    placement_conf = str(layout.home("placement") / "placement.conf")
    cinder_conf = str(layout.home("cinder") / "cinder.conf")
    glance_conf = str(layout.home("glance") / "glance-api.conf")
    return {
        "nova": [
            _manage(layout, "nova", "nova-manage", "--config-file", nova_conf, "api_db", "sync"),
            _dump(layout, "nova_api", record),
            *_nova_cells(layout),
            _manage(layout, "nova", "nova-manage", "--config-file", nova_conf, "db", "sync"),
            _dump(layout, "nova", record),
        ],
        "placement": [
            _manage(
                layout,
                "placement",
                "placement-manage",
                "--config-file",
                placement_conf,
                "db",
                "sync",
            ),
            _dump(layout, "placement", record),
        ],
        "neutron": [
            _manage(
                layout,
                "neutron",
                "neutron-db-manage",
                "--config-file",
                str(neutron / "neutron.conf"),
                "--config-file",
                str(neutron / "ml2_conf.ini"),
                "upgrade",
                "heads",
            ),
            _dump(layout, "neutron", record),
        ],
        "cinder": [
            _manage(layout, "cinder", "cinder-manage", "--config-file", cinder_conf, "db", "sync"),
            _dump(layout, "cinder", record),
        ],
        "glance": [
            _manage(layout, "glance", "glance-manage", "--config-file", glance_conf, "db_sync"),
            _dump(layout, "glance", record),
        ],
    }
