from __future__ import annotations

from typing import Any

import pytest

from keel_app.common.exception import (
    EntityNotFound,
    Invalid,
    InvalidBreakPointHook,
    InvalidRestrictedAction,
    StackValidationFailed,
)
from keel_app.engine.environment import (
    ClassResourceInfo,
    Environment,
    GlobResourceInfo,
    MapResourceInfo,
    TemplateResourceInfo,
)
from tests.engine.environment.plugins import (
    NoneResource,
    OldAlarm,
    ServerResource,
    TemplateResource,
    make_global_env,
)


@pytest.fixture
def global_env() -> Environment:
    return make_global_env()


def user_env(global_env: Environment, registry: dict[str, Any]) -> Environment:
    return Environment({"resource_registry": registry}, global_env=global_env)


def test_entry_kind_follows_name_and_value(global_env: Environment) -> None:
    env = user_env(
        global_env,
        {
            "A::Map": "OS::Heat::None",
            "A::Glob*": "OS::Heat::None",
            "A::File": "a.yaml",
            "a.template": "https://example.com/x.template",
        },
    )
    entries = env.registry._registry
    assert type(entries["A::Map"]) is MapResourceInfo
    assert type(entries["A::Glob*"]) is GlobResourceInfo
    assert type(entries["A::File"]) is TemplateResourceInfo
    # A type named like a template is its own template, whatever the value says.
    assert entries["a.template"].value == "a.template"
    assert type(global_env.registry._registry["OS::Heat::None"]) is ClassResourceInfo


def test_mapping_resolves_to_the_plugin(global_env: Environment) -> None:
    env = user_env(global_env, {"OS::Networking::Net": "OS::Neutron::Net"})
    assert env.get_class("OS::Networking::Net") is NoneResource
    info = env.get_resource_info("OS::Networking::Net", "net")
    assert (info.name, info.user_resource) == ("OS::Neutron::Net", False)


def test_glob_keeps_the_suffix(global_env: Environment) -> None:
    env = user_env(global_env, {"OS::Networking::*": "OS::Neutron::*"})
    assert env.get_resource_info("OS::Networking::Port").name == "OS::Neutron::Port"
    with pytest.raises(EntityNotFound) as raised:
        env.get_resource_info("OS::Networking::Router")
    assert str(raised.value) == "The Resource Type (OS::Networking::Router) could not be found."


def test_many_to_one_glob_does_not_match_its_own_target(global_env: Environment) -> None:
    env = user_env(global_env, {"OS::Heat::*": "OS::Heat::None"})
    assert env.registry._registry["OS::Heat::*"].matches("OS::Heat::None") is False
    assert env.get_class("OS::Heat::Anything") is NoneResource
    assert env.get_class("OS::Heat::None") is NoneResource


def test_user_glob_sorts_before_exact_name_of_same_length(global_env: Environment) -> None:
    env = user_env(
        global_env, {"OS::Nova::*": "OS::Heat::None", "OS::Nova::Server": "OS::Neutron::Net"}
    )
    # "*" sorts before any letter: Heat's order, kept.
    assert env.get_resource_info("OS::Nova::Server").name == "OS::Heat::None"


def test_per_resource_override_applies_to_that_resource(global_env: Environment) -> None:
    env = user_env(global_env, {"resources": {"web": {"OS::Nova::Server": "OS::Heat::None"}}})
    assert env.get_class("OS::Nova::Server", "db") is ServerResource
    assert env.get_class("OS::Nova::Server", "web") is NoneResource


def test_per_resource_override_spreads_once_used_as_in_heat(global_env: Environment) -> None:
    env = user_env(global_env, {"resources": {"web": {"OS::Nova::Server": "OS::Heat::None"}}})
    env.get_class("OS::Nova::Server", "web")
    assert env.get_class("OS::Nova::Server", "db") is NoneResource
    assert env.registry.as_dict()["OS::Nova::Server"] == "OS::Heat::None"


def test_global_mapping_is_copied_into_the_user_registry(global_env: Environment) -> None:
    global_env.registry.load({"OS::Metering::Alarm": "OS::Aodh::Alarm"})
    env = Environment({}, global_env=global_env)
    assert env.get_class("OS::Metering::Alarm") is OldAlarm
    assert env.registry.as_dict() == {"resources": {}, "OS::Metering::Alarm": "OS::Aodh::Alarm"}


def test_a_lookup_does_not_mark_the_global_entry_as_a_users(global_env: Environment) -> None:
    # Heat flips the shared global entry to a user entry here, which then outranks
    # other users' own mappings for the rest of the process; OpenKeel copies it.
    global_env.registry.load({"OS::Quantum*": "OS::Neutron*"})
    first = Environment({}, global_env=global_env)
    assert first.get_resource_info("OS::Quantum::Net").name == "OS::Neutron::Net"
    assert global_env.registry._registry["OS::Quantum*"].user_resource is False
    second = user_env(global_env, {"OS::Quantum::Port": "OS::Nova::Server"})
    assert second.get_class("OS::Quantum::Port") is ServerResource


