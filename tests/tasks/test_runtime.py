"""A worker's runtime built from heat.conf: the global environment from the configured
directories, and Heat's resource type policy in the engine's settings."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from keel_app.common import config
from keel_app.common.context import RequestContext
from keel_app.common.exception import HeatException
from keel_app.engine.environment import global_environment
from keel_app.engine.service import catalog
from keel_app.tasks import runtime

IDENTITY = {
    "type": "identity",
    "endpoints": [{"interface": "public", "region": "RegionOne", "url": "http://127.0.0.1:9/v3"}],
}


@pytest.fixture
def built(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[runtime.WorkerRuntime]:
    # The process's global environment is put back as it was after the test.
    monkeypatch.setattr(global_environment, "_global_environment", None)
    monkeypatch.setattr(global_environment, "_built_from", None)
    environment_dir = tmp_path / "environment.d"
    environment_dir.mkdir()
    (environment_dir / "site.yaml").write_text('resource_registry: {"Site::T": "OS::Heat::None"}\n')
    path = tmp_path / "heat.conf"
    path.write_text(
        f"[DEFAULT]\nenvironment_dir = {environment_dir}\n"
        f"[database]\nconnection = sqlite:///{tmp_path / 'heat.sqlite'}\n"
    )
    built = runtime.build(config.load(["--config-file", str(path)]))
    yield built
    built.database.dispose()


def _keystone_user_schema(built: runtime.WorkerRuntime, roles: list[str]) -> str:
    """The type's schema as a caller with ``roles`` is answered: its name, or the error's."""
    token = {"token": {"catalog": [IDENTITY], "roles": [{"name": role} for role in roles]}}
    context = RequestContext(project_id="p", user_id="u", roles=roles, auth_token_info=token)
    try:
        schema = catalog.resource_schema(
            context, built.settings, None, None, type_name="OS::Keystone::User"
        )
    except HeatException as error:
        return type(error).__name__
    return str(schema["resource_type"])


def test_keystone_types_pass_the_policy_for_admins_only(built: runtime.WorkerRuntime) -> None:
    # A member is refused by Heat's resource type policy; an admin is shown the type.
    assert _keystone_user_schema(built, ["member", "heat_stack_owner"]) == "Forbidden"
    assert _keystone_user_schema(built, ["admin"]) == "OS::Keystone::User"


def test_the_configured_environment_directory_is_read(built: runtime.WorkerRuntime) -> None:
    registry = global_environment.global_env().registry._registry

    assert registry["Site::T"].value == "OS::Heat::None"
    assert "AWS::CloudWatch::Alarm" not in registry
