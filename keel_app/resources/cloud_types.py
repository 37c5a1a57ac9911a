"""Every resource type of Heat 27.0.1 that needs a cloud service, as a declaration stub.

For each type: the client plugin whose service must be in the caller's catalog (Heat's
``default_client_name``; None where Heat checks no service), the service extension it
requires, whether it supports the ``Snapshot`` deletion policy, and its support status.
With these, a template using a type whose service is missing fails validation with
Heat's own ResourceTypeUnavailable, an unknown type with "The Resource Type (X) could
not be found.", and resource type listings filter by catalog as Heat's do.

The types' property, attribute and update policy schemata and life cycles arrive with
their plugins, one package per service (``FAMILY_MODULES``): a type its package provides
is that plugin, the others are stubs. A stub
is unavailable whatever the catalog: a template using it fails validation (create,
preview, update and validate alike) with Heat's ResourceTypeUnavailable, and listings
leave it out, so that no stack ever reaches COMPLETE having made nothing. A class per
type, named after the type (``OS::Nova::Server`` -> ``OSNovaServer``), is what the
``openkeel.resources`` entry points name.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any, NamedTuple

from keel_app.common.exception import ResourceTypeUnavailable
from keel_app.engine.environment.support import SupportStatus
from keel_app.engine.resource import Resource
from keel_app.engine.resource.base import NO_LIFE_CYCLE


def status(
    status: str, version: str | None, message: str | None = None, previous: Any = None
) -> SupportStatus:
    return SupportStatus(status=status, version=version, message=message, previous_status=previous)


class CloudType(NamedTuple):
    client: str | None
    support_status: SupportStatus
    extension: str | None = None
    snapshot: bool = False


CLOUD_TYPES: dict[str, CloudType] = {
    "AWS::AutoScaling::AutoScalingGroup": CloudType(None, status("SUPPORTED", "2014.1")),
    "AWS::AutoScaling::LaunchConfiguration": CloudType(None, status("SUPPORTED", None)),
    "AWS::EC2::EIP": CloudType("nova", status("SUPPORTED", None)),
    "AWS::EC2::EIPAssociation": CloudType("nova", status("SUPPORTED", None)),
    "AWS::EC2::Instance": CloudType("nova", status("SUPPORTED", None)),
    "AWS::EC2::InternetGateway": CloudType(None, status("SUPPORTED", None)),
    "AWS::EC2::VPCGatewayAttachment": CloudType("neutron", status("SUPPORTED", None)),
    "AWS::EC2::NetworkInterface": CloudType("neutron", status("SUPPORTED", None)),
    "AWS::EC2::RouteTable": CloudType("neutron", status("SUPPORTED", "2014.1")),
    "AWS::EC2::SubnetRouteTableAssociation": CloudType("neutron", status("SUPPORTED", None)),
    "AWS::EC2::SecurityGroup": CloudType(None, status("SUPPORTED", None)),
    "AWS::EC2::Subnet": CloudType("neutron", status("SUPPORTED", None)),
    "AWS::EC2::Volume": CloudType("cinder", status("SUPPORTED", None), snapshot=True),
    "AWS::EC2::VolumeAttachment": CloudType("cinder", status("SUPPORTED", None)),
    "AWS::EC2::VPC": CloudType("neutron", status("SUPPORTED", None)),
    "AWS::IAM::User": CloudType(None, status("SUPPORTED", None)),
    "AWS::IAM::AccessKey": CloudType(None, status("SUPPORTED", None)),
    "AWS::ElasticLoadBalancing::LoadBalancer": CloudType(None, status("SUPPORTED", None)),
    "AWS::S3::Bucket": CloudType("swift", status("SUPPORTED", None)),
    "OS::Aodh::Alarm": CloudType(
        "aodh",
        status(
            "DEPRECATED",
            "10.0.0",
            (
                "Theshold alarm relies on ceilometer-api and has been "
                "deprecated in aodh since Ocata. Use "
                "OS::Aodh::GnocchiAggregationByResourcesAlarm instead."
            ),
            status("SUPPORTED", "2014.1"),
        ),
    ),
    "OS::Aodh::EventAlarm": CloudType("aodh", status("SUPPORTED", "8.0.0")),
    "OS::Aodh::LBMemberHealthAlarm": CloudType("aodh", status("SUPPORTED", "13.0.0")),
    "OS::Aodh::PrometheusAlarm": CloudType("aodh", status("SUPPORTED", "22.0.0")),
    "OS::Aodh::CompositeAlarm": CloudType("aodh", status("SUPPORTED", "8.0.0")),
    "OS::Aodh::GnocchiResourcesAlarm": CloudType("aodh", status("SUPPORTED", "2015.1")),
    "OS::Aodh::GnocchiAggregationByMetricsAlarm": CloudType("aodh", status("SUPPORTED", "2015.1")),
    "OS::Aodh::GnocchiAggregationByResourcesAlarm": CloudType(
        "aodh", status("SUPPORTED", "2015.1")
    ),
    "OS::Barbican::GenericContainer": CloudType("barbican", status("SUPPORTED", "6.0.0")),
    "OS::Barbican::CertificateContainer": CloudType("barbican", status("SUPPORTED", "6.0.0")),
    "OS::Barbican::RSAContainer": CloudType("barbican", status("SUPPORTED", "6.0.0")),
    "OS::Barbican::Order": CloudType("barbican", status("SUPPORTED", "2014.2")),
    "OS::Barbican::Secret": CloudType("barbican", status("SUPPORTED", "2014.2")),
    "OS::Blazar::Host": CloudType("blazar", status("SUPPORTED", "12.0.0")),
    "OS::Blazar::Lease": CloudType("blazar", status("SUPPORTED", "12.0.0")),
    "OS::Cinder::EncryptedVolumeType": CloudType(
        "cinder", status("SUPPORTED", "5.0.0"), extension="encryption"
    ),
    "OS::Cinder::QoSSpecs": CloudType(
        "cinder", status("SUPPORTED", "7.0.0"), extension="qos-specs"
    ),
    "OS::Cinder::QoSAssociation": CloudType(
        "cinder", status("SUPPORTED", "8.0.0"), extension="qos-specs"
    ),
    "OS::Cinder::Quota": CloudType(
        "cinder", status("SUPPORTED", "7.0.0"), extension="os-quota-sets"
    ),
    "OS::Cinder::Volume": CloudType("cinder", status("SUPPORTED", None), snapshot=True),
    "OS::Cinder::VolumeAttachment": CloudType("cinder", status("SUPPORTED", None)),
    "OS::Cinder::VolumeType": CloudType(
        "cinder", status("SUPPORTED", "2015.1"), extension="os-types-manage"
    ),
    "OS::Designate::RecordSet": CloudType("designate", status("SUPPORTED", "8.0.0")),
    "OS::Designate::Zone": CloudType("designate", status("SUPPORTED", "8.0.0")),
    "OS::Glance::WebImage": CloudType("glance", status("SUPPORTED", "12.0.0")),
    "OS::Heat::DeployedServer": CloudType("heat", status("SUPPORTED", None), snapshot=True),
    "OS::Heat::InstanceGroup": CloudType(None, status("SUPPORTED", None)),
    "OS::Heat::SoftwareDeployment": CloudType("heat", status("SUPPORTED", "2014.1")),
    "OS::Heat::SoftwareDeploymentGroup": CloudType(None, status("SUPPORTED", "5.0.0")),
    "OS::Heat::SoftwareDeployments": CloudType(
        None,
        status(
            "HIDDEN",
            "7.0.0",
            "Please use OS::Heat::SoftwareDeploymentGroup instead.",
            status("DEPRECATED", "2014.2"),
        ),
    ),
    "OS::Heat::StructuredDeployment": CloudType("heat", status("SUPPORTED", "2014.1")),
    "OS::Heat::StructuredDeploymentGroup": CloudType(None, status("SUPPORTED", "5.0.0")),
    "OS::Heat::StructuredDeployments": CloudType(
        None,
        status(
            "HIDDEN",
            "7.0.0",
            "Please use OS::Heat::StructuredDeploymentGroup instead.",
            status("DEPRECATED", "2014.2"),
        ),
    ),
    "OS::Heat::SwiftSignal": CloudType("swift", status("SUPPORTED", "2014.2")),
    "OS::Heat::SwiftSignalHandle": CloudType("swift", status("SUPPORTED", "2014.2")),
    "OS::Ironic::Port": CloudType("ironic", status("SUPPORTED", "13.0.0")),
    "OS::Keystone::Domain": CloudType(
        "keystone", status("SUPPORTED", "8.0.0", "Supported versions: keystone v3")
    ),
    "OS::Keystone::Endpoint": CloudType(
        "keystone", status("SUPPORTED", "5.0.0", "Supported versions: keystone v3")
    ),
    "OS::Keystone::Group": CloudType(
        "keystone", status("SUPPORTED", "2015.1", "Supported versions: keystone v3")
    ),
    "OS::Keystone::Project": CloudType(
        "keystone", status("SUPPORTED", "2015.1", "Supported versions: keystone v3")
    ),
    "OS::Keystone::Region": CloudType(
        "keystone", status("SUPPORTED", "6.0.0", "Supported versions: keystone v3")
    ),
    "OS::Keystone::Role": CloudType(
        "keystone", status("SUPPORTED", "2015.1", "Supported versions: keystone v3")
    ),
    "OS::Keystone::UserRoleAssignment": CloudType(
        "keystone", status("SUPPORTED", "5.0.0", "Supported versions: keystone v3")
    ),
    "OS::Keystone::GroupRoleAssignment": CloudType(
        "keystone", status("SUPPORTED", "5.0.0", "Supported versions: keystone v3")
    ),
    "OS::Keystone::Service": CloudType(
        "keystone", status("SUPPORTED", "5.0.0", "Supported versions: keystone v3")
    ),
    "OS::Keystone::User": CloudType(
        "keystone", status("SUPPORTED", "2015.1", "Supported versions: keystone v3")
    ),
    "OS::Magnum::BayModel": CloudType(
        "magnum",
        status(
            "HIDDEN",
            "11.0.0",
            "Please use OS::Magnum::ClusterTemplate instead.",
            status(
                "DEPRECATED",
                "9.0.0",
                "Please use OS::Magnum::ClusterTemplate instead.",
                status("SUPPORTED", "5.0.0"),
            ),
        ),
    ),
    "OS::Magnum::Cluster": CloudType("magnum", status("SUPPORTED", "9.0.0")),
    "OS::Magnum::ClusterTemplate": CloudType("magnum", status("SUPPORTED", "9.0.0")),
    "OS::Manila::SecurityService": CloudType("manila", status("SUPPORTED", "5.0.0")),
    "OS::Manila::Share": CloudType("manila", status("SUPPORTED", "5.0.0")),
    "OS::Manila::ShareNetwork": CloudType("manila", status("SUPPORTED", "5.0.0")),
    "OS::Manila::ShareType": CloudType("manila", status("SUPPORTED", "5.0.0")),
    "OS::Mistral::CronTrigger": CloudType("mistral", status("SUPPORTED", "5.0.0")),
    "OS::Mistral::ExternalResource": CloudType("mistral", status("SUPPORTED", "9.0.0")),
    "OS::Mistral::Workflow": CloudType("mistral", status("SUPPORTED", "2015.1")),
    "OS::Neutron::AddressScope": CloudType(
        "neutron", status("SUPPORTED", "6.0.0"), extension="address-scope"
    ),
    "OS::Neutron::ExtraRoute": CloudType(
        "neutron",
        status("UNSUPPORTED", None, "Use this resource at your own risk."),
        extension="extraroute",
    ),
    "OS::Neutron::ExtraRouteSet": CloudType(
        "neutron", status("SUPPORTED", "14.0.0"), extension="extraroute-atomic"
    ),
    "OS::Neutron::Firewall": CloudType("neutron", status("SUPPORTED", None), extension="fwaas"),
    "OS::Neutron::FirewallPolicy": CloudType(
        "neutron", status("SUPPORTED", None), extension="fwaas"
    ),
    "OS::Neutron::FirewallRule": CloudType("neutron", status("SUPPORTED", None), extension="fwaas"),
    "OS::Neutron::FloatingIP": CloudType("neutron", status("SUPPORTED", None)),
    "OS::Neutron::FloatingIPAssociation": CloudType("neutron", status("SUPPORTED", None)),
    "OS::Neutron::FloatingIPPortForward": CloudType(
        "openstack", status("SUPPORTED", "19.0.0"), extension="floating-ip-port-forwarding"
    ),
    "OS::Neutron::L2Gateway": CloudType(
        "neutron", status("SUPPORTED", "12.0.0"), extension="l2-gateway"
    ),
    "OS::Neutron::L2GatewayConnection": CloudType(
        "neutron", status("SUPPORTED", "12.0.0"), extension="l2-gateway-connection"
    ),
    "OS::Neutron::MeteringLabel": CloudType("neutron", status("SUPPORTED", "2014.1")),
    "OS::Neutron::MeteringRule": CloudType("neutron", status("SUPPORTED", "2014.1")),
    "OS::Neutron::Net": CloudType("neutron", status("SUPPORTED", None)),
    "OS::Neutron::NetworkGateway": CloudType("neutron", status("SUPPORTED", "2014.1")),
    "OS::Neutron::Port": CloudType("neutron", status("SUPPORTED", None)),
    "OS::Neutron::ProviderNet": CloudType(
        "neutron", status("SUPPORTED", "2014.1"), extension="provider"
    ),
    "OS::Neutron::QoSPolicy": CloudType("neutron", status("SUPPORTED", "6.0.0"), extension="qos"),
    "OS::Neutron::QoSBandwidthLimitRule": CloudType(
        "neutron", status("SUPPORTED", "6.0.0"), extension="qos"
    ),
    "OS::Neutron::QoSDscpMarkingRule": CloudType(
        "neutron", status("SUPPORTED", "7.0.0"), extension="qos"
    ),
    "OS::Neutron::QoSMinimumBandwidthRule": CloudType(
        "neutron", status("SUPPORTED", "14.0.0"), extension="qos-bw-minimum-ingress"
    ),
    "OS::Neutron::QoSMinimumPacketRateRule": CloudType(
        "neutron", status("SUPPORTED", "19.0.0"), extension="qos-pps-minimum"
    ),
    "OS::Neutron::Quota": CloudType("neutron", status("SUPPORTED", "8.0.0"), extension="quotas"),
    "OS::Neutron::RBACPolicy": CloudType(
        "neutron", status("SUPPORTED", "6.0.0"), extension="rbac-policies"
    ),
    "OS::Neutron::Router": CloudType("neutron", status("SUPPORTED", None), extension="router"),
    "OS::Neutron::RouterInterface": CloudType(
        "neutron", status("SUPPORTED", None), extension="router"
    ),
    "OS::Neutron::RouterGateway": CloudType(
        "neutron",
        status(
            "HIDDEN",
            "5.0.0",
            (
                "Use the `external_gateway_info` property in the router "
                "resource to set up the gateway."
            ),
            status("DEPRECATED", "2014.1"),
        ),
    ),
    "OS::Neutron::SecurityGroup": CloudType(
        "neutron", status("SUPPORTED", "2014.1"), extension="security-group"
    ),
    "OS::Neutron::SecurityGroupRule": CloudType(
        "neutron", status("SUPPORTED", "7.0.0"), extension="security-group"
    ),
    "OS::Neutron::Segment": CloudType("neutron", status("SUPPORTED", "9.0.0"), extension="segment"),
    "OS::Neutron::FlowClassifier": CloudType("neutron", status("UNSUPPORTED", "8.0.0")),
    "OS::Neutron::PortChain": CloudType("neutron", status("UNSUPPORTED", "8.0.0"), extension="sfc"),
    "OS::Neutron::PortPair": CloudType("neutron", status("UNSUPPORTED", "7.0.0")),
    "OS::Neutron::PortPairGroup": CloudType(
        "neutron", status("UNSUPPORTED", "8.0.0"), extension="sfc"
    ),
    "OS::Neutron::Subnet": CloudType("neutron", status("SUPPORTED", None)),
    "OS::Neutron::SubnetPool": CloudType(
        "neutron", status("SUPPORTED", "6.0.0"), extension="subnet_allocation"
    ),
    "OS::Neutron::TaaS::TapFlow": CloudType(
        "neutron", status("SUPPORTED", "12.0.0"), extension="taas"
    ),
    "OS::Neutron::TaaS::TapService": CloudType(
        "neutron", status("SUPPORTED", "12.0.0"), extension="taas"
    ),
    "OS::Neutron::Trunk": CloudType("neutron", status("SUPPORTED", "9.0.0"), extension="trunk"),
    "OS::Neutron::VPNService": CloudType("neutron", status("SUPPORTED", None), extension="vpnaas"),
    "OS::Neutron::IPsecSiteConnection": CloudType(
        "neutron", status("SUPPORTED", None), extension="vpnaas"
    ),
    "OS::Neutron::IKEPolicy": CloudType("neutron", status("SUPPORTED", None), extension="vpnaas"),
    "OS::Neutron::IPsecPolicy": CloudType("neutron", status("SUPPORTED", None), extension="vpnaas"),
    "OS::Nova::Flavor": CloudType("nova", status("SUPPORTED", "2014.2")),
    "OS::Nova::FloatingIP": CloudType(
        None,
        status(
            "HIDDEN",
            "11.0.0",
            "Please use OS::Neutron::FloatingIP instead.",
            status(
                "DEPRECATED",
                "9.0.0",
                "Please use OS::Neutron::FloatingIP instead.",
                status("SUPPORTED", "2014.1"),
            ),
        ),
    ),
    "OS::Nova::FloatingIPAssociation": CloudType(
        "nova",
        status(
            "HIDDEN",
            "11.0.0",
            "Please use OS::Neutron::FloatingIPAssociation instead.",
            status(
                "DEPRECATED",
                "9.0.0",
                "Please use OS::Neutron::FloatingIPAssociation instead.",
                status("SUPPORTED", "2014.1"),
            ),
        ),
    ),
    "OS::Nova::HostAggregate": CloudType("nova", status("SUPPORTED", "6.0.0")),
    "OS::Nova::KeyPair": CloudType("nova", status("SUPPORTED", "2014.1")),
    "OS::Nova::Quota": CloudType("nova", status("SUPPORTED", "8.0.0")),
    "OS::Nova::Server": CloudType("nova", status("SUPPORTED", None), snapshot=True),
    "OS::Nova::ServerGroup": CloudType("nova", status("SUPPORTED", "2014.2")),
    "OS::Octavia::AvailabilityZone": CloudType("octavia", status("SUPPORTED", "24.0.0")),
    "OS::Octavia::AvailabilityZoneProfile": CloudType("octavia", status("SUPPORTED", "24.0.0")),
    "OS::Octavia::Flavor": CloudType("octavia", status("SUPPORTED", "14.0.0")),
    "OS::Octavia::FlavorProfile": CloudType("octavia", status("SUPPORTED", "14.0.0")),
    "OS::Octavia::HealthMonitor": CloudType("octavia", status("SUPPORTED", "10.0.0")),
    "OS::Octavia::L7Policy": CloudType("octavia", status("SUPPORTED", "10.0.0")),
    "OS::Octavia::L7Rule": CloudType("octavia", status("SUPPORTED", "10.0.0")),
    "OS::Octavia::Listener": CloudType("octavia", status("SUPPORTED", "10.0.0")),
    "OS::Octavia::LoadBalancer": CloudType("octavia", status("SUPPORTED", "10.0.0")),
    "OS::Octavia::Pool": CloudType("octavia", status("SUPPORTED", "10.0.0")),
    "OS::Octavia::PoolMember": CloudType("octavia", status("SUPPORTED", "10.0.0")),
    "OS::Octavia::Quota": CloudType("octavia", status("SUPPORTED", "14.0.0")),
    "OS::Swift::Container": CloudType("swift", status("SUPPORTED", None)),
    "OS::Trove::Cluster": CloudType("trove", status("SUPPORTED", "2015.1")),
    "OS::Trove::Instance": CloudType("trove", status("SUPPORTED", "2014.1")),
    "OS::Zaqar::Queue": CloudType("zaqar", status("SUPPORTED", "2014.2")),
    "OS::Zaqar::SignedQueueURL": CloudType("zaqar", status("SUPPORTED", "8.0.0")),
    "OS::Zaqar::Subscription": CloudType("zaqar", status("SUPPORTED", "8.0.0")),
    "OS::Zaqar::MistralTrigger": CloudType("zaqar", status("SUPPORTED", "8.0.0")),
    "OS::Zun::Container": CloudType("zun", status("SUPPORTED", "9.0.0")),
}


# The service named in the refusal of a type whose Heat plugin checks no client.
NEEDED_SERVICE = {
    "AWS::AutoScaling::AutoScalingGroup": "nova",
    "AWS::AutoScaling::LaunchConfiguration": "nova",
    "AWS::EC2::InternetGateway": "neutron",
    "AWS::EC2::SecurityGroup": "neutron",
    "AWS::IAM::User": "keystone",
    "AWS::IAM::AccessKey": "keystone",
    "AWS::ElasticLoadBalancing::LoadBalancer": "nova",
    "OS::Heat::InstanceGroup": "nova",
    "OS::Heat::SoftwareDeploymentGroup": "nova",
    "OS::Heat::SoftwareDeployments": "nova",
    "OS::Heat::StructuredDeploymentGroup": "nova",
    "OS::Heat::StructuredDeployments": "nova",
    "OS::Nova::FloatingIP": "nova",
}


class CloudResourceStub(Resource):
    """A cloud-service type known by name, client and status only: never available."""

    snapshot_deletion = False
    # The service its refusal names (its client's, or the one its Heat plugin works with).
    service_name: str | None = None

    @classmethod
    def is_service_available(cls, context: Any) -> tuple[bool, str | None]:
        available, reason = super().is_service_available(context)
        if not available:
            return available, reason  # Heat's own refusal, where Heat refuses
        # Where Heat would go on, a stub would reach COMPLETE having made nothing.
        return False, NO_LIFE_CYCLE

    @classmethod
    def unavailable(cls, resource_type: str, reason: str | None) -> ResourceTypeUnavailable:
        return ResourceTypeUnavailable(
            resource_type=resource_type, service_name=cls.service_name, reason=reason
        )

    @classmethod
    def supports_snapshot_deletion(cls) -> bool:
        return cls.snapshot_deletion

    def reparse(self, client_resolve: bool = True) -> None:
        # The schema is not known: no property is read or checked.
        from keel_app.engine.properties import Properties

        self.properties = Properties(schema={}, data={})

    def validate_template(self) -> None:
        # Always refused (see is_service_available): nothing else is worth checking.
        self._validate_service_availability(self.stack.context, self.t.resource_type)


def class_name(type_name: str) -> str:
    """The Python name of a type's class: the type name without separators."""
    return "".join(character for character in type_name if character.isalnum())


