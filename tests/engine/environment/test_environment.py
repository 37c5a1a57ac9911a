from __future__ import annotations

import pytest

from keel_app.engine.constraints import registry as constraints_registry
from keel_app.engine.environment import Environment, get_child_environment
from tests.engine.environment.plugins import QueueSink, make_global_env


@pytest.fixture
def global_env() -> Environment:
    return make_global_env()


def test_sectioned_environment(global_env: Environment) -> None:
    document = {
        "parameters": {"a": 1},
        "parameter_defaults": {"b": 2},
        "encrypted_param_names": ["a"],
        "resource_registry": {"My::T": "OS::Heat::None"},
    }
    env = Environment(document, global_env=global_env)
    assert env.params is document["parameters"]
    assert env.param_defaults == {"b": 2}
    assert env.encrypted_param_names == ["a"]
    assert env.env_as_dict() == {
        "resource_registry": {"resources": {}, "My::T": "OS::Heat::None"},
        "parameters": {"a": 1},
        "parameter_defaults": {"b": 2},
        "event_sinks": [],
        "encrypted_param_names": ["a"],
    }


def test_encrypted_names_are_not_shown_to_the_user(global_env: Environment) -> None:
    env = Environment({"encrypted_param_names": ["a"]}, global_env=global_env)
    assert "encrypted_param_names" not in env.user_env_as_dict()


def test_flat_document_is_parameters(global_env: Environment) -> None:
    env = Environment(
        {"flavor": "m1", "resource_registry": {"My::T": "OS::Heat::None"}, "event_sinks": []},
        global_env=global_env,
    )
    assert env.params == {"flavor": "m1"}
    assert env.registry.as_dict() == {"resources": {}, "My::T": "OS::Heat::None"}


def test_registry_shares_the_parameter_defaults(global_env: Environment) -> None:
    env = Environment({"parameter_defaults": {"a": 1}}, global_env=global_env)
    env.load({"parameter_defaults": {"b": 2}})
    assert env.registry.param_defaults == {"a": 1, "b": 2}


def test_event_sinks_are_built_and_kept_as_written(global_env: Environment) -> None:
    sinks = [{"type": "queue", "target": "q1", "ttl": 5}, {"type": "queue", "target": "q2"}]
    env = Environment({"event_sinks": sinks}, global_env=global_env)
    built = env.get_event_sinks()
    assert [(type(sink), sink.target, sink.ttl) for sink in built] == [
        (QueueSink, "q1", 5),
        (QueueSink, "q2", None),
    ]
    assert env.event_sinks == sinks
    assert sinks[0]["type"] == "queue"


def test_unknown_event_sink_type(global_env: Environment) -> None:
    with pytest.raises(KeyError) as raised:
        Environment({"event_sinks": [{"type": "kafka"}]}, global_env=global_env)
    assert str(raised.value) == "'kafka'"


def test_load_adds_on_top(global_env: Environment) -> None:
    env = Environment({"parameters": {"a": 1, "b": 1}}, global_env=global_env)
    env.load(
        {
            "parameters": {"b": 2},
            "resource_registry": {"My::T": "t.yaml"},
            "event_sinks": [{"type": "queue", "target": "q"}],
        }
    )
    assert env.params == {"a": 1, "b": 2}
    assert env.registry.as_dict() == {"resources": {}, "My::T": "t.yaml"}
    assert len(env.get_event_sinks()) == 1


def test_child_environment_takes_registry_not_parameters(global_env: Environment) -> None:
    parent = Environment(
        {
            "parameters": {"parent": 1},
            "parameter_defaults": {"shared": "x"},
            "resource_registry": {"My::T": "OS::Heat::None"},
            "encrypted_param_names": ["parent"],
        },
        global_env=global_env,
    )
    child = get_child_environment(parent, {"size": 3})
    assert child.env_as_dict() == {
        "resource_registry": {"resources": {}, "My::T": "OS::Heat::None"},
        "parameters": {"size": 3},
        "parameter_defaults": {"shared": "x"},
        "event_sinks": [],
        "encrypted_param_names": [],
    }
    assert child.global_env is global_env


def test_child_environment_with_a_sectioned_child(global_env: Environment) -> None:
    parent = Environment({"resource_registry": {"My::T": "OS::Heat::None"}}, global_env=global_env)
    child = get_child_environment(
        parent,
        {"parameters": {"a": 1}, "resource_registry": {"My::*": None}},
    )
    assert child.params == {"a": 1}
    assert child.registry.as_dict() == {"resources": {}}


def test_child_environment_drops_the_template_entry_of_itself(global_env: Environment) -> None:
    parent = Environment({"resource_registry": {"My::T": "t.yaml"}}, global_env=global_env)
    info = parent.get_resource_info("My::T")
    child = get_child_environment(parent, None, item_to_remove=info, child_resource_name="web")
    assert child.registry.as_dict() == {"resources": {}}


def test_global_environment_holds_constraints_and_lifecycle_plugins() -> None:
    env = make_global_env()
    marker = object()
    env.register_constraint("nova.flavor", marker)
    env.register_stack_lifecycle_plugin("audit", dict)
    assert env.get_constraint("nova.flavor") is marker
    assert env.get_constraint("no.such.constraint") is None
    assert env.get_constraint("ip_addr") is constraints_registry.get_constraint("ip_addr")
    assert env.get_constraint("ip_addr") is not None
    assert Environment({}, global_env=env).get_constraint("ip_addr") is None
    assert env.get_stack_lifecycle_plugins() == [("audit", dict)]
    assert env.global_env is None
