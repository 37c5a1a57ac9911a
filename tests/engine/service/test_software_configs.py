"""The software config calls answer and store as Heat's own EngineService does: the same
calls are made by OpenKeel and by Heat 27.0.1 on one database, and the answers and the
rows compared; each then reads and deletes what the other made."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from keel_app.common import exception
from keel_app.common.context import RequestContext
from keel_app.engine.service import software_configs
from keel_app.models import SoftwareConfig
from keel_app.models.software import SoftwareDeployment
from tests import oracle
from tests.engine.service.stack_life import rows

HEAT_CONFIGS = Path(__file__).with_name("heat_software_configs.py")

FULL: dict[str, Any] = {
    "group": "script",
    "name": "full",
    "config": "echo hi",
    "inputs": [
        {"name": "plain"},
        {"name": "count", "type": "Number", "default": "3", "description": "how many"},
        {"name": "swap", "replace_on_change": True},
        {"name": "legacy", "type": "Number", "default": ""},
        {"name": "given", "value": 5},
        {"name": "flag", "type": "Boolean", "default": "true"},
    ],
    "outputs": [{"name": "result"}, {"name": "error", "type": "Json", "error_output": True}],
    "options": {"mode": "fast"},
}


def _with(**changes: Any) -> dict[str, Any]:
    return {**FULL, **changes}


CREATES: list[dict[str, Any]] = [
    FULL,
    _with(name="structured", config={"a": [1, 2]}, inputs=[], outputs=[], options={}),
    _with(inputs=[{"name": "x", "type": "Bogus"}]),
    _with(inputs=[{"name": "x", "colour": "red"}]),
    _with(inputs={"name": "x"}),
    _with(inputs=["x"]),
    _with(inputs=[{"type": "String"}]),
    _with(inputs=[{"name": "b", "type": "Boolean", "default": "yes"}]),
    _with(inputs=[{"name": "n", "type": "Number", "default": "many"}]),
    _with(outputs=[{"name": "o", "error_output": "perhaps"}]),
]


def _ours(context: Any, settings, database, calls: list[tuple[str, dict[str, Any]]]) -> list[Any]:
    answers = []
    for method, arguments in calls:
        try:
            answers.append(
                getattr(software_configs, method)(context, settings, database, None, **arguments)
            )
        except Exception as error:
            answers.append({"exception": type(error).__name__, "message": str(error)})
    return json.loads(json.dumps(answers))


def _heats(database, calls: list[tuple[str, dict[str, Any]]], is_admin: bool = False) -> Any:
    request = {
        "url": database.url.render_as_string(hide_password=False),
        "project": "project-a",
        "is_admin": is_admin,
        "calls": calls,
    }
    return oracle.run_json(HEAT_CONFIGS.read_text(), json.dumps(request))


def _anonymous(answers: list[Any]) -> list[Any]:
    return [
        {key: value for key, value in answer.items() if key not in ("id", "creation_time")}
        if isinstance(answer, dict)
        else answer
        for answer in answers
    ]


@pytest.mark.oracle
def test_creates_answer_and_store_as_heat(context, settings, database) -> None:
    calls = [("create_software_config", arguments) for arguments in CREATES]

    heat = _heats(database, calls)
    heat_rows = rows(database, SoftwareConfig)
    ours = _ours(context, settings, database, calls)

    assert _anonymous(ours) == _anonymous(heat)
    heat_ids = {row.id for row in heat_rows}
    our_rows = [row for row in rows(database, SoftwareConfig) if row.id not in heat_ids]

    def stored(found: list[Any]) -> list[Any]:
        return sorted((row.name, row.group, row.tenant, row.config) for row in found)

    assert stored(our_rows) == stored(heat_rows)


@pytest.mark.oracle
def test_reads_and_deletes_answer_as_heat(context, settings, database) -> None:
    mine = software_configs.create_software_config(context, settings, database, None, **FULL)
    (theirs,) = _heats(database, [("create_software_config", _with(name="theirs"))])
    reads = [
        ("show_software_config", {"config_id": theirs["id"]}),
        ("show_software_config", {"config_id": mine["id"]}),
        ("show_software_config", {"config_id": "missing"}),
        ("list_software_configs", {}),
        ("list_software_configs", {"limit": 1}),
        ("list_software_configs", {"marker": theirs["id"]}),
        ("delete_software_config", {"config_id": "missing"}),
    ]

    assert _ours(context, settings, database, reads) == _heats(database, reads)


@pytest.mark.oracle
def test_admins_list_every_project_with_its_name(context, settings, database) -> None:
    software_configs.create_software_config(context, settings, database, None, **FULL)
    admin = RequestContext(project_id="project-b", user_id="root", is_admin=True, roles=["admin"])
    reads = [("list_software_configs", {}), ("list_software_configs", {"limit": 0})]

    ours = _ours(admin, settings, database, reads)

    assert ours == _heats(database, reads, is_admin=True)
    assert ours[0][0]["project"] == "project-a"


def test_another_projects_config_is_not_found(context, settings, database) -> None:
    created = software_configs.create_software_config(context, settings, database, None, **FULL)
    stranger = RequestContext(project_id="project-b", user_id="bob", roles=["member"])

    with pytest.raises(exception.NotFound) as raised:
        software_configs.show_software_config(
            stranger, settings, database, None, config_id=created["id"]
        )

    assert str(raised.value) == f"Software config with id {created['id']} not found"
    assert software_configs.list_software_configs(stranger, settings, database, None) == []


def test_a_deployed_config_cannot_be_deleted(context, settings, database) -> None:
    created = software_configs.create_software_config(context, settings, database, None, **FULL)
    with database.transaction() as session:
        session.add(
            SoftwareDeployment(
                server_id="server-1",
                config_id=created["id"],
                tenant="project-a",
                action="CREATE",
                status="COMPLETE",
            )
        )

    with pytest.raises(exception.InvalidRestrictedAction) as raised:
        software_configs.delete_software_config(
            context, settings, database, None, config_id=created["id"]
        )

    assert str(raised.value) == (
        f"Software config with id {created['id']} can not be deleted as it is referenced."
    )
    assert [row.id for row in rows(database, SoftwareConfig)] == [created["id"]]


def test_delete_removes_the_row(context, settings, database) -> None:
    created = software_configs.create_software_config(context, settings, database, None, **FULL)

    software_configs.delete_software_config(
        context, settings, database, None, config_id=created["id"]
    )

    assert rows(database, SoftwareConfig) == []
