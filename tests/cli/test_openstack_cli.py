"""The openstack CLI (python-openstackclient + heatclient's plugin) against OpenKeel.

Two deployments, each one for the module: ``keel all-in-one`` (noauth, SQLite), and the
distributed form (``keel-api`` and a ``keel-worker`` on RabbitMQ and MariaDB) behind the
real Keystone, where the CLI logs in as a member of a project and finds the API in the
catalog. In each, one stack built by the CLI is what the read commands look at; the
commands that change a stack each work on a stack of their own.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from keel_app.web.spare_ports import free_port
from tests.cli import distributed

OPENSTACK = Path(sys.executable).parent / "openstack"
HOST = "127.0.0.1"
STACK_ARCHIVES = "enable_stack_abandon = true\nenable_stack_adopt = true\n"

TEMPLATE = """\
heat_template_version: 2021-04-16
description: the CLI's stack
parameters:
  len:
    type: number
    default: 8
    constraints:
      - range: {min: 4, max: 64}
resources:
  rnd:
    type: OS::Heat::RandomString
    properties:
      length: {get_param: len}
  gate:
    type: OS::Heat::None
    depends_on: rnd
outputs:
  rnd:
    description: the random string
    value: {get_attr: [rnd, value]}
"""
BAD_TEMPLATE = """\
heat_template_version: 2021-04-16
resources:
  x:
    type: OS::Heat::NoSuchThing
