"""The function framework: parsing, resolving, validating, copying, dependencies."""

from __future__ import annotations

import copy

import pytest

from keel_app.common.exception import StackValidationFailed
from keel_app.common.identifier import HeatIdentifier
from keel_app.engine.template import Template, function
from keel_app.engine.template.dependencies import resource_dependencies
from keel_app.engine.template.stack_definition import ResourceData, StackDefinition

STACK_ID = HeatIdentifier("tenant", "stack", "1234")


def stack_for(template_data: dict, **resource_data: ResourceData) -> StackDefinition:
    return StackDefinition(None, Template(template_data), STACK_ID, resource_data)


WEB = {
    "heat_template_version": "2021-04-16",
    "parameters": {"name": {"type": "string", "default": "web"}},
    "resources": {
        "server": {"type": "OS::Nova::Server", "properties": {"name": {"get_param": "name"}}},
        "port": {
            "type": "OS::Neutron::Port",
            "properties": {"device": {"get_resource": "server"}},
            "depends_on": ["volume"],
        },
        "volume": {"type": "OS::Cinder::Volume"},
    },
}


def test_parsed_snippet_resolves_late_against_what_the_stack_knows() -> None:
    stack = stack_for(WEB)
    snippet = stack.t.parse(stack, {"id": {"get_resource": "server"}})
    assert function.resolve(snippet) == {"id": "server"}
    stack._resource_data["server"] = ResourceData("server", "a1b2")
    stack._resources.clear()
    assert function.resolve(snippet) == {"id": "a1b2"}


def test_a_false_if_without_else_value_leaves_no_item() -> None:
    stack = stack_for(WEB)
    snippet = stack.t.parse(
        stack, {"keep": 1, "drop": {"if": [False, 2]}, "list": [{"if": [False, 3]}]}
    )
    assert function.resolve(snippet) == {"keep": 1, "list": []}


def test_parse_error_names_the_path_of_the_function() -> None:
    stack = stack_for(WEB)
    with pytest.raises(StackValidationFailed) as raised:
        stack.t.parse(stack, {"a": [{"get_attr": []}]}, path="resources.x.properties")
    assert str(raised.value) == (
        'resources.x.properties.a[0].get_attr: Arguments to "get_attr" can be of the next '
        "forms: [resource_name] or [resource_name, attribute, (path), ...]"
    )


def test_validate_error_names_the_path_of_the_function() -> None:
    stack = stack_for(WEB)
    snippet = stack.t.parse(stack, {"a": {"b": [0, {"make_url": {"port": 0}}]}})
    with pytest.raises(StackValidationFailed) as raised:
        function.validate(snippet, "Properties")
    assert str(raised.value) == (
        "Properties.a.b[1].make_url: Invalid URL port 0, must be in range 1-65535"
    )


def test_copying_a_parsed_snippet_gives_back_its_json_form() -> None:
    stack = stack_for(WEB)
    raw = {"x": {"str_replace": {"template": "a", "params": {"a": {"get_param": "name"}}}}}
    assert copy.deepcopy(stack.t.parse(stack, raw)) == raw


def test_functions_compare_by_their_result() -> None:
    stack = stack_for(WEB)
    assert stack.t.parse(stack, {"get_param": "name"}) == "web"
    assert stack.t.parse(stack, {"get_param": "name"}) != "app"


def test_resource_dependencies_follow_functions_and_depends_on() -> None:
    graph = resource_dependencies(stack_for(WEB))
    assert str(graph) == "{server: {}, port: {server, volume}, volume: {}}"
    assert list(graph) == ["server", "volume", "port"]


def test_resource_definition_renders_back_to_hot() -> None:
    stack = stack_for(WEB)
    port = stack.resource_definition("port")
    assert port.render_hot() == WEB["resources"]["port"]
    assert port.required_resource_names() == {"server", "volume"}
