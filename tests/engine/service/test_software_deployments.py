"""The software deployment calls answer and store as Heat's own EngineService does: one
script of calls is played by Heat 27.0.1 and by OpenKeel on one database, each on its own
deployment and server, and the answers, the rows and the servers' metadata compared."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from keel_app.common import exception
from keel_app.common.context import RequestContext
from keel_app.engine.service import software_configs, software_deployments
from keel_app.models import Resource
from keel_app.models.software import SoftwareDeployment
from tests import oracle
from tests.engine.service.stack_life import rows
from tests.models.api import factories

HEAT_CALLS = Path(__file__).with_name("heat_software_configs.py")
EXPLICIT_TIME = "2026-01-02T03:04:05Z"

CONFIG: dict[str, Any] = {
    "group": "script",
    "config": "echo hi",
    "inputs": [],
    "outputs": [{"name": "result"}, {"name": "err", "error_output": True}],
    "options": {},
}


def _configs(context, settings, database) -> list[dict[str, Any]]:
    return [
        software_configs.create_software_config(
            context, settings, database, None, name=name, **CONFIG
        )
        for name in ("second", "first")
    ]


def _script(deployment: str, server: str, configs: list[dict[str, Any]]) -> list[Any]:
    """Calls on one deployment: create, signals, updates, reads, delete."""
    update = {
        "deployment_id": deployment,
        "config_id": None,
        "input_values": None,
        "output_values": None,
        "action": None,
        "status": None,
        "status_reason": None,
        "updated_at": None,
    }
    create = {
        "server_id": server,
        "config_id": configs[0]["id"],
        "input_values": {"a": 1},
        "action": "CREATE",
        "status": "IN_PROGRESS",
        "status_reason": "started",
        "stack_user_project_id": None,
        "deployment_id": deployment,
    }
    failing = {"result": "r", "err": "bad", STATUS_CODE: 3, "unknown": 1}
    return [
        ("create_software_deployment", create),
        ("create_software_deployment", {**create, "config_id": None, "deployment_id": None}),
        ("create_software_deployment", {**create, "config_id": "missing"}),
        ("create_software_deployment", {**create, "stack_user_project_id": "p" * 65}),
        ("signal_software_deployment", {"deployment_id": "", "details": {}, "updated_at": None}),
        (
            "signal_software_deployment",
            {"deployment_id": deployment, "details": failing, "updated_at": EXPLICIT_TIME},
        ),
        ("show_software_deployment", {"deployment_id": deployment}),
        (
            "signal_software_deployment",
            {"deployment_id": deployment, "details": {}, "updated_at": None},
        ),
        (
            "update_software_deployment",
            {
                **update,
                "config_id": configs[1]["id"],
                "status": "IN_PROGRESS",
                "status_reason": 5,
                "updated_at": "2026-01-02T03:04:05.123+02:00",
            },
        ),
        ("show_software_deployment", {"deployment_id": deployment}),
        ("metadata_software_deployments", {"server_id": server}),
        ("metadata_software_deployments", {"server_id": ""}),
        (
            "signal_software_deployment",
            {
                "deployment_id": deployment,
                "details": {STATUS_CODE: "0", "result": 7},
                "updated_at": None,
            },
        ),
        ("check_software_deployment", {"deployment_id": deployment, "timeout": 2}),
        ("update_software_deployment", {**update, "input_values": {}, "status": "DONE"}),
        ("update_software_deployment", {**update, "config_id": "missing"}),
        ("update_software_deployment", {**update, "updated_at": "garbage"}),
        ("list_software_deployments", {"server_id": server}),
        ("show_software_deployment", {"deployment_id": "missing"}),
        ("check_software_deployment", {"deployment_id": "missing", "timeout": 1}),
        ("delete_software_deployment", {"deployment_id": "missing"}),
        ("delete_software_deployment", {"deployment_id": deployment}),
        ("list_software_deployments", {"server_id": server}),
    ]


STATUS_CODE = "deploy_status_code"


def _ours(context, settings, database, calls: list[Any]) -> list[Any]:
    answers = []
    for method, arguments in calls:
        try:
            function = getattr(software_deployments, method)
            answers.append(function(context, settings, database, None, **arguments))
        except Exception as error:
            answers.append({"exception": type(error).__name__, "message": str(error)})
    return json.loads(json.dumps(answers))


def _heats(database, calls: list[Any], project: str = "project-a") -> Any:
    request = {
        "url": database.url.render_as_string(hide_password=False),
        "project": project,
        "calls": calls,
    }
    return oracle.run_json(HEAT_CALLS.read_text(), json.dumps(request))


def _anonymous(answers: Any, names: dict[str, str]) -> Any:
    """The answers with the script's own deployment and server named alike, and the
    times the script did not give replaced."""
    text = json.dumps(answers)
    for real, placeholder in names.items():
        text = text.replace(real, placeholder)
    found = json.loads(text)

    def scrub(value: Any) -> Any:
        if isinstance(value, dict):
            return {
                key: (
                    "<time>"
                    if key in ("creation_time", "updated_time") and "2026-01-02" not in item
                    else scrub(item)
                )
                for key, item in value.items()
            }
        if isinstance(value, list):
            return [scrub(item) for item in value]
        return value

    return scrub(found)


@pytest.mark.oracle
def test_a_deployments_life_answers_as_heats(context, settings, database) -> None:
    configs = _configs(context, settings, database)
    heat_names = {"d0000000-0000-0000-0000-00000000heat": "<deployment>", "srv-heat": "<server>"}
    our_names = {"d0000000-0000-0000-0000-00000000ours": "<deployment>", "srv-ours": "<server>"}
    (heat_deployment, heat_server), (our_deployment, our_server) = list(heat_names), list(our_names)

    heat = _heats(database, _script(heat_deployment, heat_server, configs))
    ours = _ours(context, settings, database, _script(our_deployment, our_server, configs))

    assert _anonymous(ours, our_names) == _anonymous(heat, heat_names)


@pytest.mark.oracle
def test_each_reads_the_deployments_of_the_other(context, settings, database) -> None:
    configs = _configs(context, settings, database)
    create = {
        "server_id": "srv",
        "config_id": configs[0]["id"],
        "input_values": None,
        "action": None,
        "status": None,
        "status_reason": None,
        "stack_user_project_id": "stack-user-project",
    }
    (theirs,) = _heats(database, [("create_software_deployment", create)])
    software_deployments.create_software_deployment(
        context, settings, database, None, **{**create, "config_id": configs[1]["id"]}
    )
    reads = [
        ("list_software_deployments", {"server_id": None}),
        ("metadata_software_deployments", {"server_id": "srv"}),
        ("show_software_deployment", {"deployment_id": theirs["id"]}),
    ]
    stack_user = RequestContext(project_id="stack-user-project", user_id="server", roles=[])

    assert _ties_by_id(_ours(context, settings, database, reads)) == _ties_by_id(
        _heats(database, reads)
    )
    assert _ties_by_id(_ours(stack_user, settings, database, reads)) == _ties_by_id(
        _heats(database, reads, project="stack-user-project")
    )
    assert theirs["status_reason"] == "None"


def _ties_by_id(answers: list[Any]) -> list[Any]:
    """The answers with the listing's deployments of one creation second ordered by id.

    Both order by creation time alone, which has a resolution of a second on MariaDB, so
    the order of two deployments made in the same second is the database's whim."""
    listing, *rest = answers
    return [sorted(listing, key=lambda row: (row["creation_time"], row["id"])), *rest]


