"""The hidden placeholder types: retired resource types that now do nothing.

Heat keeps these names registered (hidden from listings) so that stacks created when
the types still worked can be loaded, updated and deleted; each behaves as
OS::Heat::None, whose life-cycle steps arrive with the engine. The statuses, with the
history of each type, are Heat 27.0.1's. A class per type, named after the type
(``OS::Neutron::LBaaS::Pool`` -> ``OSNeutronLBaaSPool``), is what the
``openkeel.resources`` entry points name.
"""

from __future__ import annotations

from typing import Any

from keel_app.engine.environment.support import SupportStatus
from keel_app.resources.heat.none import NoneResource


def status(
    status: str, version: str | None, message: str | None = None, previous: Any = None
) -> SupportStatus:
    return SupportStatus(status=status, version=version, message=message, previous_status=previous)


PLACEHOLDER_STATUSES: dict[str, SupportStatus] = {
    "OS::Aodh::CombinationAlarm": status(
        "HIDDEN",
        "9.0.0",
        (
            "OS::Aodh::CombinationAlarm is deprecated and has been "
            "removed from Aodh, use OS::Aodh::CompositeAlarm instead."
        ),
        status("DEPRECATED", "7.0.0", None, status("SUPPORTED", "2014.1")),
    ),
    "OS::Designate::Domain": status(
        "HIDDEN",
        "10.0.0",
        ("This resource has been removed, use OS::Designate::Zone instead."),
        status("DEPRECATED", "8.0.0", None, status("SUPPORTED", "5.0.0")),
    ),
    "OS::Designate::Record": status(
        "HIDDEN",
        "10.0.0",
        ("This resource has been removed, use OS::Designate::RecordSet instead."),
        status("DEPRECATED", "8.0.0", None, status("SUPPORTED", "5.0.0")),
    ),
    "OS::Glance::Image": status(
        "HIDDEN",
        "22.0.0",
        None,
        status(
            "DEPRECATED",
            "8.0.0",
            (
                "Creating a Glance Image based on an existing URL location "
                "requires the Glance v1 API, which is deprecated."
            ),
            status("SUPPORTED", "2014.2"),
        ),
    ),
    "OS::Heat::HARestarter": status(
        "HIDDEN",
        "10.0.0",
        (
            "The HARestarter resource type has been removed. Existing "
            "stacks containing HARestarter resources can still be used, "
            "but the HARestarter resource will be a placeholder that does"
            " nothing."
        ),
        status(
            "DEPRECATED",
            "2015.1",
            (
                "The HARestarter resource type is deprecated and will be "
                "removed in a future release of Heat, once it has support for"
                " auto-healing any type of resource. Note that HARestarter "
                "does *not* actually restart servers - it deletes and then "
                "recreates them. It also does the same to all dependent "
                "resources, and may therefore exhibit unexpected and "
                "undesirable behaviour. Instead, use the mark-unhealthy API "
                "to mark a resource as needing replacement, and then a stack "
                "update to perform the replacement while respecting  the "
                "dependencies and not deleting them unnecessarily."
            ),
        ),
    ),
    "OS::Magnum::Bay": status(
        "HIDDEN",
        "11.0.0",
        "Please use OS::Magnum::Cluster instead.",
        status(
            "DEPRECATED",
            "9.0.0",
            "Please use OS::Magnum::Cluster instead.",
            status("SUPPORTED", "6.0.0"),
        ),
    ),
    "OS::Monasca::AlarmDefinition": status(
        "HIDDEN",
        "25.0.0",
        "Monasca project was retired",
        status(
            "DEPRECATED",
            "22.0.0",
            "Monasca project was marked inactive",
            status("SUPPORTED", "7.0.0", None, status("UNSUPPORTED", "5.0.0")),
        ),
    ),
    "OS::Monasca::Notification": status(
        "HIDDEN",
        "25.0.0",
        "Monasca project was retired",
        status(
            "DEPRECATED",
            "22.0.0",
            "Monasca project was marked inactive",
            status("SUPPORTED", "7.0.0", None, status("SUPPORTED", "5.0.0")),
        ),
    ),
    "OS::Neutron::LBaaS::HealthMonitor": status(
        "HIDDEN", "21.0.0", "Use octavia instead.", status("SUPPORTED", "6.0.0")
    ),
    "OS::Neutron::LBaaS::L7Policy": status(
        "HIDDEN", "21.0.0", "Use octavia instead.", status("SUPPORTED", "7.0.0")
    ),
    "OS::Neutron::LBaaS::L7Rule": status(
        "HIDDEN", "21.0.0", "Use octavia instead.", status("SUPPORTED", "7.0.0")
    ),
    "OS::Neutron::LBaaS::Listener": status(
        "HIDDEN", "21.0.0", "Use octavia instead.", status("SUPPORTED", "6.0.0")
    ),
    "OS::Neutron::LBaaS::LoadBalancer": status(
        "HIDDEN", "21.0.0", "Use octavia instead.", status("SUPPORTED", "6.0.0")
    ),
    "OS::Neutron::LBaaS::Pool": status(
        "HIDDEN", "21.0.0", "Use octavia instead.", status("SUPPORTED", "6.0.0")
    ),
    "OS::Neutron::LBaaS::PoolMember": status(
        "HIDDEN", "21.0.0", "Use octavia instead.", status("SUPPORTED", "6.0.0")
    ),
    "OS::Neutron::HealthMonitor": status(
        "HIDDEN",
        "9.0.0",
        "Use LBaaS V2 instead.",
        status(
            "DEPRECATED",
            "7.0.0",
            (
                "Neutron LBaaS v1 is deprecated in the Liberty release and is"
                " planned to be removed in a future release. Going forward, "
                "the LBaaS V2 should be used."
            ),
        ),
    ),
    "OS::Neutron::Pool": status(
        "HIDDEN",
        "9.0.0",
        "Use LBaaS V2 instead.",
        status(
            "DEPRECATED",
            "7.0.0",
            (
                "Neutron LBaaS v1 is deprecated in the Liberty release and is"
                " planned to be removed in a future release. Going forward, "
                "the LBaaS V2 should be used."
            ),
        ),
    ),
    "OS::Neutron::PoolMember": status(
        "HIDDEN",
        "9.0.0",
        "Use LBaaS V2 instead.",
        status(
            "DEPRECATED",
            "7.0.0",
            (
                "Neutron LBaaS v1 is deprecated in the Liberty release and is"
                " planned to be removed in a future release. Going forward, "
                "the LBaaS V2 should be used."
            ),
            status("SUPPORTED", "2014.1"),
        ),
    ),
    "OS::Neutron::LoadBalancer": status(
        "HIDDEN",
        "9.0.0",
        "Use LBaaS V2 instead.",
        status(
            "DEPRECATED",
            "7.0.0",
            (
                "Neutron LBaaS v1 is deprecated in the Liberty release and is"
                " planned to be removed in a future release. Going forward, "
                "the LBaaS V2 should be used."
            ),
            status("SUPPORTED", "2014.1"),
        ),
    ),
    "OS::Sahara::Cluster": status(
        "HIDDEN",
        "23.0.0",
        "Sahara project was retired",
        status(
            "DEPRECATED",
            "22.0.0",
            "Sahara project was marked inactive",
            status("SUPPORTED", "5.0.0"),
        ),
    ),
    "OS::Sahara::DataSource": status(
        "HIDDEN",
        "23.0.0",
        "Sahara project was retired",
        status(
            "DEPRECATED",
            "22.0.0",
            "Sahara project was marked inactive",
            status("SUPPORTED", "5.0.0"),
        ),
    ),
    "OS::Sahara::ImageRegistry": status(
        "HIDDEN",
        "23.0.0",
        "Sahara project was retired",
        status(
            "DEPRECATED",
            "22.0.0",
            "Sahara project was marked inactive",
            status("SUPPORTED", "5.0.0"),
        ),
    ),
    "OS::Sahara::Job": status(
        "HIDDEN",
        "23.0.0",
        "Sahara project was retired",
        status(
            "DEPRECATED",
            "22.0.0",
            "Sahara project was marked inactive",
            status("SUPPORTED", "8.0.0"),
        ),
    ),
    "OS::Sahara::JobBinary": status(
        "HIDDEN",
        "23.0.0",
        "Sahara project was retired",
        status(
            "DEPRECATED",
            "22.0.0",
            "Sahara project was marked inactive",
            status("SUPPORTED", "5.0.0"),
        ),
    ),
    "OS::Sahara::NodeGroupTemplate": status(
        "HIDDEN",
        "23.0.0",
        "Sahara project was retired",
        status(
            "DEPRECATED",
            "22.0.0",
            "Sahara project was marked inactive",
            status("SUPPORTED", "2014.2"),
        ),
    ),
    "OS::Sahara::ClusterTemplate": status(
        "HIDDEN",
        "23.0.0",
        None,
        status(
            "DEPRECATED",
            "22.0.0",
            "Sahara project was marked inactive",
            status("SUPPORTED", "2014.2"),
        ),
    ),
    "OS::Senlin::Cluster": status(
        "HIDDEN",
        "23.0.0",
        "Senlin project was retired",
        status(
            "DEPRECATED",
            "22.0.0",
            "Senlin project was marked inactive",
            status("SUPPORTED", "6.0.0"),
        ),
    ),
    "OS::Senlin::Node": status(
        "HIDDEN",
        "23.0.0",
        "Senlin project was retired",
        status(
            "DEPRECATED",
            "22.0.0",
            "Senlin project was marked inactive",
            status("SUPPORTED", "6.0.0"),
        ),
    ),
    "OS::Senlin::Policy": status(
        "HIDDEN",
        "23.0.0",
        "Senlin project was retired",
        status(
            "DEPRECATED",
            "22.0.0",
            "Senlin project was marked inactive",
            status("SUPPORTED", "6.0.0"),
        ),
    ),
    "OS::Senlin::Profile": status(
        "HIDDEN",
        "23.0.0",
        "Senlin project was retired",
        status(
            "DEPRECATED",
            "22.0.0",
            "Senlin project was marked inactive",
            status("SUPPORTED", "6.0.0"),
        ),
    ),
    "OS::Senlin::Receiver": status(
        "HIDDEN",
        "23.0.0",
        "Senlin project was retired",
        status(
            "DEPRECATED",
            "22.0.0",
            "Senlin project was marked inactive",
            status("SUPPORTED", "6.0.0"),
        ),
    ),
    "OS::Vitrage::Template": status(
        "HIDDEN",
        "27.0.0",
        "Senlin project was retired",
        status(
            "DEPRECATED",
            "26.0.0",
            "Vitrage project was marked inactive",
            status("SUPPORTED", "16.0.0"),
        ),
    ),
}


def class_name(type_name: str) -> str:
    """The Python name of a type's class: the type name without separators."""
    return "".join(character for character in type_name if character.isalnum())


def _placeholder_class(type_name: str, support_status: SupportStatus) -> type[NoneResource]:
    return type(
        class_name(type_name),
        (NoneResource,),
        {"support_status": support_status, "type_description": None, "__module__": __name__},
    )


PLACEHOLDER_CLASSES = {
    class_name(name): _placeholder_class(name, support_status)
    for name, support_status in PLACEHOLDER_STATUSES.items()
}


def __getattr__(name: str) -> Any:
    # Entry points name the generated classes as attributes of this module.
    try:
        return PLACEHOLDER_CLASSES[name]
    except KeyError:
        raise AttributeError(name) from None
