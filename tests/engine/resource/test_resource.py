"""The resource plugin base class: instantiation, service checks, validation, node data."""

from __future__ import annotations

from typing import Any

import pytest

from keel_app.common.context import RequestContext
from keel_app.common.exception import (
    ClientNotAvailable,
    EntityNotFound,
    InvalidGlobalResource,
    NotSupported,
    ResourceTypeUnavailable,
    StackValidationFailed,
)
from keel_app.engine.environment import global_env
from keel_app.engine.graph import Dependencies
from keel_app.engine.resource import Resource, resource_schema
from keel_app.engine.resource.base import NO_LIFE_CYCLE
from keel_app.resources.cloud_types import CLOUD_TYPES, STUB_CLASSES
from keel_app.resources.heat.deployed_server import DeployedServer
from keel_app.resources.heat.none import NoneResource
from keel_app.resources.heat.random_string import RandomString
from tests.engine.resource import keel_side


def build(template: str, catalog: list[str] | None = None, strict: bool = True) -> Any:
    case = {"template": template, "catalog": catalog or keel_side.DEFAULT_CATALOG, "strict": strict}
    return keel_side.build_stack(case)


HOT = "heat_template_version: 2015-04-30\nresources:\n"


def test_resource_is_built_as_the_registered_class() -> None:
    stack = build(HOT + "  r: {type: OS::Heat::RandomString}\n  n: {type: OS::Heat::None}\n")
    assert type(stack["r"]) is RandomString
    assert type(stack["n"]) is NoneResource
    assert stack["r"].type() == "OS::Heat::RandomString"


def test_str_names_class_and_resource() -> None:
    stack = build(HOT + "  r: {type: OS::Heat::RandomString}\n")
    assert str(stack["r"]) == 'RandomString "r"'


def test_validate_template_prefixes_resource_path() -> None:
    stack = build(HOT + "  r: {type: OS::Heat::RandomString, properties: {length: 0}}\n")
    with pytest.raises(StackValidationFailed) as raised:
        stack["r"].validate_template()
    assert str(raised.value) == (
        "Property error: resources.r.properties.length: 0 is out of range (min: 1, max: 512)"
    )
    assert raised.value.path == ["resources", "r", "properties", "length"]


def test_missing_service_is_resource_type_unavailable() -> None:
    stack = build(HOT + "  s: {type: OS::Nova::Server}\n", catalog=["identity"])
    with pytest.raises(ResourceTypeUnavailable) as raised:
        stack["s"].validate_template()
    assert str(raised.value) == (
        "HEAT-E99001 Service nova is not available for resource type OS::Nova::Server, "
        "reason: nova compute endpoint is not in service catalog."
    )


def test_no_context_means_no_cloud_service() -> None:
    assert STUB_CLASSES["OSNeutronVPNService"].is_service_available(None) == (
        False,
        "neutron network endpoint is not in service catalog.",
    )
    assert RandomString.is_service_available(None) == (True, None)


def test_required_extension_needs_the_service_itself() -> None:
    router = STUB_CLASSES["OSNeutronVPNService"]
    context = RequestContext(auth_token_info=keel_side.token(["network"], "RegionOne"))
    with pytest.raises(ClientNotAvailable):
        router.is_service_available(context)
    with pytest.raises(ResourceTypeUnavailable) as raised:
        router._validate_service_availability(context, "OS::Neutron::VPNService")
    assert str(raised.value).endswith("reason: The client (neutron) is not available.")


def test_required_extension_checked_through_clients() -> None:
    class Plugin:
        def __init__(self, extensions: set[str]) -> None:
            self.extensions = extensions

        def has_extension(self, name: str) -> bool:
            return name in self.extensions

    class Clients:
        def __init__(self, extensions: set[str]) -> None:
            self.plugin = Plugin(extensions)

        def client_plugin(self, name: str) -> Plugin:
            return self.plugin

    context = RequestContext(auth_token_info=keel_side.token(["network"], "RegionOne"))
    tap = STUB_CLASSES["OSNeutronTaaSTapService"]
    context.clients = Clients(set())  # type: ignore[attr-defined]
    assert tap.is_service_available(context) == (
        False,
        "Required extension taas in neutron service is not available.",
    )
    context.clients = Clients({"taas"})  # type: ignore[attr-defined]
    # Where Heat would go on, the stub is refused all the same: it has no life cycle.
    assert tap.is_service_available(context) == (False, NO_LIFE_CYCLE)


def test_deletion_policies() -> None:
    RandomString.validate_deletion_policy("Retain")
    with pytest.raises(StackValidationFailed) as unsupported:
        RandomString.validate_deletion_policy("Snapshot")
    with pytest.raises(StackValidationFailed) as unknown:
        RandomString.validate_deletion_policy("Keep")
    assert str(unsupported.value) == 'DeletionPolicy: "Snapshot" deletion policy not supported'
    assert str(unknown.value) == 'DeletionPolicy: Invalid deletion policy "Keep"'
    DeployedServer.validate_deletion_policy("Snapshot")


def test_getdoc_is_the_type_description() -> None:
    assert RandomString.getdoc().startswith("A resource which generates a random string.\n\n")
    assert STUB_CLASSES["OSOctaviaLoadBalancer"].getdoc() == "No description available"


def test_update_allowed_comes_from_schema_and_class() -> None:
    stack = build(
        HOT + "  g: {type: OS::Heat::ResourceGroup, properties: {resource_def: {type: x}}}\n"
    )
    assert stack["g"]._update_allowed_properties == {
        "count",
        "resource_def",
        "removal_policies",
        "removal_policies_mode",
    }


