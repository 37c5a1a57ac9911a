from __future__ import annotations

import logging
from pathlib import Path

import pytest

from keel_app.engine.environment import (
    PACKAGED_ENVIRONMENT_DIR,
    PACKAGED_TEMPLATE_DIR,
    Environment,
    TemplateResourceInfo,
    build_global_environment,
    global_env,
    global_environment,
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


@pytest.fixture
def process_global_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """The process's global environment is put back as it was after the test."""
    monkeypatch.setattr(global_environment, "_global_environment", None)
    monkeypatch.setattr(global_environment, "_built_from", None)


ALARM_TEMPLATE = """\
HeatTemplateFormatVersion: '2012-12-12'
Description: the operator's alarm
Parameters:
  Site: {Type: String}
"""


def _alarm_parameters(env: Environment) -> list[str]:
    return sorted(env.get_class("AWS::CloudWatch::Alarm").properties_schema)


@pytest.mark.usefixtures("process_global_environment")
def test_an_operators_environment_directory_is_read(tmp_path: Path) -> None:
    (tmp_path / "site.yaml").write_text('resource_registry: {"My::T": "OS::Heat::None"}\n')

    env = global_environment.initialise(tmp_path, tmp_path / "templates")

    assert env.registry._registry["My::T"].value == "OS::Heat::None"
    assert "AWS::CloudWatch::Alarm" not in env.registry._registry
    assert global_env() is env


@pytest.mark.usefixtures("process_global_environment")
def test_without_the_operators_directories_the_packaged_copies_are_read(tmp_path: Path) -> None:
    env = global_environment.initialise(tmp_path / "no-env.d", tmp_path / "no-templates")

    assert env.registry._registry["OS::Metering::Alarm"].value == "OS::Aodh::Alarm"
    assert "Threshold" in _alarm_parameters(env)
    assert env.get_class("AWS::RDS::DBInstance").getdoc() == "Builtin AWS::RDS::DBInstance"


def test_templates_in_an_operators_template_directory_are_read_from_it(tmp_path: Path) -> None:
    templates = tmp_path / "templates"
    templates.mkdir()
    (templates / "AWS_CloudWatch_Alarm.yaml").write_text(ALARM_TEMPLATE)
    (tmp_path / "env.d").mkdir()
    (tmp_path / "env.d" / "alarm.yaml").write_text(
        f'resource_registry: {{"AWS::CloudWatch::Alarm": "{templates.as_uri()}/'
        'AWS_CloudWatch_Alarm.yaml"}\n'
    )

    env = build_global_environment(tmp_path / "env.d", template_dir=templates)

    assert _alarm_parameters(env) == ["Site"]


def test_a_missing_template_directory_is_read_from_the_packaged_copies(tmp_path: Path) -> None:
    missing = tmp_path / "templates"
    (tmp_path / "env.d").mkdir()
    (tmp_path / "env.d" / "alarm.yaml").write_text(
        f'resource_registry: {{"AWS::CloudWatch::Alarm": "{missing.as_uri()}/'
        'AWS_CloudWatch_Alarm.yaml"}\n'
    )

    env = build_global_environment(tmp_path / "env.d", template_dir=missing)

    assert "Threshold" in _alarm_parameters(env)
    assert [path.name for path in sorted(PACKAGED_TEMPLATE_DIR.iterdir())] == [
        "AWS_CloudWatch_Alarm.yaml",
        "AWS_RDS_DBInstance.yaml",
    ]
