"""OS::Heat::DeployedServer: a server deployed outside OpenStack, given deployments.

No Nova: the resource's physical id is its own uuid, and what it makes is the
software-config transport (``server_transports``) its agent polls, written into its
metadata as ``os-collect-config``. Suspending it disables its stack user, resuming
enables it again; deleting it deletes the user and the transport's Swift object.
"""

from __future__ import annotations

from typing import Any

from keel_app.engine.environment.support import SupportStatus
from keel_app.engine.properties import Schema
from keel_app.resources.heat.server_transports import SoftwareConfigTransports
from keel_app.resources.nova import server_schema


class DeployedServer(SoftwareConfigTransports):
    default_client_name = "heat"
    entity = "servers"
    support_status = SupportStatus()
    type_description = """\
A resource for managing servers that are already deployed.

A DeployedServer resource manages resources for servers that have been
deployed externally from OpenStack. These servers can be associated with
SoftwareDeployments for further orchestration via Heat.
"""

    PROPERTIES = (NAME, METADATA, SOFTWARE_CONFIG_TRANSPORT, DEPLOYMENT_SWIFT_DATA) = (
        "name",
        "metadata",
        "software_config_transport",
        "deployment_swift_data",
    )
    ATTRIBUTES = (NAME_ATTR, OS_COLLECT_CONFIG) = ("name", "os_collect_config")

    properties_schema = {
        NAME: server_schema.PROPERTIES_SCHEMA[NAME],
        METADATA: Schema(
            Schema.MAP,
            "Arbitrary key/value metadata to store for this server. Both keys and values "
            "must be 255 characters or less. Non-string values will be serialized to JSON "
            "(and the serialized string must be 255 characters or less).",
            update_allowed=True,
            support_status=SupportStatus(
                status="DEPRECATED",
                message="This property will be ignored",
                version="9.0.0",
                previous_status=SupportStatus(status="SUPPORTED", version="8.0.0"),
            ),
        ),
        # The transport's properties are the Nova server's.
        SOFTWARE_CONFIG_TRANSPORT: server_schema.PROPERTIES_SCHEMA[SOFTWARE_CONFIG_TRANSPORT],
        DEPLOYMENT_SWIFT_DATA: server_schema.PROPERTIES_SCHEMA[DEPLOYMENT_SWIFT_DATA],
    }
    attributes_schema = {
        NAME_ATTR: server_schema.ATTRIBUTES_SCHEMA[NAME_ATTR],
        OS_COLLECT_CONFIG: server_schema.ATTRIBUTES_SCHEMA[OS_COLLECT_CONFIG],
    }

    def handle_create(self) -> str:
        metadata = self.metadata_get(True) or {}
        self.resource_id_set(self.uuid)
        self.create_transport_credentials(self.properties)
        self.populate_deployments_metadata(metadata, self.properties)
        return str(self.resource_id)

    def handle_update(self, json_snippet: Any, tmpl_diff: Any, prop_diff: Any) -> list[Any]:
        self.update_transports(json_snippet, tmpl_diff, prop_diff)
        return []

    def handle_delete(self) -> None:
        self.delete_transports()

    def handle_snapshot_delete(self, state: Any) -> None:
        # There is no image to take of a server OpenStack does not run; Heat's attempt
        # fails the delete (docs/divergences.md).
        self.delete_transports()

    def _resolve_attribute(self, name: str) -> Any:
        if self.resource_id is None:
            return None
        if name == self.NAME_ATTR:
            return self.properties[self.NAME] or self.physical_resource_name()
        if name == self.OS_COLLECT_CONFIG:
            return self.os_collect_config()
        return None

    def _show_resource(self) -> Any:
        # Heat's lookup of a deployed server through its client finds nothing to show.
        return None


RESOURCE_CLASSES = {"OS::Heat::DeployedServer": DeployedServer}
