"""Constraints that look a value up in a cloud service (``nova.flavor``, ``glance.image``, ...).

Each is registered under Heat's name and says which client plugin to ask and with which
getter, so that the client plugins can serve them when they arrive; until then a value
that no client can look up is refused (see ``custom``'s docstring).
A getter that finds nothing raises ``EntityNotFound``, which makes the value invalid with
the getter's message.
"""

from __future__ import annotations

from typing import Any

from keel_app.clients import cinder_errors, nova_errors, openstack_sdk
from keel_app.clients.client_exception import EntityMatchNotFound, EntityUniqueMatchNotFound
from keel_app.clients.neutron_errors import NeutronClientException
from keel_app.common.exception import EntityNotFound
from keel_app.engine.constraints.custom import BaseCustomConstraint

# What a Neutron look-up raises for a value that names nothing (neutronclient's errors).
NEUTRON_ERRORS = (NeutronClientException, EntityNotFound)


class ServiceConstraint(BaseCustomConstraint):
    """Calls ``client_plugin(client).<getter>(*getter_arguments, value)``."""

    getter_arguments: tuple[str, ...] = ()

    def validate_with_client(self, client: Any, resource_id: Any) -> None:
        plugin = client.client_plugin(self.resource_client_name)
        getattr(plugin, self.resource_getter_name or "")(*self.getter_arguments, resource_id)


class KeystoneConstraint(ServiceConstraint):
    """An empty name is never looked up: Keystone would list everything instead."""

    entity = ""

    def validate_with_client(self, client: Any, resource_id: Any) -> None:
        if resource_id == "":
            raise EntityNotFound(entity=self.entity, name=resource_id)
        super().validate_with_client(client, resource_id)


class KeypairConstraint(ServiceConstraint):
    """No key name is not looked up: a key pair made by the same stack may supply it."""

    resource_client_name = "nova"
    resource_getter_name = "get_keypair"

    def validate_with_client(self, client: Any, resource_id: Any) -> None:
        if resource_id:
            super().validate_with_client(client, resource_id)


def _service(
    client: str,
    getter: str,
    *arguments: str,
    expected: tuple[type[BaseException], ...] = (EntityNotFound,),
) -> type[ServiceConstraint]:
    attributes = {
        "resource_client_name": client,
        "resource_getter_name": getter,
        "getter_arguments": arguments,
        "expected_exceptions": expected,
    }
    return type(
        f"{client.capitalize()}{getter.title().replace('_', '')}", (ServiceConstraint,), attributes
    )


def _keystone(entity: str, getter: str) -> type[KeystoneConstraint]:
    attributes = {
        "resource_client_name": "keystone",
        "resource_getter_name": getter,
        "entity": entity,
    }
    return type(f"{entity}Constraint", (KeystoneConstraint,), attributes)


class NeutronConstraint(ServiceConstraint):
    """A Neutron look-up by name or id, refused first when the service lacks the
    extension that holds such things (``neutron.qos_policy`` without ``qos``...)."""

    resource_client_name = "neutron"
    resource_getter_name = "find_resourceid_by_name_or_id"
    expected_exceptions = NEUTRON_ERRORS
    extension: str | None = None

    def validate_with_client(self, client: Any, resource_id: Any) -> None:
        plugin = client.client_plugin(self.resource_client_name)
        if self.extension and not plugin.has_extension(self.extension):
            raise EntityNotFound(entity="neutron extension", name=self.extension)
        super().validate_with_client(client, resource_id)


# The finder of resources that live under an extension's own path (sfc, taas).
EXT_FINDER = "resolve_ext_resource"


def _neutron(
    resource: str,
    extension: str | None = None,
    finder: str = NeutronConstraint.resource_getter_name,
) -> type[NeutronConstraint]:
    attributes = {
        "resource_getter_name": finder,
        "getter_arguments": (resource,),
        "extension": extension,
    }
    name = "".join(part.capitalize() for part in resource.split("_"))
    return type(f"Neutron{name}Constraint", (NeutronConstraint,), attributes)