@pytest.mark.oracle
def test_the_servers_resource_metadata_lists_its_configs_as_heats(
    context, settings, database
) -> None:
    configs = _configs(context, settings, database)
    stack = factories.stack(database)
    heat_server = factories.resource(
        database,
        stack.id,
        name="heat_server",
        physical_resource_id="srv-heat",
        rsrc_metadata={"kept": True},
    )
    our_server = factories.resource(
        database,
        stack.id,
        name="our_server",
        physical_resource_id="srv-ours",
        rsrc_metadata={"kept": True},
    )

    def creates(server: str) -> list[Any]:
        return [
            (
                "create_software_deployment",
                {
                    "server_id": server,
                    "config_id": config["id"],
                    "input_values": {},
                    "action": "CREATE",
                    "status": "COMPLETE",
                    "status_reason": "",
                    "stack_user_project_id": None,
                },
            )
            for config in configs
        ]

    heat = _heats(database, creates("srv-heat"))
    ours = _ours(context, settings, database, creates("srv-ours"))

    stored = {row.id: row for row in rows(database, Resource)}
    assert stored[our_server.id].rsrc_metadata == stored[heat_server.id].rsrc_metadata
    assert [config["name"] for config in stored[our_server.id].rsrc_metadata["deployments"]] == [
        "first",
        "second",
    ]
    assert stored[our_server.id].atomic_key == stored[heat_server.id].atomic_key == 2

    deletes = [("delete_software_deployment", {"deployment_id": heat[0]["id"]})]
    assert _ours(
        context,
        settings,
        database,
        [("delete_software_deployment", {"deployment_id": ours[0]["id"]})],
    ) == _heats(database, deletes)
    stored = {row.id: row for row in rows(database, Resource)}
    assert stored[our_server.id].rsrc_metadata == stored[heat_server.id].rsrc_metadata
    assert len(stored[our_server.id].rsrc_metadata["deployments"]) == 1


