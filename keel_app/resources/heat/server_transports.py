"""How a server's agent reaches its deployments: the software-config transports.

Shared by OS::Nova::Server (``user_data_format: SOFTWARE_CONFIG``) and
OS::Heat::DeployedServer, as Heat's BaseServer shares them. The server's metadata (the
resource row's ``rsrc_metadata``) holds its ``deployments`` and an ``os-collect-config``
section that tells os-collect-config where to poll for that metadata, by
``software_config_transport``:

- POLL_SERVER_CFN: the CFN API's DescribeStackResource, signed with the EC2 keypair of
  the resource's stack user (section ``cfn``);
- POLL_SERVER_HEAT: the native API's resource metadata, as the stack user logged in with
  a password of its own (section ``heat``);
- POLL_TEMP_URL: a Swift object read through a GET TempURL (section ``request``); the
  metadata is PUT there through a PUT TempURL kept in resource_data ``metadata_put_url``,
  now and whenever the deployments change (``server_metadata.push_server_metadata``);
- ZAQAR_MESSAGE: a Zaqar queue. OpenKeel has no Zaqar: the step fails where Heat's
  fails in a cloud without Zaqar, on keystoneauth's EndpointNotFound once the user and
  the metadata are made (a cloud that has Zaqar gets ClientNotAvailable instead).

``collectors`` lists what os-collect-config runs, in order: the type's own defaults
(``ec2`` for a Nova server), the transport's section, then ``local``. Sections of other
transports stay, every value None, so that they override what the server was booted
with. Deleting the server deletes the stack user (and its keypair) and the Swift object,
and the container when nothing else is left in it.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

from keystoneauth1 import exceptions as keystone_errors

from keel_app.common.exception import ClientNotAvailable
from keel_app.engine.resource import service_catalog
from keel_app.resources.configured_defaults import given_or_configured
from keel_app.resources.heat.stack_user import (
    ACCESS_KEY,
    SECRET_KEY,
    PasswordKeepingStackUser,
    generate_openstack_password,
)

TRANSPORTS = (POLL_SERVER_CFN, POLL_SERVER_HEAT, POLL_TEMP_URL, ZAQAR_MESSAGE) = (
    "POLL_SERVER_CFN",
    "POLL_SERVER_HEAT",
    "POLL_TEMP_URL",
    "ZAQAR_MESSAGE",
)
# resource_data keys.
METADATA_PUT_URL = "metadata_put_url"
METADATA_OBJECT_NAME = "metadata_object_name"
METADATA_QUEUE_ID = "metadata_queue_id"
# Metadata keys.
OS_COLLECT_CONFIG = "os-collect-config"
DEPLOYMENTS = "deployments"
COLLECTORS = "collectors"
# The os-collect-config sections a transport may have written.
COLLECTOR_SECTIONS = ("heat", "zaqar", "cfn", "request")


class SoftwareConfigTransports(PasswordKeepingStackUser):
    """Mixed into the server types; they name the two properties below."""

    TRANSPORT_PROPERTY = "software_config_transport"
    SWIFT_DATA_PROPERTY = "deployment_swift_data"
    CONTAINER, OBJECT = "container", "object"
    # What os-collect-config runs before the transport's collector.
    default_collectors: tuple[str, ...] = ()

    def user_data_software_config(self) -> bool:
        """Whether the server gets its configuration through deployments."""
        return True

    # Credentials kept in resource_data

    @property
    def access_key(self) -> str | None:
        return self.data().get(ACCESS_KEY)

    @property
    def secret_key(self) -> str | None:
        return self.data().get(SECRET_KEY)

    # Making the transport

    def transport(self, properties: Any) -> str:
        configured = self.stack.settings.default_software_config_transport
        return str(given_or_configured(properties, self.TRANSPORT_PROPERTY, configured))

    def create_transport_credentials(self, properties: Any) -> None:
        """The stack user: with an EC2 keypair to sign CFN calls, or a password to log in."""
        transport = self.transport(properties)
        if transport == POLL_SERVER_CFN:
            self._create_user()
            self._create_keypair()
        elif transport in (POLL_SERVER_HEAT, ZAQAR_MESSAGE):
            if self.password is None:
                self.password = generate_openstack_password()
            self._create_user()

    def populate_deployments_metadata(self, metadata: Any, properties: Any) -> None:
        """Write the transport's os-collect-config section (and the deployments key) into
        the metadata, then hand the metadata to the transport."""
        metadata[DEPLOYMENTS] = metadata.get(DEPLOYMENTS, [])
        collect_config = metadata[OS_COLLECT_CONFIG] = metadata.get(OS_COLLECT_CONFIG, {})
        collectors = list(self.default_collectors)
        collect_config[COLLECTORS] = collectors
        # What the server booted with must not survive a change of transport.
        for section in COLLECTOR_SECTIONS:
            for key in collect_config.get(section, {}):
                collect_config[section][key] = None
        transport = self.transport(properties)
        queue_id = self.data().get(METADATA_QUEUE_ID)
        if transport == POLL_SERVER_HEAT:
            collect_config["heat"] = {
                "user_id": self._get_user_id(),
                "password": self.password,
                "auth_url": self.server_keystone_endpoint_url(self.keystone().v3_endpoint),
                "project_id": self._stack_user_project_id(),
                "stack_id": self.stack.identifier().stack_path(),
                "resource_name": self.name,
                "region_name": self.transport_region_name(),
            }
            collectors.append("heat")
        elif transport == ZAQAR_MESSAGE:
            queue_id = queue_id or self.physical_resource_name()
            collect_config["zaqar"] = {
                "user_id": self._get_user_id(),
                "password": self.password,
                "auth_url": self.server_keystone_endpoint_url(self.keystone().v3_endpoint),
                "project_id": self._stack_user_project_id(),
                "queue_id": queue_id,
                "region_name": self.transport_region_name(),
            }
            collectors.append("zaqar")
        elif transport == POLL_SERVER_CFN:
            heat = self.client_plugin("heat")
            collect_config["cfn"] = {
                "metadata_url": heat.get_cfn_metadata_server_url(),
                "access_key_id": self.access_key,
                "secret_access_key": self.secret_key,
                "stack_name": self.stack.name,
                "path": f"{self.name}.Metadata",
            }
            collectors.append("cfn")
        elif transport == POLL_TEMP_URL:
            container, object_name = self.container_and_object_name(properties)
            swift = self.client_plugin("swift")
            swift.put_container(container)
            get_url = swift.get_temp_url(container, object_name, method="GET")
            put_url = swift.get_temp_url(container, object_name)
            self.data_set(METADATA_PUT_URL, put_url)
            self.data_set(METADATA_OBJECT_NAME, object_name)
            collect_config["request"] = {"metadata_url": get_url}
            collectors.append("request")
        collectors.append("local")
        self.metadata_set(metadata)
        if queue_id:
            zaqar_unavailable(self.context)
        if self.data().get(METADATA_OBJECT_NAME):
            container, object_name = self.container_and_object_name(properties)
            self.client_plugin("swift").put_object(container, object_name, json.dumps(metadata))

    def container_and_object_name(self, properties: Any) -> tuple[str, str]:
        """The Swift container and object of the metadata: named by
        ``deployment_swift_data``, else the resource's name and a new uuid (kept)."""
        swift_data = properties.get(
            self.SWIFT_DATA_PROPERTY, self.properties[self.SWIFT_DATA_PROPERTY]
        )
        swift_data = swift_data or {}
        container = swift_data.get(self.CONTAINER) or self.physical_resource_name()
        object_name = (
            swift_data.get(self.OBJECT)
            or self.data().get(METADATA_OBJECT_NAME)
            or str(uuid.uuid4())
        )
        return container, object_name

    def transport_region_name(self) -> str | None:
        """The region the server's agent looks services up in (the type's client's)."""
        plugin = self.client_plugin()
        region = getattr(plugin, "_get_region_name", None)
        return region() if callable(region) else plugin.region_name

    # Changing it

    def update_transports(self, json_snippet: Any, tmpl_diff: Any, prop_diff: Any) -> None:
        """New template metadata keeps the transport's section and the deployments; a new
        transport is made and written into the metadata, the old one's object and queue
        deleted (the stack user stays)."""
        if tmpl_diff.metadata_changed():
            new_metadata = json_snippet.metadata()
            if self.user_data_software_config():
                metadata = self.metadata_get(True) or {}
                collect_config = metadata.get(OS_COLLECT_CONFIG, {})
                collect_config.update(new_metadata.get(OS_COLLECT_CONFIG, {}))
                new_metadata[OS_COLLECT_CONFIG] = collect_config
                new_metadata[DEPLOYMENTS] = metadata.get(DEPLOYMENTS, [])
            self.metadata_set(new_metadata)
        if self.TRANSPORT_PROPERTY in prop_diff and self.user_data_software_config():
            self.delete_queue()
            self.delete_temp_url()
            metadata = self.metadata_get(True) or {}
            self.create_transport_credentials(prop_diff)
            self.populate_deployments_metadata(metadata, prop_diff)

    def metadata_update(self, new_metadata: Any = None) -> None:
        """Merge the template's metadata (its values may have changed) into what the
        resource added to it (the deployments, the transport)."""
        if new_metadata is None:
            metadata = self.metadata_get(refresh=True) or {}
            metadata.update(self.t.metadata())
            self.metadata_set(metadata)

    def os_collect_config(self) -> Any:
        return (self.metadata_get() or {}).get(OS_COLLECT_CONFIG, {})

    # Deleting it

    def delete_transports(self) -> None:
        self.delete_queue()
        self._delete_user()
        self.delete_temp_url()

    def delete_temp_url(self) -> None:
        """The metadata's Swift object, and its container once empty."""
        object_name = self.data().get(METADATA_OBJECT_NAME)
        if not object_name:
            return
        # Heat asks for an endpoint of type "swift", which no catalog has, and so leaves
        # the object and container behind (docs/divergences.md).
        try:
            swift = self.client_plugin("swift")
        except ClientNotAvailable:
            swift = None
        if swift is not None:
            swift_data = self.properties[self.SWIFT_DATA_PROPERTY] or {}
            container = swift_data.get(self.CONTAINER) or self.physical_resource_name()
            with swift.ignore_not_found():
                swift.delete_object(container, object_name)
                headers = swift.head_container(container)
                if int(headers["x-container-object-count"]) == 0:
                    swift.delete_container(container)
        self.data_delete(METADATA_OBJECT_NAME)
        self.data_delete(METADATA_PUT_URL)

    def delete_queue(self) -> None:
        # No queue is ever made here (there is no Zaqar); one a Heat engine made is
        # forgotten, as Heat forgets it when Zaqar has left the catalog.
        if self.data().get(METADATA_QUEUE_ID):
            self.data_delete(METADATA_QUEUE_ID)


def zaqar_unavailable(context: Any) -> None:
    """Fail as posting to a Zaqar queue fails: Heat's way where the catalog has no Zaqar,
    and OpenKeel's missing client where it has one."""
    available, _ = service_catalog.service_available(context, "zaqar")
    if available:
        raise ClientNotAvailable(client_name="zaqar")
    raise keystone_errors.EndpointNotFound()
