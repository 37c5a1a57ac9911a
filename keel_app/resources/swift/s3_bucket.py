"""AWS::S3::Bucket: a Swift container in S3's terms (a canned ACL, website documents and
tags as container headers), named after the stack. Nothing changes in place; a bucket
with objects in it is not deleted."""

from __future__ import annotations

from typing import Any

from keel_app.common import exception
from keel_app.engine import constraints
from keel_app.engine.properties import Schema
from keel_app.engine.resource import AttributeSchema, Resource
from keel_app.resources.swift.container import storage_url_parts

CANNED_ACLS = [
    "Private",
    "PublicRead",
    "PublicReadWrite",
    "AuthenticatedRead",
    "BucketOwnerRead",
    "BucketOwnerFullControl",
]


class S3Bucket(Resource):
    default_client_name = "swift"

    PROPERTIES = (ACCESS_CONTROL, WEBSITE_CONFIGURATION, TAGS) = (
        "AccessControl",
        "WebsiteConfiguration",
        "Tags",
    )
    INDEX_DOCUMENT, ERROR_DOCUMENT = "IndexDocument", "ErrorDocument"
    TAG_KEY, TAG_VALUE = "Key", "Value"
    ATTRIBUTES = (DOMAIN_NAME, WEBSITE_URL) = ("DomainName", "WebsiteURL")

    properties_schema = {
        ACCESS_CONTROL: Schema(
            Schema.STRING,
            "A predefined access control list (ACL) that grants permissions on the bucket.",
            constraints=[constraints.AllowedValues(CANNED_ACLS)],
        ),
        WEBSITE_CONFIGURATION: Schema(
            Schema.MAP,
            "Information used to configure the bucket as a static website.",
            schema={
                INDEX_DOCUMENT: Schema(Schema.STRING, "The name of the index document."),
                ERROR_DOCUMENT: Schema(Schema.STRING, "The name of the error document."),
            },
        ),
        TAGS: Schema(
            Schema.LIST,
            "Tags to attach to the bucket.",
            schema=Schema(
                Schema.MAP,
                schema={
                    TAG_KEY: Schema(Schema.STRING, "The tag key name.", required=True),
                    TAG_VALUE: Schema(Schema.STRING, "The tag value.", required=True),
                },
            ),
        ),
    }

    attributes_schema = {
        DOMAIN_NAME: AttributeSchema(
            "The DNS name of the specified bucket.", type=AttributeSchema.STRING
        ),
        WEBSITE_URL: AttributeSchema(
            "The website endpoint for the specified bucket.", type=AttributeSchema.STRING
        ),
    }

    def _headers(self) -> dict[str, Any]:
        headers = {
            f"X-Container-Meta-S3-Tag-{tag[self.TAG_KEY]}": tag[self.TAG_VALUE]
            for tag in self.properties[self.TAGS] or []
        }
        website = self.properties[self.WEBSITE_CONFIGURATION]
        if website is not None:
            # Served by Swift's staticweb middleware, where the proxy runs it.
            headers["X-Container-Meta-Web-Index"] = website[self.INDEX_DOCUMENT]
            headers["X-Container-Meta-Web-Error"] = website[self.ERROR_DOCUMENT]
        access = self.properties[self.ACCESS_CONTROL]
        owner = f"{self.context.project_name}:{self.context.username}"
        if access in ("PublicRead", "PublicReadWrite"):
            headers["X-Container-Read"] = ".r:*"
        elif access == "AuthenticatedRead":
            headers["X-Container-Read"] = self.context.project_name
        else:
            headers["X-Container-Read"] = owner
        headers["X-Container-Write"] = ".r:*" if access == "PublicReadWrite" else owner
        return headers

    def handle_create(self) -> None:
        container = self.physical_resource_name()
        self.client_plugin().put_container(container, self._headers())
        self.resource_id_set(container)

    def handle_delete(self) -> None:
        if self.resource_id is None:
            return
        swift = self.client_plugin()
        try:
            swift.delete_container(self.resource_id)
        except Exception as error:
            if swift.is_conflict(error) and swift.get_container(self.resource_id)[1]:
                raise exception.ResourceActionNotSupported(
                    action=f"The bucket you tried to delete is not empty ({self.resource_id})."
                ) from error
            if not swift.is_not_found(error):
                raise

    def get_reference_id(self) -> str:
        return str(self.resource_id)

    def _resolve_attribute(self, name: str) -> Any:
        scheme, location, path = storage_url_parts(self.client_plugin().url)
        if name == self.DOMAIN_NAME:
            return location.split(":")[0]
        if name == self.WEBSITE_URL:
            return f"{scheme}://{location}{path}/{self.resource_id}"
        return None


RESOURCE_CLASSES = {"AWS::S3::Bucket": S3Bucket}