def test_a_deleted_server_keeps_its_metadata(context, settings, database) -> None:
    configs = _configs(context, settings, database)
    stack = factories.stack(database)
    server = factories.resource(
        database, stack.id, action="DELETE", physical_resource_id="srv", rsrc_metadata={}
    )

    software_deployments.create_software_deployment(
        context, settings, database, None, server_id="srv", config_id=configs[0]["id"]
    )

    assert factories.row(database, Resource, server.id).rsrc_metadata == {}


def test_another_projects_deployment_is_not_found(context, settings, database) -> None:
    configs = _configs(context, settings, database)
    created = software_deployments.create_software_deployment(
        context, settings, database, None, server_id="srv", config_id=configs[0]["id"]
    )
    stranger = RequestContext(project_id="project-b", user_id="bob", roles=["member"])

    with pytest.raises(exception.NotFound) as raised:
        software_deployments.show_software_deployment(
            stranger, settings, database, None, deployment_id=created["id"]
        )

    assert str(raised.value) == f"Deployment with id {created['id']} not found"
    assert software_deployments.list_software_deployments(stranger, settings, database, None) == []


def test_a_deployment_without_a_server_is_refused(context, settings, database) -> None:
    configs = _configs(context, settings, database)

    with pytest.raises(exception.Invalid) as raised:
        software_deployments.create_software_deployment(
            context, settings, database, None, server_id=None, config_id=configs[0]["id"]
        )

    assert str(raised.value) == 'Data supplied was not valid: "server_id" must be specified'
    assert rows(database, SoftwareDeployment) == []


def test_check_gives_up_on_a_deployment_still_in_progress(context, settings, database) -> None:
    configs = _configs(context, settings, database)
    created = software_deployments.create_software_deployment(
        context,
        settings,
        database,
        None,
        server_id="srv",
        config_id=configs[0]["id"],
        status="IN_PROGRESS",
    )

    with pytest.raises(software_deployments.Timeout) as raised:
        software_deployments.check_software_deployment(
            context, settings, database, None, deployment_id=created["id"], timeout=1
        )

    assert str(raised.value) == "Task _check Timed out"


def test_nameless_configs_come_first(context, settings, database) -> None:
    named = software_configs.create_software_config(
        context, settings, database, None, name="named", **CONFIG
    )
    nameless = software_configs.create_software_config(
        context, settings, database, None, name=None, **CONFIG
    )
    for config in (named, nameless):
        software_deployments.create_software_deployment(
            context, settings, database, None, server_id="srv", config_id=config["id"]
        )

    found = software_deployments.metadata_software_deployments(
        context, settings, database, None, server_id="srv"
    )

    assert [config["id"] for config in found] == [nameless["id"], named["id"]]