"""


class Cli:
    def __init__(
        self,
        directory: Path,
        credentials: dict[str, str],
        admin_credentials: dict[str, str] | None = None,
    ) -> None:
        self.environment = {**os.environ, **credentials, "PYTHONWARNINGS": "ignore"}
        # Who may list the engines (Heat's service:index rule wants an admin).
        self.admin_environment = {**self.environment, **(admin_credentials or {})}
        self.directory = directory
        self.template = directory / "stack.yaml"
        self.template.write_text(TEMPLATE)
        self.bad_template = directory / "bad.yaml"
        self.bad_template.write_text(BAD_TEMPLATE)

    def run(
        self, *arguments: str, check: bool = True, admin: bool = False
    ) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(
            [str(OPENSTACK), *arguments],
            env=self.admin_environment if admin else self.environment,
            capture_output=True,
            text=True,
            timeout=120,
        )
        if check and done.returncode != 0:
            raise AssertionError(f"openstack {' '.join(arguments)} failed:\n{done.stderr}")
        return done

    def json(self, *arguments: str, admin: bool = False) -> Any:
        lines = self.run(*arguments, "-f", "json", admin=admin).stdout.splitlines()
        # With --wait the events come first, one line each; the document follows them.
        start = next(index for index, line in enumerate(lines) if line[:1] in ("{", "["))
        return json.loads("\n".join(lines[start:]))

    def create(self, name: str, *arguments: str) -> dict[str, Any]:
        created: dict[str, Any] = self.json(
            "stack", "create", "-t", str(self.template), "--wait", *arguments, name
        )
        return created


@contextlib.contextmanager
def all_in_one(directory: Path) -> Iterator[Cli]:
    conf = directory / "heat.conf"
    conf.write_text(f"[DEFAULT]\n{STACK_ARCHIVES}")
    port = free_port(HOST)
    process = subprocess.Popen(
        [sys.executable, "-m", "keel_app.cli.keel", "all-in-one", "--port", str(port),
         "--cfn-port", "0", "--state-dir", str(directory / "state"),
         "--config-file", str(conf)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "PYTHONWARNINGS": "ignore"},
    )  # fmt: skip
    assert process.stdout is not None
    process.stdout.readline()  # the banner: the server listens
    try:
        yield Cli(
            directory, {"OS_AUTH_TYPE": "none", "OS_ENDPOINT": f"http://{HOST}:{port}/v1/admin"}
        )
    finally:
        process.terminate()
        process.wait(timeout=30)
        process.stdout.close()


@pytest.fixture(scope="module", params=["all-in-one", "keystone"])
def cli(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cli]:
    directory = tmp_path_factory.mktemp("openstack-cli")
    if request.param == "all-in-one":
        with all_in_one(directory) as cli:
            yield cli
    else:
        service = request.getfixturevalue("keystone_service")
        with distributed.behind_keystone(directory, service, STACK_ARCHIVES) as credentials:
            yield Cli(directory, *credentials)


@pytest.fixture(scope="module")
def stack(cli: Cli) -> dict[str, Any]:
    return cli.create("cli-stack", "--parameter", "len=12")


def test_stack_create_waits_for_create_complete(stack: dict[str, Any]) -> None:
    assert stack["stack_status"] == "CREATE_COMPLETE"
    assert stack["stack_name"] == "cli-stack"


def test_stack_list_shows_the_stack(cli: Cli, stack: dict[str, Any]) -> None:
    listed = cli.json("stack", "list")

    assert [(row["Stack Name"], row["Stack Status"]) for row in listed] == [
        ("cli-stack", "CREATE_COMPLETE")
    ]


def test_stack_show_has_the_parameters(cli: Cli, stack: dict[str, Any]) -> None:
    shown = cli.json("stack", "show", "cli-stack")

    assert shown["id"] == stack["id"]
    assert shown["parameters"]["len"] == "12"
    assert shown["description"] == "the CLI's stack"


def test_stack_output_show_gives_the_value(cli: Cli, stack: dict[str, Any]) -> None:
    output = cli.json("stack", "output", "show", "cli-stack", "rnd")

    assert output["output_key"] == "rnd"
    assert len(output["output_value"]) == 12


def test_stack_output_list_names_the_outputs(cli: Cli, stack: dict[str, Any]) -> None:
    outputs = cli.json("stack", "output", "list", "cli-stack")

    assert outputs == [{"output_key": "rnd", "description": "the random string"}]


def test_stack_resource_list_and_show(cli: Cli, stack: dict[str, Any]) -> None:
    resources = cli.json("stack", "resource", "list", "cli-stack")
    shown = cli.json("stack", "resource", "show", "cli-stack", "rnd")

    assert sorted((row["resource_name"], row["resource_status"]) for row in resources) == [
        ("gate", "CREATE_COMPLETE"),
        ("rnd", "CREATE_COMPLETE"),
    ]
    assert shown["resource_type"] == "OS::Heat::RandomString"
    assert len(shown["attributes"]["value"]) == 12


def test_stack_resource_metadata_is_empty(cli: Cli, stack: dict[str, Any]) -> None:
    assert json.loads(cli.run("stack", "resource", "metadata", "cli-stack", "rnd").stdout) == {}


def test_stack_event_list_and_show(cli: Cli, stack: dict[str, Any]) -> None:
    events = cli.json("stack", "event", "list", "cli-stack")
    created = next(event for event in events if event["resource_name"] == "rnd")
    shown = cli.json("stack", "event", "show", "cli-stack", "rnd", created["id"])

    assert [(event["resource_name"], event["resource_status"]) for event in events][0] == (
        "cli-stack",
        "CREATE_IN_PROGRESS",
    )
    assert (events[-1]["resource_name"], events[-1]["resource_status"]) == (
        "cli-stack",
        "CREATE_COMPLETE",
    )
    assert (shown["resource_name"], shown["resource_status"]) == ("rnd", "CREATE_IN_PROGRESS")


def test_stack_template_environment_and_files(cli: Cli, stack: dict[str, Any]) -> None:
    template = cli.json("stack", "template", "show", "cli-stack")
    environment = cli.run("stack", "environment", "show", "cli-stack").stdout
    files = cli.run("stack", "file", "list", "cli-stack").stdout

    assert template["resources"]["gate"] == {"type": "OS::Heat::None", "depends_on": "rnd"}
    assert "parameters:" in environment and "len: '12'" in environment
    assert files.strip() == "files: {}"


def test_stack_update_existing_changes_the_output(cli: Cli) -> None:
    cli.create("updated")

    updated = cli.json(
        "stack", "update", "--existing", "--parameter", "len=20", "--wait", "updated"
    )

    assert updated["stack_status"] == "UPDATE_COMPLETE"
    assert len(cli.json("stack", "output", "show", "updated", "rnd")["output_value"]) == 20


def test_stack_suspend_resume_and_check(cli: Cli) -> None:
    cli.create("actions")

    statuses = [
        cli.json("stack", action, "--wait", "actions")[0]["Stack Status"]
        for action in ("suspend", "resume", "check")
    ]

    assert statuses == ["SUSPEND_COMPLETE", "RESUME_COMPLETE", "CHECK_COMPLETE"]


def test_stack_snapshot_create_list_show_restore_delete(cli: Cli) -> None:
    cli.create("snapshotted")

    snapshot_id = cli.json("stack", "snapshot", "create", "snapshotted", "--name", "first")["ID"]
    listed = wait_for_snapshots(cli, "snapshotted")
    shown = cli.json("stack", "snapshot", "show", "snapshotted", snapshot_id)
    cli.run("stack", "snapshot", "restore", "snapshotted", snapshot_id)
    cli.run("stack", "snapshot", "delete", "snapshotted", snapshot_id, "--yes")

    assert [(row["name"], row["status"]) for row in listed] == [("first", "COMPLETE")]
    # heatclient shows Heat's whole answer, the snapshot under its key.
    assert shown["snapshot"]["name"] == "first"
    assert wait_for_snapshots(cli, "snapshotted", settled=lambda rows: not rows) == []


def wait_for_snapshots(
    cli: Cli, stack: str, settled: Any = None, timeout: float = 30
) -> list[dict[str, Any]]:
    """The stack's snapshots once ``settled`` says so (by default: none in progress)."""
    settled = settled or (lambda rows: all(row["status"] != "IN_PROGRESS" for row in rows))
    deadline = time.monotonic() + timeout
    while True:
        rows: list[dict[str, Any]] = cli.json("stack", "snapshot", "list", stack)
        if settled(rows) or time.monotonic() > deadline:
            return rows
        time.sleep(0.5)


