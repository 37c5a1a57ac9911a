"""The per-project limits on software configs and deployments (heat.conf's
``max_software_configs_per_tenant`` and ``max_software_deployments_per_tenant``): a
project at its limit is refused with Heat's RequestLimitExceeded, admins never are."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from keel_app.common import exception
from keel_app.common.context import RequestContext
from keel_app.engine.service import software_configs, software_deployments
from keel_app.models import SoftwareConfig
from keel_app.models.software import SoftwareDeployment
from tests import oracle
from tests.engine.conftest import PROJECT
from tests.engine.service.stack_life import rows

HEAT_OPERATOR = Path(__file__).with_name("heat_operator.py")
CONFIG: dict[str, Any] = {
    "group": "script",
    "name": "c",
    "config": "echo hi",
    "inputs": [],
    "outputs": [],
    "options": {},
}
CONFIGS_REFUSED = (
    "Request limit exceeded: You have reached the maximum software configs per tenant, 2. "
    "Please delete some configs."
)
DEPLOYMENTS_REFUSED = (
    "Request limit exceeded: You have reached the maximum software deployments per "
    "tenant, 2. Please delete some deployments."
)


def _caller(project: str = PROJECT, is_admin: bool = False) -> RequestContext:
    return RequestContext(
        user_id="user-1",
        username="alice",
        project_id=project,
        roles=["admin"] if is_admin else ["member"],
        is_admin=is_admin,
    )


def _config(caller, settings, database) -> dict[str, Any]:
    return software_configs.create_software_config(caller, settings, database, None, **CONFIG)


def _deployment(caller, settings, database, config_id: str, **changes: Any) -> dict[str, Any]:
    arguments: dict[str, Any] = {
        "server_id": "server-1",
        "config_id": config_id,
        "input_values": {},
        "action": "CREATE",
        "status": "COMPLETE",
        "status_reason": "",
        "stack_user_project_id": None,
        **changes,
    }
    return software_deployments.create_software_deployment(
        caller, settings, database, None, **arguments
    )


def test_configs_beyond_the_limit_are_refused(context, settings, database) -> None:
    limited = dataclasses.replace(settings, max_software_configs_per_tenant=2)
    made = [_config(context, limited, database)["id"] for _ in range(2)]

    with pytest.raises(exception.RequestLimitExceeded) as refused:
        _config(context, limited, database)

    assert str(refused.value) == CONFIGS_REFUSED
    assert sorted(row.id for row in rows(database, SoftwareConfig)) == sorted(made)


def test_configs_of_other_projects_do_not_count(context, settings, database) -> None:
    limited = dataclasses.replace(settings, max_software_configs_per_tenant=2)
    for _ in range(3):
        _config(_caller("project-b"), settings, database)

    made = [_config(context, limited, database) for _ in range(2)]

    assert [config["name"] for config in made] == ["c", "c"]
    with pytest.raises(exception.RequestLimitExceeded):
        _config(context, limited, database)


def test_admins_and_no_limit_make_configs_past_it(context, settings, database) -> None:
    limited = dataclasses.replace(settings, max_software_configs_per_tenant=0)
    unlimited = dataclasses.replace(settings, max_software_configs_per_tenant=-1)

    _config(_caller(is_admin=True), limited, database)
    _config(context, unlimited, database)
    _config(context, unlimited, database)

    assert len(rows(database, SoftwareConfig)) == 3
    with pytest.raises(exception.RequestLimitExceeded):
        _config(context, limited, database)


def test_the_config_limit_comes_before_checking_the_config(context, settings, database) -> None:
    limited = dataclasses.replace(settings, max_software_configs_per_tenant=0)

    with pytest.raises(exception.RequestLimitExceeded):
        software_configs.create_software_config(
            context, limited, database, None, **{**CONFIG, "inputs": "not a list"}
        )


def test_deployments_beyond_the_limit_are_refused(context, settings, database) -> None:
    limited = dataclasses.replace(settings, max_software_deployments_per_tenant=2)
    config_id = _config(context, settings, database)["id"]
    made = [_deployment(context, limited, database, config_id)["id"] for _ in range(2)]

    with pytest.raises(exception.RequestLimitExceeded) as refused:
        _deployment(context, limited, database, config_id)

    assert str(refused.value) == DEPLOYMENTS_REFUSED
    assert sorted(row.id for row in rows(database, SoftwareDeployment)) == sorted(made)


def test_deployments_count_those_of_the_projects_servers(context, settings, database) -> None:
    # A deployment another project made for a server whose stack-user project this is.
    limited = dataclasses.replace(settings, max_software_deployments_per_tenant=2)
    other = _caller("project-b")
    other_config = _config(other, settings, database)["id"]
    for _ in range(2):
        _deployment(other, settings, database, other_config, stack_user_project_id=PROJECT)
    config_id = _config(context, settings, database)["id"]

    with pytest.raises(exception.RequestLimitExceeded) as refused:
        _deployment(context, limited, database, config_id)

    assert str(refused.value) == DEPLOYMENTS_REFUSED


def test_admins_and_no_limit_make_deployments_past_it(context, settings, database) -> None:
    config_id = _config(context, settings, database)["id"]
    limited = dataclasses.replace(settings, max_software_deployments_per_tenant=0)
    unlimited = dataclasses.replace(settings, max_software_deployments_per_tenant=-1)

    _deployment(_caller(is_admin=True), limited, database, config_id)
    _deployment(context, unlimited, database, config_id)

    assert len(rows(database, SoftwareDeployment)) == 2
    with pytest.raises(exception.RequestLimitExceeded):
        _deployment(context, limited, database, config_id)


@pytest.mark.oracle
def test_limits_refuse_as_heat(context, settings, database) -> None:
    limits = {"max_software_configs_per_tenant": 2, "max_software_deployments_per_tenant": 2}
    limited = dataclasses.replace(settings, **limits)
    config_id = _config(context, settings, database)["id"]
    _config(context, settings, database)
    _deployment(context, settings, database, config_id)
    other = _caller("project-b")
    other_config = _config(other, settings, database)["id"]
    _deployment(other, settings, database, other_config, stack_user_project_id=PROJECT)
    deployment = {
        "server_id": "server-1",
        "config_id": config_id,
        "input_values": {},
        "action": "CREATE",
        "status": "COMPLETE",
        "status_reason": "",
        "stack_user_project_id": None,
    }
    calls = [
        ("create_software_config", CONFIG),
        ("create_software_deployment", deployment),
    ]
    request = {
        "url": database.url.render_as_string(hide_password=False),
        "project": PROJECT,
        "config": limits,
        "calls": [{"method": method, "arguments": arguments} for method, arguments in calls],
    }

    heat = oracle.run_json(HEAT_OPERATOR.read_text(), json.dumps(request))
    ours = []
    for method, arguments in calls:
        module = software_configs if method == "create_software_config" else software_deployments
        try:
            getattr(module, method)(context, limited, database, None, **arguments)
        except exception.HeatException as error:
            ours.append({"exception": type(error).__name__, "message": str(error)})

    assert ours == heat
    assert heat == [
        {"exception": "RequestLimitExceeded", "message": CONFIGS_REFUSED},
        {"exception": "RequestLimitExceeded", "message": DEPLOYMENTS_REFUSED},
    ]