def test_template_type_is_registered_on_sight_in_user_registries(global_env: Environment) -> None:
    env = Environment({}, global_env=global_env)
    info = env.get_resource_info("nested/server.yaml", "web")
    assert (type(info), info.template_name, info.user_resource) == (
        TemplateResourceInfo,
        "nested/server.yaml",
        True,
    )
    assert env.registry.as_dict()["nested/server.yaml"] == "nested/server.yaml"
    with pytest.raises(EntityNotFound):
        global_env.get_resource_info("nested/server.yaml")


def test_template_resource_reads_files_before_fetching(global_env: Environment) -> None:
    env = user_env(global_env, {"My::Server": "server.yaml"})
    env.param_defaults["flavor"] = "m1"
    generated = env.get_class("My::Server", files={"server.yaml": "the template"})
    assert generated.__name__ == "My::Server"
    assert generated.template_data == "the template"
    assert generated.param_defaults == {"flavor": "m1"}
    assert env.get_class_to_instantiate("My::Server") is TemplateResource


def test_template_fetch_schemes_depend_on_who_registered_it(global_env: Environment) -> None:
    TemplateResource.fetched.clear()
    global_env.registry.load({"AWS::Thing": "file:///srv/templates/thing.yaml"})
    env = user_env(global_env, {"My::Remote": "https://example.com/remote.yaml"})
    assert env.get_class("My::Remote").template_data == "fetched https://example.com/remote.yaml"
    env.get_class("AWS::Thing")
    assert TemplateResource.fetched == [
        ("https://example.com/remote.yaml", ("http", "https")),
        ("file:///srv/templates/thing.yaml", ("file",)),
    ]


@pytest.mark.parametrize(
    ("resource_type", "message"),
    [
        ("", 'Resource "r" has no type'),
        (None, 'Non-empty resource type is required for resource "r"'),
        (5, 'Resource "r" type is not a string'),
        ("OS::Nope", "The Resource Type (OS::Nope) could not be found."),
    ],
)
def test_instantiating_a_bad_type(
    global_env: Environment, resource_type: Any, message: str
) -> None:
    with pytest.raises(StackValidationFailed) as raised:
        global_env.get_class_to_instantiate(resource_type, "r")
    assert str(raised.value) == message


def test_mapping_to_nothing_is_not_found_under_its_own_name(global_env: Environment) -> None:
    env = user_env(global_env, {"My::Alias": "My::Missing"})
    with pytest.raises(EntityNotFound) as raised:
        env.get_resource_info("My::Alias")
    assert str(raised.value) == "The Resource Type (My::Alias) could not be found."


def test_null_removes_an_entry_and_a_glob_null_removes_many(global_env: Environment) -> None:
    env = user_env(
        global_env, {"OS::Nova::A": "OS::Heat::None", "OS::Nova::B": "x.yaml", "Keep": "OS::X"}
    )
    env.registry.load({"OS::Nova::*": None, "Keep": None})
    assert env.registry.as_dict() == {"resources": {}}


def test_hooks_match_by_name_and_pattern(global_env: Environment) -> None:
    env = user_env(
        global_env,
        {"resources": {"web": {"hooks": "pre-create"}, "db_*": {"hooks": ["post-delete"]}}},
    )
    assert env.registry.matches_hook("web", "pre-create") is True
    assert env.registry.matches_hook("web", "pre-update") is False
    assert env.registry.matches_hook("db_1", "post-delete") is True
    assert env.registry.matches_hook("db", "post-delete") is False


def test_invalid_hook_lists_the_types(global_env: Environment) -> None:
    with pytest.raises(InvalidBreakPointHook) as raised:
        user_env(global_env, {"resources": {"web": {"hooks": ["pre-create", "pre-launch"]}}})
    assert str(raised.value) == (
        "Invalid hook type \"['pre-create', 'pre-launch']\" for resource breakpoint, "
        "acceptable hook types are: ('pre-create', 'pre-update', 'pre-delete', "
        "'post-create', 'post-update', 'post-delete')"
    )


def test_restricted_actions_gather_every_matching_pattern(global_env: Environment) -> None:
    env = user_env(
        global_env,
        {
            "resources": {
                "db": {"restricted_actions": "update"},
                "d*": {"restricted_actions": ["replace"]},
            }
        },
    )
    assert env.registry.get_rsrc_restricted_actions("db") == {"update", "replace"}
    assert env.registry.get_rsrc_restricted_actions("web") == set()