def test_explicit_dependencies_and_node_data() -> None:
    stack = build(
        HOT
        + "  a: {type: OS::Heat::RandomString}\n"
        + "  b: {type: OS::Heat::Value, properties: {value: {get_attr: [a, value]}},"
        + " depends_on: [c]}\n"
        + "  c: {type: OS::Heat::None}\n"
    )
    graph = Dependencies()
    for resource in stack.resources.values():
        resource.add_explicit_dependencies(graph)
    assert sorted(required.name for required in graph.required_by(stack["a"])) == ["b"]
    data = stack["a"].node_data()
    assert (data.reference_id(), data.attribute_values, data.action) == (
        "a",
        {"value": None},
        "INIT",
    )


def test_node_data_leaves_out_attributes_the_type_lacks() -> None:
    stack = build(
        HOT
        + "  a: {type: OS::Heat::RandomString}\n"
        + "  n: {type: OS::Heat::None}\n"
        + "  b: {type: OS::Heat::Value, properties: {value: [{get_attr: [a, x]}, "
        + "{get_attr: [n, y]}]}}\n"
    )
    assert stack["a"].node_data().attribute_values == {}
    assert stack["n"].node_data().attribute_values == {"y": None}


def test_validate_external_needs_a_client_only_for_cloud_types() -> None:
    stack = build(
        "heat_template_version: 2016-10-14\nresources:\n"
        + "  r: {type: OS::Heat::RandomString, external_id: abc}\n"
        + "  v: {type: OS::Cinder::Volume, external_id: vol}\n",
        catalog=["identity", "volumev3"],
    )
    stack["r"].validate_external()
    assert stack["r"].resource_id == "abc"
    stack["v"].entity = "volumes"
    with pytest.raises(ClientNotAvailable):
        stack["v"].validate_external()


def test_a_cloud_stub_is_unavailable_even_with_its_service_in_the_catalog() -> None:
    stack = build(
        HOT + "  s: {type: OS::Trove::Instance, properties: {anything: 1}}\n"
        "  g: {type: AWS::ElasticLoadBalancing::LoadBalancer, properties: {Listeners: []}}\n",
        catalog=["identity", "compute", "database"],
    )

    with pytest.raises(ResourceTypeUnavailable) as server:
        stack["s"].validate_template()
    with pytest.raises(ResourceTypeUnavailable) as group:
        stack["g"].validate_template()

    assert str(server.value) == (
        "HEAT-E99001 Service trove is not available for resource type OS::Trove::Instance, "
        "reason: OpenKeel has no life cycle for this resource type yet."
    )
    assert str(group.value) == (
        "HEAT-E99001 Service nova is not available for resource type "
        "AWS::ElasticLoadBalancing::LoadBalancer, reason: OpenKeel has no life cycle for this "
        "resource type yet."
    )


def test_a_cloud_stub_without_its_service_is_refused_as_heat_refuses_it() -> None:
    stack = build(HOT + "  s: {type: OS::Nova::Server}\n", catalog=["identity"])

    with pytest.raises(ResourceTypeUnavailable) as raised:
        stack["s"].validate_template()

    assert "reason: nova compute endpoint is not in service catalog." in str(raised.value)


def test_cloud_table_covers_every_service_backed_type() -> None:
    # Heat's 149, less the scaling group and policies, which need no cloud service.
    assert len(CLOUD_TYPES) == 146
    assert CLOUD_TYPES["OS::Nova::Server"].client == "nova"
    assert CLOUD_TYPES["OS::Neutron::Trunk"].extension == "trunk"


def test_unknown_type_is_not_found_when_built() -> None:
    with pytest.raises(StackValidationFailed) as raised:
        build(HOT + "  x: {type: OS::Heat::Nothing}\n")
    assert str(raised.value) == "The Resource Type (OS::Heat::Nothing) could not be found."


def test_resource_schema_error_paths() -> None:
    environment = global_env()
    with pytest.raises(NotSupported) as hidden:
        resource_schema(environment, "OS::Heat::HARestarter")
    with pytest.raises(EntityNotFound):
        resource_schema(environment, "OS::Heat::Nothing")
    with pytest.raises(ResourceTypeUnavailable) as unavailable:
        resource_schema(environment, "OS::Nova::Server")
    assert str(hidden.value) == "OS::Heat::HARestarter is not supported."
    assert str(unavailable.value).endswith("reason: Service endpoint not in service catalog.")


def test_resource_schema_of_an_engine_type() -> None:
    answer = resource_schema(global_env(), "OS::Heat::Value", None, with_description=True)
    assert answer["resource_type"] == "OS::Heat::Value"
    assert sorted(answer["properties"]) == ["type", "value"]
    assert sorted(answer["attributes"]) == ["show", "value"]
    assert answer["support_status"] == {
        "status": "SUPPORTED",
        "message": None,
        "version": "7.0.0",
        "previous_status": None,
    }
    assert answer["description"].startswith("A resource which exposes its value property")


def test_invalid_global_resource_error_exists_for_missing_classes() -> None:
    class Registry:
        def get_class(self, name: str) -> Any:
            from keel_app.common.exception import NotFound

            raise NotFound()

    with pytest.raises(InvalidGlobalResource):
        resource_schema(Registry(), "X::Y")


def test_subclass_call_skips_the_registry() -> None:
    stack = build(HOT + "  r: {type: OS::Heat::RandomString}\n")
    resource = NoneResource("n", stack["r"].t, stack)
    assert isinstance(resource, NoneResource)
    assert isinstance(resource, Resource)
