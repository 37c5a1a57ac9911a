"""Heat's ``openstack`` client plugin: an openstacksdk connection, for the resources and
constraints that Heat serves with openstacksdk rather than a service's own client
(network segments, ports and IPs by name or id)."""

from __future__ import annotations

from typing import Any

from openstack import exceptions as sdk_errors

from keel_app.clients.client_plugin import ClientPlugin


class OpenStackSDKPlugin(ClientPlugin):
    name = "openstack"
    service_types = ("network",)
    proxy = "network"

    def client(self) -> Any:
        """The connection itself (``client().network.segments(...)``), as Heat's."""
        return self.connection()

    def find_network_segment(self, value: str) -> str:
        return str(self.client().network.find_segment(value, ignore_missing=False).id)

    def find_network_port(self, value: str) -> str:
        return str(self.client().network.find_port(value, ignore_missing=False).id)

    def find_network_ip(self, value: str) -> str:
        return str(self.client().network.find_ip(value, ignore_missing=False).id)

    def has_extension(self, alias: str) -> bool:
        aliases = self.extensions_cached(
            lambda: sorted(extension.alias for extension in self.client().network.extensions())
        )
        return alias in aliases


# What a look-up of a name raises when it names nothing, or more than one thing.
NOT_FOUND_ERRORS = (sdk_errors.ResourceNotFound, sdk_errors.DuplicateResource)