BarbicanContainer = _service("barbican", "get_container_by_ref")
BarbicanSecret = _service("barbican", "get_secret_by_ref")
BlazarReservation = _service("blazar", "get_lease")
CinderBackup = _service("cinder", "get_volume_backup")
CinderQosSpecs = _service("cinder", "get_qos_specs", expected=(cinder_errors.NotFound,))
CinderSnapshot = _service("cinder", "get_volume_snapshot")
CinderVolume = _service("cinder", "get_volume")
CinderVolumeType = _service("cinder", "get_volume_type")
DesignateZone = _service("designate", "get_zone_id")
GlanceImage = _service(
    "glance",
    "find_image_by_name_or_id",
    expected=(EntityMatchNotFound, EntityUniqueMatchNotFound),
)
IronicNode = _service("ironic", "get_node")
IronicPortGroup = _service("ironic", "get_portgroup")
KeystoneDomain = _keystone("KeystoneDomain", "get_domain_id")
KeystoneGroup = _keystone("KeystoneGroup", "get_group_id")
KeystoneProject = _keystone("KeystoneProject", "get_project_id")
KeystoneRegion = _keystone("KeystoneRegion", "get_region_id")
KeystoneRole = _keystone("KeystoneRole", "get_role_id")
KeystoneService = _keystone("KeystoneService", "get_service_id")
KeystoneUser = _keystone("KeystoneUser", "get_user_id")
MagnumClusterTemplate = _service("magnum", "get_cluster_template")
ManilaShareNetwork = _service("manila", "get_share_network")
ManilaShareSnapshot = _service("manila", "get_share_snapshot")
ManilaShareType = _service("manila", "get_share_type")
MistralWorkflow = _service("mistral", "get_workflow_by_identifier")
NeutronAddressScope = _neutron("address_scope", extension="address-scope")
NeutronFlowClassifier = _neutron("flow_classifier", extension="sfc", finder=EXT_FINDER)
NeutronLbaasListener = _neutron("listener", extension="lbaasv2")
NeutronLbaasLoadbalancer = _neutron("loadbalancer", extension="lbaasv2")
NeutronLbaasPool = _neutron("pool", extension="lbaasv2")
NeutronLbaasProvider = _service("neutron", "find_service_provider", "LOADBALANCERV2")
NeutronNetwork = _neutron("network")
NeutronPort = _neutron("port")
NeutronPortPair = _neutron("port_pair", extension="sfc", finder=EXT_FINDER)
NeutronPortPairGroup = _neutron("port_pair_group", extension="sfc", finder=EXT_FINDER)
NeutronQosPolicy = _neutron("policy", extension="qos")
NeutronRouter = _neutron("router")
NeutronSecurityGroup = _neutron("security_group")
NeutronSegment = _service(
    "openstack", "find_network_segment", expected=openstack_sdk.NOT_FOUND_ERRORS
)
NeutronSubnet = _neutron("subnet")
NeutronSubnetPool = _neutron("subnetpool")
NeutronTapFlow = _neutron("tap_flow", extension="taas", finder=EXT_FINDER)
NeutronTapService = _neutron("tap_service", extension="taas", finder=EXT_FINDER)
NovaFlavor = _service("nova", "find_flavor_by_name_or_id", expected=(nova_errors.NotFound,))
NovaHost = _service("nova", "get_host", expected=(nova_errors.NotFound,))
NovaKeypair = type("NovaGetKeypair", (KeypairConstraint,), {})
NovaServer = _service("nova", "get_server")
OctaviaAvailabilityZone = _service("octavia", "find_availability_zone")
OctaviaAvailabilityZoneProfile = _service("octavia", "find_availability_zone_profile")
OctaviaFlavor = _service("octavia", "find_flavor")
OctaviaFlavorProfile = _service("octavia", "find_flavor_profile")
OctaviaL7Policy = _service("octavia", "find_l7policy")
OctaviaListener = _service("octavia", "find_listener")
OctaviaLoadbalancer = _service("octavia", "find_loadbalancer")
OctaviaPool = _service("octavia", "find_pool")
TroveFlavor = _service("trove", "find_flavor_by_name_or_id")
ZaqarQueue = _service("zaqar", "get_queue")
