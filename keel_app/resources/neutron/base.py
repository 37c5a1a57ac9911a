"""What Heat's Neutron resource types share: properties sent as the API's body, the
status of what was made, deletion that waits until the thing is gone, tags.

A type names its API ``entity`` (``network``, ``subnet``...); its properties, less those
left unset and with ``value_specs`` merged in, are the body of the create call, named
after the stack when the template gives no name. The physical id is Neutron's id, and
the attributes are read from Neutron's answer for that id.
"""

from __future__ import annotations

import logging
from typing import Any

from keel_app.common import exception
from keel_app.engine.resource import Resource

LOG = logging.getLogger(__name__)

VALUE_SPECS = "value_specs"
# What ``value_specs`` may not set: the properties themselves, and ownership and sharing.
BANNED_VALUE_SPECS = frozenset({"shared", "tenant_id"})

SECURITY_GROUP_PROTOCOL_NAMES = (
    "ah", "dccp", "egp", "esp", "gre", "icmp", "icmpv6", "igmp", "ipv6-encap",
    "ipv6-frag", "ipv6-icmp", "ipv6-nonxt", "ipv6-opts", "ipv6-route", "ospf", "pgm",
    "rsvp", "sctp", "tcp", "udp", "udplite", "vrrp",
)  # fmt: skip
SECURITY_GROUP_PROTOCOLS = [*range(256), *SECURITY_GROUP_PROTOCOL_NAMES]
SECURITY_GROUP_PROTOCOL_DESCRIPTION = (
    "The protocol that is matched by the security group rule. Allowed values are "
    + ", ".join(SECURITY_GROUP_PROTOCOL_NAMES)
    + " and integer representations [0-255]."
)


class NeutronResource(Resource):
    """A Neutron API object of kind ``entity``, made from the type's properties."""

    default_client_name = "neutron"
    entity: str | None = None
    # The collection whose tags the type sets (None: the type has no tags).
    tags_collection: str | None = None

    def neutron(self) -> Any:
        """The Neutron client plugin (its ``create``/``show``/``update``/``delete``)."""
        return self.client_plugin()

    def resolving_plugin(self) -> Any:
        """The plugin translation rules resolve names with; None without clients, where
        no rule resolves anything (the type is unavailable there anyway)."""
        clients = getattr(self.context, "clients", None)
        return None if clients is None else clients.client_plugin(self.default_client_name)

    # Validation

    def validate(self) -> Any:
        result = super().validate()
        if result:
            return result
        problem = self.value_specs_problem(self.properties)
        if problem:
            raise exception.StackValidationFailed(message=problem)
        return None

    @staticmethod
    def value_specs_problem(properties: Any) -> str | None:
        if VALUE_SPECS not in properties:
            return None
        banned = BANNED_VALUE_SPECS | set(properties)
        found = banned & set(properties[VALUE_SPECS] or {})
        if found:
            return f"{', '.join(found)} not allowed in value_specs"
        return None

    # Bodies

    @staticmethod
    def prepare_properties(properties: Any, name: str | None) -> dict[str, Any]:
        """The create call's body: the properties set, the name defaulted, value_specs
        merged in."""
        body = {key: value for key, value in properties.items() if value is not None}
        if "name" in properties:
            body.setdefault("name", name)
        if VALUE_SPECS in body:
            body.update(body.pop(VALUE_SPECS) or {})
        return body

    def prepare_update_properties(self, prop_diff: dict[str, Any]) -> None:
        """The update call's body, in place: value_specs' changed keys merged in, and a
        name set back to None named after the stack again."""
        if VALUE_SPECS in prop_diff:
            before = self.properties[VALUE_SPECS] or {}
            specs = prop_diff.pop(VALUE_SPECS)
            if specs is not None:
                prop_diff.update(
                    {key: value for key, value in specs.items() if before.get(key) != value}
                )
        if "name" in prop_diff and prop_diff["name"] is None:
            prop_diff["name"] = self.physical_resource_name()

    def store_config_defaults(self, attributes: dict[str, Any]) -> None:
        # Neutron's configured default is what the resource got: kept to compare with.
        if "port_security_enabled" in attributes:
            self.data_set("port_security_enabled", attributes["port_security_enabled"])

    # Status

    @staticmethod
    def is_built(attributes: dict[str, Any]) -> bool:
        status = attributes["status"]
        if status == "BUILD":
            return False
        if status in ("ACTIVE", "DOWN"):
            return True
        if status in ("ERROR", "DEGRADED"):
            raise exception.ResourceInError(resource_status=status)
        raise exception.ResourceUnknownStatus(
            resource_status=status, result="Resource is not built"
        )

    # Reading it back

    def _show_resource(self) -> Any:
        assert self.entity is not None
        return self.neutron().show(self.entity, self.resource_id)

    def _resolve_attribute(self, name: str) -> Any:
        if self.resource_id is None:
            return None
        return self._show_resource().get(name)

    def get_reference_id(self) -> str:
        return self.resource_id  # type: ignore[no-any-return]

    def needs_replace_failed(self) -> bool:
        if not self.resource_id:
            return True
        try:
            found = self._show_resource()
        except Exception as error:
            if self.neutron().is_not_found(error):
                return True
            raise
        return bool("status" in found and found["status"] == "ERROR")

    # Deleting

    def handle_delete(self) -> bool | None:
        """Ask Neutron to delete it; True when there is something to wait for."""
        if self.resource_id is None:
            return None
        assert self.entity is not None
        with self.neutron().ignore_not_found():
            self.neutron().delete(self.entity, self.resource_id)
            return True
        return None

    def check_delete_complete(self, deleting: Any) -> bool:
        if not deleting:
            return True
        try:
            self._show_resource()
        except Exception as error:
            if self.neutron().is_not_found(error):
                return True
            raise
        raise exception.PhysicalResourceExists(name=self.physical_resource_name_or_ref())

    def physical_resource_name_or_ref(self) -> str:
        return self.physical_resource_name() or self.FnGetRefId()

    # Tags

    def set_tags(self, tags: list[str] | None) -> None:
        if self.tags_collection:
            self.neutron().request(
                "PUT", f"{self.tags_collection}/{self.resource_id}/tags", {"tags": tags or []}
            )