def test_invalid_restricted_action(global_env: Environment) -> None:
    with pytest.raises(InvalidRestrictedAction) as raised:
        user_env(global_env, {"resources": {"db": {"restricted_actions": "delete"}}})
    assert str(raised.value) == (
        'Invalid restricted_action type "delete" for resource, '
        "acceptable restricted_action types are: ('update', 'replace')"
    )


def test_remove_resources_except_flattens_what_applies(global_env: Environment) -> None:
    env = user_env(
        global_env,
        {
            "resources": {
                "group": {"hooks": "pre-create", "OS::Nova::Server": "OS::Heat::None"},
                "gr*": {"restricted_actions": "update"},
                "other": {"hooks": "post-create"},
            }
        },
    )
    env.registry.remove_resources_except("group")
    assert env.registry.as_dict()["resources"] == {
        "hooks": "pre-create",
        "OS::Nova::Server": "OS::Heat::None",
        "restricted_actions": "update",
    }


def test_remove_item_forgets_only_template_entries(global_env: Environment) -> None:
    env = user_env(global_env, {"My::T": "t.yaml", "My::M": "OS::Heat::None"})
    env.registry.remove_item(env.get_resource_info("My::T"))
    env.registry.remove_item(env.registry._registry["My::M"])
    assert env.registry.as_dict() == {"resources": {}, "My::M": "OS::Heat::None"}


def test_user_entries_sort_first_then_longer_paths(global_env: Environment) -> None:
    env = user_env(global_env, {"B": "OS::Heat::None", "resources": {"r": {"B": "x.yaml"}}})
    user_short = env.registry._registry["B"]
    user_long = env.registry._registry["resources"]["r"]["B"]
    plugin = global_env.registry._registry["OS::Heat::None"]
    assert sorted([plugin, user_short, user_long]) == [user_long, user_short, plugin]


def test_entry_text_form(global_env: Environment) -> None:
    env = user_env(global_env, {"My::T": "t.yaml"})
    assert str(env.registry._registry["My::T"]) == "[Template](User:True) My::T -> t.yaml"


def test_types_skip_hidden_and_mappings(global_env: Environment) -> None:
    global_env.registry.load({"OS::Metering::Alarm": "OS::Aodh::Alarm"})
    assert global_env.get_types() == [
        "OS::Heat::None",
        "OS::Nova::Server",
        "OS::Neutron::Net",
        "OS::Neutron::Port",
        "OS::Aodh::Alarm",
    ]


def test_types_filtered_by_status_version_and_name(global_env: Environment) -> None:
    assert global_env.get_types(support_status="DEPRECATED") == ["OS::Aodh::Alarm"]
    assert global_env.get_types(version="2014.1") == ["OS::Nova::Server"]
    assert global_env.get_types(type_name="OS::Neutron") == [
        "OS::Neutron::Net",
        "OS::Neutron::Port",
    ]
    assert global_env.get_types(type_name="(") == []


def test_types_with_an_invalid_status(global_env: Environment) -> None:
    with pytest.raises(Invalid) as raised:
        global_env.get_types(support_status="RETIRED")
    assert str(raised.value) == (
        "Data supplied was not valid: Invalid support status and should be one of "
        "('UNKNOWN', 'SUPPORTED', 'DEPRECATED', 'UNSUPPORTED', 'HIDDEN')"
    )


def test_types_for_a_context_need_policy_and_service(global_env: Environment) -> None:
    def allowed(context: Any, name: str) -> bool:
        return name != "OS::Heat::None"

    names = global_env.get_types(
        {"compute": False}, type_name="OS::(Heat|Nova)", is_allowed=allowed
    )
    assert names == []
    names = global_env.get_types({"compute": True}, type_name="OS::(Heat|Nova)", is_allowed=allowed)
    assert names == ["OS::Nova::Server"]


def test_types_with_description(global_env: Environment) -> None:
    env = user_env(global_env, {"My::T": "t.yaml"})
    TemplateResource.fetched.clear()
    assert env.get_types(with_description=True) == [
        {"resource_type": "My::T", "description": "fetched t.yaml"}
    ]


def test_lookup_by_entry_kind_and_ignoring_one(global_env: Environment) -> None:
    env = user_env(global_env, {"OS::Nova::Server": "server.yaml"})
    template_info = env.get_resource_info("OS::Nova::Server", registry_type=TemplateResourceInfo)
    assert template_info.template_name == "server.yaml"
    # A template resource looks for what it overrides by skipping itself.
    underneath = env.get_resource_info("OS::Nova::Server", ignore=template_info)
    assert underneath.value is ServerResource
    plugin = env.get_resource_info("OS::Nova::Server", registry_type=ClassResourceInfo)
    assert plugin.value is ServerResource
    with pytest.raises(EntityNotFound):
        env.get_resource_info("OS::Heat::None", registry_type=TemplateResourceInfo)