def test_stack_resource_mark_unhealthy(cli: Cli) -> None:
    cli.create("unhealthy")

    cli.run("stack", "resource", "mark", "unhealthy", "unhealthy", "gate", "it broke")

    shown = cli.json("stack", "resource", "show", "unhealthy", "gate")
    assert (shown["resource_status"], shown["resource_status_reason"]) == (
        "CHECK_FAILED",
        "it broke",
    )


def test_stack_abandon_gives_the_stack_data(cli: Cli) -> None:
    cli.create("abandoned")

    data = json.loads(cli.run("stack", "abandon", "abandoned").stdout)

    assert data["name"] == "abandoned"
    assert sorted(data["resources"]) == ["gate", "rnd"]
    assert cli.json("stack", "list", "--property", "name=abandoned") == []


def test_stack_delete_waits_until_it_is_gone(cli: Cli) -> None:
    cli.create("deleted")

    cli.run("stack", "delete", "--yes", "--wait", "deleted")

    missing = cli.run("stack", "show", "deleted", check=False)
    assert missing.returncode != 0
    assert "Stack not found: deleted" in missing.stderr


def test_template_validate_accepts_a_good_template(cli: Cli) -> None:
    answer = cli.json("orchestration", "template", "validate", "-t", str(cli.template))

    assert answer["Description"] == "the CLI's stack"
    assert answer["Parameters"]["len"]["Type"] == "Number"


def test_template_validate_refuses_an_unknown_type(cli: Cli) -> None:
    done = cli.run(
        "orchestration", "template", "validate", "-t", str(cli.bad_template), check=False
    )

    assert done.returncode != 0
    assert "The Resource Type (OS::Heat::NoSuchThing) could not be found." in done.stderr


def test_template_versions_and_functions(cli: Cli) -> None:
    versions = cli.json("orchestration", "template", "version", "list")
    functions = cli.json(
        "orchestration", "template", "function", "list", "heat_template_version.2016-10-14"
    )

    assert {"version": "heat_template_version.2021-04-16", "type": "hot"} in [
        {"version": row["Version"], "type": row["Type"]} for row in versions
    ]
    assert "yaql" in [row["Functions"] for row in functions]


def test_resource_types_list_and_show(cli: Cli) -> None:
    types = cli.json("orchestration", "resource", "type", "list", "--filter", "name=OS::Heat::R")
    shown = cli.run("orchestration", "resource", "type", "show", "OS::Heat::RandomString").stdout

    assert {"OS::Heat::RandomString", "OS::Heat::ResourceGroup"} <= {
        row["Resource Type"] for row in types
    }
    assert "length:" in shown


def test_resource_types_list_long_and_show_the_global_template_types(cli: Cli) -> None:
    described = cli.json("orchestration", "resource", "type", "list", "--long")
    shown = cli.run("orchestration", "resource", "type", "show", "AWS::CloudWatch::Alarm").stdout

    descriptions = {row["Resource Type"]: row["Description"] for row in described}
    assert descriptions["AWS::CloudWatch::Alarm"] == "AWS::CloudWatch::Alarm using Aodh."
    assert descriptions["AWS::RDS::DBInstance"] == "Builtin AWS::RDS::DBInstance"
    assert "ComparisonOperator:" in shown


def test_service_list_shows_the_engine(cli: Cli) -> None:
    services = cli.json("orchestration", "service", "list", admin=True)

    assert [(row["Binary"], row["Status"]) for row in services] == [("heat-engine", "up")]


def test_build_info(cli: Cli) -> None:
    info = cli.json("orchestration", "build", "info")

    assert info == {"api": {"revision": "unknown"}, "engine": {"revision": "unknown"}}


def test_software_config_create_list_show_delete(cli: Cli) -> None:
    script = cli.directory / "script.sh"
    script.write_text("#!/bin/sh\necho hello\n")

    created = cli.json("software", "config", "create", "--config-file", str(script), "hello")
    listed = cli.json("software", "config", "list")
    shown = cli.json("software", "config", "show", created["id"])
    cli.run("software", "config", "delete", created["id"])

    assert [row["name"] for row in listed] == ["hello"]
    assert shown["config"] == "#!/bin/sh\necho hello\n"
    assert cli.json("software", "config", "list") == []


def test_software_deployment_create_show_metadata_delete(cli: Cli) -> None:
    script = cli.directory / "deployed.sh"
    script.write_text("echo deployed\n")
    config = cli.json("software", "config", "create", "--config-file", str(script), "deployed")

    deployment = cli.json(
        "software", "deployment", "create", "--config", config["id"],
        "--server", "server-1", "--signal-transport", "NO_SIGNAL", "first",
    )  # fmt: skip
    shown = cli.json("software", "deployment", "show", deployment["id"])
    metadata = json.loads(cli.run("software", "deployment", "metadata", "show", "server-1").stdout)
    cli.run("software", "deployment", "delete", deployment["id"])

    assert shown["server_id"] == "server-1"
    assert [item["name"] for item in metadata] == ["first"]
    assert cli.json("software", "deployment", "list", "--server", "server-1") == []
