from __future__ import annotations

import logging
from pathlib import Path

import pytest

from keel_app.engine.environment import (
    PACKAGED_ENVIRONMENT_DIR,
    Environment,
    TemplateResourceInfo,
    global_env,
)
from tests.engine.environment.plugins import (
    RESOURCE_CLASSES,
    NoneResource,
    OldAlarm,
    make_global_env,
)


def test_packaged_directory_holds_heats_default_mappings() -> None:
    env = make_global_env(PACKAGED_ENVIRONMENT_DIR)
    user = Environment({}, global_env=env)
    assert user.get_class("OS::Quantum::Net") is NoneResource
    assert user.get_class("OS::Ceilometer::Alarm") is OldAlarm
    alarm = user.get_resource_info("AWS::CloudWatch::Alarm")
    assert isinstance(alarm, TemplateResourceInfo)
    assert (alarm.template_name, alarm.user_resource) == (
        "file:///etc/heat/templates/AWS_CloudWatch_Alarm.yaml",
        False,
    )


def test_files_are_read_in_name_order(tmp_path: Path) -> None:
    (tmp_path / "20-site.yaml").write_text('resource_registry: {"My::T": "OS::Neutron::Net"}\n')
    (tmp_path / "10-base.yaml").write_text(
        'resource_registry: {"My::T": "OS::Heat::None", "My::U": "OS::Heat::None"}\n'
        "parameter_defaults: {region: one}\n"
    )
    env = make_global_env(tmp_path)
    assert env.registry._registry["My::T"].value == "OS::Neutron::Net"
    assert env.registry._registry["My::U"].value == "OS::Heat::None"
    assert env.param_defaults == {"region": "one"}


def test_bad_and_hidden_files_are_skipped(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    (tmp_path / "a-broken.yaml").write_text("parameters: [1, 2\n")
    (tmp_path / ".hidden.yaml").write_text('resource_registry: {"My::H": "OS::Heat::None"}\n')
    (tmp_path / "b-good.yaml").write_text('resource_registry: {"My::G": "OS::Heat::None"}\n')
    (tmp_path / "c-directory").mkdir()
    with caplog.at_level(logging.ERROR):
        env = make_global_env(tmp_path)
    assert "My::G" in env.registry._registry
    assert "My::H" not in env.registry._registry
    failures = [record.getMessage() for record in caplog.records]
    assert failures == [
        f"Failed to parse {tmp_path / 'a-broken.yaml'}",
        f"Failed to read {tmp_path / 'c-directory'}",
    ]


def test_missing_directory_is_an_empty_one(tmp_path: Path) -> None:
    env = make_global_env(tmp_path / "nowhere")
    assert list(env.registry._registry) == ["resources", *(name for name, _ in RESOURCE_CLASSES)]


def test_process_global_environment_is_built_once() -> None:
    first = global_env()
    assert first is global_env()
    assert first.registry._registry["OS::Metering::Alarm"].value == "OS::Aodh::Alarm"
    assert Environment({}).global_env is first
