"""OS::Neutron::FloatingIPPortForward: a port forwarding on a floating IP that no port
holds, from one of its ports to a port's fixed address (Neutron's port_forwarding
service plugin).

Heat drives it through openstacksdk's network proxy, so this type does too: its failures
are openstacksdk's exceptions. The floating IP and the port are named by name or id;
everything but the floating IP changes in place.
"""

from __future__ import annotations

from typing import Any

from keel_app.engine import constraints
from keel_app.engine.environment.support import SupportStatus
from keel_app.engine.properties import Schema, TranslationRule
from keel_app.resources.neutron.base import NeutronResource
from keel_app.resources.neutron.floatingip import depend_on_router_interfaces


class FloatingIPPortForward(NeutronResource):
    default_client_name = "openstack"
    required_service_extension = "floating-ip-port-forwarding"
    support_status = SupportStatus(version="19.0.0")
    type_description = """\
A resource for creating port forwarding for floating IPs.

This resource creates port forwarding for floating IPs.
These are sub-resource of exsisting Floating ips, which requires the
service_plugin and extension port_forwarding enabled and that the floating
ip is not associated with a neutron port.
"""

    PROPERTIES = (
        INTERNAL_IP_ADDRESS, INTERNAL_PORT_NUMBER, EXTERNAL_PORT,
        INTERNAL_PORT, PROTOCOL, FLOATINGIP,
    ) = (
        "internal_ip_address", "internal_port_number", "external_port",
        "internal_port", "protocol", "floating_ip",
    )  # fmt: skip

    # Neutron's names for the properties whose names differ.
    API_NAMES = {INTERNAL_PORT: "internal_port_id", INTERNAL_PORT_NUMBER: "internal_port"}

    properties_schema = {
        INTERNAL_IP_ADDRESS: Schema(
            Schema.STRING,
            "Internal IP address to port forwarded to.",
            required=True,
            update_allowed=True,
            constraints=[constraints.CustomConstraint("ip_addr")],
        ),
        INTERNAL_PORT_NUMBER: Schema(
            Schema.INTEGER,
            "Internal port number to port forward to.",
            update_allowed=True,
            constraints=[constraints.Range(min=1, max=65535)],
        ),
        EXTERNAL_PORT: Schema(
            Schema.INTEGER,
            "External port address to port forward from.",
            required=True,
            update_allowed=True,
            constraints=[constraints.Range(min=1, max=65535)],
        ),
        INTERNAL_PORT: Schema(
            Schema.STRING,
            "Name or ID of the internal_ip_address port.",
            required=True,
            update_allowed=True,
            constraints=[constraints.CustomConstraint("neutron.port")],
        ),
        PROTOCOL: Schema(
            Schema.STRING,
            "Port protocol to forward.",
            required=True,
            update_allowed=True,
            constraints=[
                constraints.AllowedValues(["tcp", "udp", "icmp", "icmp6", "sctp", "dccp"])
            ],
        ),
        FLOATINGIP: Schema(
            Schema.STRING,
            "Name or ID of the floating IP create port forwarding on.",
            required=True,
        ),
    }

    def translation_rules(self, properties: Any) -> list[TranslationRule]:
        plugin = self.resolving_plugin()
        return [
            TranslationRule(
                properties,
                TranslationRule.RESOLVE,
                [self.FLOATINGIP],
                client_plugin=plugin,
                finder="find_network_ip",
            ),
            TranslationRule(
                properties,
                TranslationRule.RESOLVE,
                [self.INTERNAL_PORT],
                client_plugin=plugin,
                finder="find_network_port",
            ),
        ]

    def add_dependencies(self, deps: Any) -> None:
        super().add_dependencies(deps)
        depend_on_router_interfaces(self, deps)

    def _network_proxy(self) -> Any:
        return self.client_plugin().client().network

    def _api_fields(self, values: dict[str, Any]) -> dict[str, Any]:
        return {self.API_NAMES.get(key, key): value for key, value in values.items()}

    def handle_create(self) -> None:
        body = self.prepare_properties(self.properties, self.name)
        floating_ip = body.pop(self.FLOATINGIP)
        # As Heat's create: without an internal port number it fails on the name (Neutron
        # itself answers such a request with an internal server error).
        if self.INTERNAL_PORT_NUMBER not in body:
            raise KeyError(self.INTERNAL_PORT_NUMBER)
        made = self._network_proxy().create_floating_ip_port_forwarding(
            floating_ip, **self._api_fields(body)
        )
        self.resource_id_set(made.id)

    def handle_update(self, json_snippet: Any, tmpl_diff: Any, prop_diff: Any) -> None:
        if prop_diff:
            self._network_proxy().update_floating_ip_port_forwarding(
                self.properties[self.FLOATINGIP], self.resource_id, **self._api_fields(prop_diff)
            )

    def handle_delete(self) -> None:
        if not self.resource_id:
            return
        self._network_proxy().delete_floating_ip_port_forwarding(
            self.properties[self.FLOATINGIP], self.resource_id, ignore_missing=True
        )

    def handle_check(self) -> None:
        self._show_resource()

    def _show_resource(self) -> Any:
        return (
            self._network_proxy()
            .get_port_forwarding(self.resource_id, self.properties[self.FLOATINGIP])
            .to_dict()
        )

    def needs_replace_failed(self) -> bool:
        if not self.resource_id:
            return True
        with self.client_plugin().ignore_not_found():
            self._show_resource()
            return False
        return True


RESOURCE_CLASSES = {"OS::Neutron::FloatingIPPortForward": FloatingIPPortForward}
