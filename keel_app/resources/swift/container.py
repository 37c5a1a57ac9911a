"""OS::Swift::Container: a Swift container with its ACLs and metadata.

Named by the template or after the stack; its physical id is its name. Nothing changes
in place. A container with objects is deleted only with ``PurgeOnDelete``, which empties
it one object a poll; the attributes read the account's URL and the container's headers.
"""

from __future__ import annotations

import logging
from typing import Any
from urllib import parse

from keel_app.common import exception
from keel_app.engine.environment.support import SupportStatus
from keel_app.engine.properties import Schema
from keel_app.engine.resource import AttributeSchema, Resource

LOG = logging.getLogger(__name__)


def storage_url_parts(url: str) -> tuple[str, str, str]:
    """(scheme, host and port, path) of the account's storage URL."""
    parsed = parse.urlparse(url)
    return parsed.scheme, parsed.netloc, parsed.path


class SwiftContainer(Resource):
    default_client_name = "swift"
    type_description = """\
A resource for managing Swift containers.

A container defines a namespace for objects. An object with the same
name in two different containers represents two different objects.
"""

    PROPERTIES = (
        NAME, X_CONTAINER_READ, X_CONTAINER_WRITE, X_CONTAINER_META, X_ACCOUNT_META,
        PURGE_ON_DELETE,
    ) = (
        "name", "X-Container-Read", "X-Container-Write", "X-Container-Meta", "X-Account-Meta",
        "PurgeOnDelete",
    )  # fmt: skip

    ATTRIBUTES = (DOMAIN_NAME, WEBSITE_URL, ROOT_URL, OBJECT_COUNT, BYTES_USED, HEAD_CONTAINER) = (
        "DomainName",
        "WebsiteURL",
        "RootURL",
        "ObjectCount",
        "BytesUsed",
        "HeadContainer",
    )

    properties_schema = {
        NAME: Schema(
            Schema.STRING,
            "Name for the container. If not specified, a unique name will be generated.",
        ),
        X_CONTAINER_READ: Schema(
            Schema.STRING,
            "Specify the ACL permissions on who can read objects in the container.",
        ),
        X_CONTAINER_WRITE: Schema(
            Schema.STRING,
            "Specify the ACL permissions on who can write objects to the container.",
        ),
        X_CONTAINER_META: Schema(
            Schema.MAP,
            "A map of user-defined meta data to associate with the container. Each key in "
            "the map will set the header X-Container-Meta-{key} with the corresponding value.",
            default={},
        ),
        X_ACCOUNT_META: Schema(
            Schema.MAP,
            "A map of user-defined meta data to associate with the account. Each key in "
            "the map will set the header X-Account-Meta-{key} with the corresponding value.",
            default={},
        ),
        PURGE_ON_DELETE: Schema(
            Schema.BOOLEAN,
            "If True, delete any objects in the container when the container is deleted. "
            "Otherwise, deleting a non-empty container will result in an error.",
            default=False,
            support_status=SupportStatus(version="2015.1"),
        ),
    }

    attributes_schema = {
        DOMAIN_NAME: AttributeSchema(
            "The host from the container URL.", type=AttributeSchema.STRING
        ),
        WEBSITE_URL: AttributeSchema("The URL of the container.", type=AttributeSchema.STRING),
        ROOT_URL: AttributeSchema("The parent URL of the container.", type=AttributeSchema.STRING),
        OBJECT_COUNT: AttributeSchema(
            "The number of objects stored in the container.", type=AttributeSchema.INTEGER
        ),
        BYTES_USED: AttributeSchema(
            "The number of bytes stored in the container.", type=AttributeSchema.INTEGER
        ),
        HEAD_CONTAINER: AttributeSchema(
            "A map containing all headers for the container.", type=AttributeSchema.MAP
        ),
    }

    def physical_resource_name(self) -> str | None:
        return self.properties[self.NAME] or super().physical_resource_name()

    @staticmethod
    def meta_headers(kind: str, metadata: dict[str, Any] | None) -> dict[str, Any]:
        """``X-<Kind>-Meta-<key>`` headers of the metadata."""
        return {f"X-{kind.title()}-Meta-{key}": value for key, value in (metadata or {}).items()}

    def handle_create(self) -> None:
        container = self.physical_resource_name()
        assert container is not None
        container_headers = self.meta_headers("container", self.properties[self.X_CONTAINER_META])
        account_headers = self.meta_headers("account", self.properties[self.X_ACCOUNT_META])
        for acl in (self.X_CONTAINER_READ, self.X_CONTAINER_WRITE):
            if self.properties[acl] is not None:
                container_headers[acl] = self.properties[acl]
        swift = self.client_plugin()
        swift.put_container(container, container_headers)
        if account_headers:
            swift.post_account(account_headers)
        self.resource_id_set(container)

    # Deleting

    def _objects(self) -> list[dict[str, Any]] | None:
        """The container's objects; None when the container is gone."""
        swift = self.client_plugin()
        with swift.ignore_not_found():
            return swift.get_container(self.resource_id)[1]
        return None

    def _delete(self, found: dict[str, Any] | None = None) -> None:
        swift = self.client_plugin()
        with swift.ignore_not_found():
            if found is None:
                swift.delete_container(self.resource_id)
            else:
                swift.delete_object(self.resource_id, found["name"])

    def handle_delete(self) -> int | None:
        """The number of objects there were (None: nothing to delete)."""
        if self.resource_id is None:
            return None
        objects = self._objects()
        if objects:
            if not self.properties[self.PURGE_ON_DELETE]:
                raise exception.ResourceActionNotSupported(
                    action=(
                        f"Deleting non-empty container ({self.resource_id}) "
                        "when PurgeOnDelete is False"
                    )
                )
            self._delete(objects.pop())
        return None if objects is None else len(objects)

    def check_delete_complete(self, objects: int | None) -> bool:
        if objects is None:
            return True
        if objects:
            remaining = self._objects()
            if remaining is None:
                return True
            if remaining:
                self._delete(remaining.pop())
                if remaining:
                    return False
        self._delete()
        return True

    def handle_check(self) -> None:
        self.client_plugin().get_container(self.resource_id)

    # Reading it back

    def get_reference_id(self) -> str:
        return str(self.resource_id)

    def _show_resource(self) -> Any:
        return self.client_plugin().head_container(self.resource_id)

    def _resolve_attribute(self, name: str) -> Any:
        swift = self.client_plugin()
        scheme, location, path = storage_url_parts(swift.url)
        if name == self.DOMAIN_NAME:
            return location.split(":")[0]
        if name == self.WEBSITE_URL:
            return f"{scheme}://{location}{path}/{self.resource_id}"
        if name == self.ROOT_URL:
            return f"{scheme}://{location}{path}"
        if self.resource_id and name in (self.OBJECT_COUNT, self.BYTES_USED, self.HEAD_CONTAINER):
            try:
                headers = swift.head_container(self.resource_id)
            except Exception as error:
                if swift.is_client_exception(error):
                    LOG.warning("Head container failed: %s", error)
                    return None
                raise
            if name == self.OBJECT_COUNT:
                return headers["x-container-object-count"]
            if name == self.BYTES_USED:
                return headers["x-container-bytes-used"]
            return headers
        return None


RESOURCE_CLASSES = {"OS::Swift::Container": SwiftContainer}