def _stub_class(type_name: str, declared: CloudType) -> type[CloudResourceStub]:
    return type(
        class_name(type_name),
        (CloudResourceStub,),
        {
            "default_client_name": declared.client,
            "required_service_extension": declared.extension,
            "support_status": declared.support_status,
            "snapshot_deletion": declared.snapshot,
            "service_name": declared.client or NEEDED_SERVICE.get(type_name),
            "__module__": __name__,
        },
    )


# The packages of the cloud types that have a life cycle: the RESOURCE_CLASSES of each of
# their modules map type names to plugin classes, which take the stubs' place.
FAMILY_MODULES = (
    "keel_app.resources.neutron",
    "keel_app.resources.nova",
    "keel_app.resources.cinder",
    "keel_app.resources.glance",
    "keel_app.resources.swift",
    "keel_app.resources.keystone",
    "keel_app.resources.aws",
    # The software deployments, which reach the servers of other families.
    "keel_app.resources.heat",
)


def _family_classes() -> dict[str, type[Resource]]:
    """The RESOURCE_CLASSES of every module of the family packages."""
    classes: dict[str, type[Resource]] = {}
    for package_name in FAMILY_MODULES:
        package = importlib.import_module(package_name)
        for module in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
            found = importlib.import_module(f"{package_name}.{module.name}")
            classes.update(getattr(found, "RESOURCE_CLASSES", {}))
    return classes


REAL_CLASSES = {class_name(name): plugin for name, plugin in _family_classes().items()}
STUB_CLASSES = {
    class_name(name): _stub_class(name, declared)
    for name, declared in CLOUD_TYPES.items()
    if class_name(name) not in REAL_CLASSES
}
# The cloud types still known by name only.
STUB_TYPES = frozenset(name for name in CLOUD_TYPES if class_name(name) in STUB_CLASSES)


def __getattr__(name: str) -> Any:
    # Entry points name each type's class as an attribute of this module: the family's
    # plugin where there is one, else the generated stub.
    try:
        return REAL_CLASSES.get(name) or STUB_CLASSES[name]
    except KeyError:
        raise AttributeError(name) from None
