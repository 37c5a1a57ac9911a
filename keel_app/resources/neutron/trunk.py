"""OS::Neutron::Trunk: a Neutron trunk, a parent port carrying other ports (subports) as
VLANs to one server interface.

The parent port and the subports' ports are named by name or id and resolved to ids. The
trunk is complete once Neutron reports it ACTIVE or DOWN (a trunk no server uses stays
DOWN). Its name, description and state change in place, and so do its subports: those
no longer wanted are removed first (a port can be only one subport), then the new ones
added. Another parent port is refused: it is immutable.
"""

from __future__ import annotations

from typing import Any

from keel_app.engine import constraints
from keel_app.engine.environment.support import SupportStatus
from keel_app.engine.properties import Schema, TranslationRule
from keel_app.engine.resource import AttributeSchema
from keel_app.resources.neutron.base import NeutronResource


class Trunk(NeutronResource):
    entity = "trunk"
    required_service_extension = "trunk"
    support_status = SupportStatus(version="9.0.0")
    type_description = """\
A resource for managing Neutron trunks.

Requires Neutron Trunk Extension to be enabled::

  $ openstack extension show trunk

The network trunk service allows multiple networks to be connected to
an instance using a single virtual NIC (vNIC). Multiple networks can
be presented to an instance by connecting the instance to a single port.

Users can create a port, associate it with a trunk (as the trunk's parent)
and launch an instance on that port. Users can dynamically attach and
detach additional networks without disrupting operation of the instance.

Every trunk has a parent port and can have any number (0, 1, ...) of
subports. The parent port is the port that the instance is directly
associated with and its traffic is always untagged inside the instance.
Users must specify the parent port of the trunk when launching an
instance attached to a trunk.

A network presented by a subport is the network of the associated port.
When creating a subport, a ``segmentation_type`` and ``segmentation_id``
may be required by the driver so the user can distinguish the networks
inside the instance. As of release Pike only ``segmentation_type``
``vlan`` is supported. ``segmentation_id`` defines the segmentation ID
on which the subport network is presented to the instance.

Note that some Neutron backends (primarily Open vSwitch) only allow
trunk creation before an instance is booted on the parent port. To avoid
a possible race condition when booting an instance with a trunk it is
strongly recommended to refer to the trunk's parent port indirectly in
the template via ``get_attr``. For example::

  trunk:
    type: OS::Neutron::Trunk
    properties:
      port: ...
  instance:
    type: OS::Nova::Server
    properties:
      networks:
        - { port: { get_attr: [trunk, port_id] } }

Though other Neutron backends may tolerate the direct port reference
(and the possible reverse ordering of API requests implied) it's a good
idea to avoid writing Neutron backend specific templates.
"""

    PROPERTIES = (NAME, PARENT_PORT, SUB_PORTS, DESCRIPTION, ADMIN_STATE_UP) = (
        "name",
        "port",
        "sub_ports",
        "description",
        "admin_state_up",
    )

    _SUBPORT_KEYS = (PORT, SEGMENTATION_TYPE, SEGMENTATION_ID) = (
        "port",
        "segmentation_type",
        "segmentation_id",
    )

    ATTRIBUTES = (PORT_ATTR,) = ("port_id",)

    _subport_schema = {
        PORT: Schema(
            Schema.STRING,
            "ID or name of a port to be used as a subport.",
            required=True,
            constraints=[constraints.CustomConstraint("neutron.port")],
        ),
        SEGMENTATION_TYPE: Schema(
            Schema.STRING,
            "Segmentation type to be used on the subport.",
            required=True,
            constraints=[constraints.AllowedValues(["vlan"])],
        ),
        SEGMENTATION_ID: Schema(
            Schema.INTEGER,
            "The segmentation ID on which the subport network is presented to the instance.",
            required=True,
            constraints=[constraints.Range(1, 4094)],
        ),
    }

    properties_schema = {
        NAME: Schema(
            Schema.STRING,
            "A string specifying a symbolic name for the trunk, which is not required to be uniqe.",
            update_allowed=True,
        ),
        PARENT_PORT: Schema(
            Schema.STRING,
            "ID or name of a port to be used as a parent port.",
            required=True,
            immutable=True,
            constraints=[constraints.CustomConstraint("neutron.port")],
        ),
        SUB_PORTS: Schema(
            Schema.LIST,
            "List with 0 or more map elements containing subport details.",
            schema=Schema(Schema.MAP, schema=_subport_schema),
            update_allowed=True,
        ),
        DESCRIPTION: Schema(Schema.STRING, "Description for the trunk.", update_allowed=True),
        ADMIN_STATE_UP: Schema(
            Schema.BOOLEAN,
            "Enable/disable subport addition, removal and trunk delete.",
            update_allowed=True,
        ),
    }

    attributes_schema = {
        PORT_ATTR: AttributeSchema(
            "ID or name of a port used as a parent port.", type=AttributeSchema.STRING
        ),
    }

    def translation_rules(self, properties: Any) -> list[TranslationRule]:
        plugin = self.resolving_plugin()
        return [
            TranslationRule(
                properties,
                TranslationRule.RESOLVE,
                path,
                client_plugin=plugin,
                finder="find_resourceid_by_name_or_id",
                entity="port",
            )
            for path in ([self.PARENT_PORT], [self.SUB_PORTS, self.PORT])
        ]

    def handle_create(self) -> None:
        body = self.prepare_properties(self.properties, self.physical_resource_name())
        body["port_id"] = body.pop(self.PARENT_PORT)
        if body.get(self.SUB_PORTS):
            body[self.SUB_PORTS] = [self._subport_body(sub) for sub in body[self.SUB_PORTS]]
        trunk = self.neutron().create(self.entity, body)
        self.resource_id_set(trunk["id"])

    def check_create_complete(self, _token: Any = None) -> bool:
        return self.is_built(self._show_resource())

    def handle_update(self, json_snippet: Any, tmpl_diff: Any, prop_diff: Any) -> None:
        subports_changed = self.SUB_PORTS in prop_diff
        wanted = prop_diff.pop(self.SUB_PORTS, None) or []
        if prop_diff:
            self.prepare_update_properties(prop_diff)
            self.neutron().update(self.entity, self.resource_id, prop_diff)
        if subports_changed:
            self._replace_subports(self.properties[self.SUB_PORTS] or [], wanted)

    def _replace_subports(self, before: list[Any], after: list[Any]) -> None:
        # Compared one by one, so that the subports kept are not touched.
        old = {self._subport_key(sub): sub for sub in before}
        new = {self._subport_key(sub): sub for sub in after}
        removed = [old[key] for key in old.keys() - new.keys()]
        added = [new[key] for key in new.keys() - old.keys()]
        path = f"trunks/{self.resource_id}"
        if removed:
            body = {"sub_ports": [{"port_id": sub[self.PORT]} for sub in removed]}
            self.neutron().request("PUT", f"{path}/remove_subports", body)
        if added:
            body = {"sub_ports": [self._subport_body(sub) for sub in added]}
            self.neutron().request("PUT", f"{path}/add_subports", body)

    def check_update_complete(self, _token: Any = None) -> bool:
        return self.is_built(self._show_resource())

    def handle_delete(self) -> None:
        # Neutron deletes a trunk at once, leaving its ports.
        if self.resource_id is None:
            return
        with self.neutron().ignore_not_found():
            self.neutron().delete(self.entity, self.resource_id)

    def _subport_key(self, sub: dict[str, Any]) -> tuple[Any, ...]:
        return tuple(sub.get(key) for key in self._SUBPORT_KEYS)

    def _subport_body(self, sub: dict[str, Any]) -> dict[str, Any]:
        return {
            "port_id": sub[self.PORT],
            "segmentation_type": sub[self.SEGMENTATION_TYPE],
            "segmentation_id": sub[self.SEGMENTATION_ID],
        }


RESOURCE_CLASSES = {"OS::Neutron::Trunk": Trunk}
