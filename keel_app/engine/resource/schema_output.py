"""The answer of the ``resource_schema`` RPC: a type's properties, attributes and status.

Heat's ``resource_schema(type_name, with_description)`` answers from the global
environment: hidden types are not supported, a type whose service is not in the
caller's catalog is unavailable, and hidden or unimplemented properties and hidden
attributes are left out. Policy enforcement belongs to the service that calls this.
"""

from __future__ import annotations

import itertools
from typing import Any

from keel_app.common.exception import (
    InvalidGlobalResource,
    NotFound,
    NotSupported,
)
from keel_app.engine import properties
from keel_app.engine.environment.support import HIDDEN
from keel_app.engine.resource import attributes
from keel_app.engine.resource.base import NO_LIFE_CYCLE

# The answer's keys (Heat's rpc api RES_SCHEMA_* names).
RES_SCHEMA_RES_TYPE = "resource_type"
RES_SCHEMA_PROPERTIES = "properties"
RES_SCHEMA_ATTRIBUTES = "attributes"
RES_SCHEMA_SUPPORT_STATUS = "support_status"
RES_SCHEMA_DESCRIPTION = "description"


def properties_schema(resource_class: Any) -> dict[str, Any]:
    """The visible properties of a type, in their dictionary form."""
    visible = {}
    for name, item in resource_class.properties_schema.items():
        schema = properties.Schema.from_legacy(item)
        if schema.implemented and schema.support_status.status != HIDDEN:
            visible[name] = dict(schema)
    return visible


def attributes_schema(resource_class: Any) -> dict[str, Any]:
    """The visible attributes of a type (``show`` included), in their dictionary form."""
    visible = {}
    every = itertools.chain(
        resource_class.attributes_schema.items(), resource_class.base_attributes_schema.items()
    )
    for name, item in every:
        schema = attributes.Schema.from_attribute(item)
        if schema.support_status.status != HIDDEN:
            visible[name] = dict(schema)
    return visible


def resource_schema(
    environment: Any, type_name: str, context: Any = None, with_description: bool = False
) -> dict[str, Any]:
    """The schema answer for ``type_name`` as registered in ``environment``."""
    try:
        resource_class = environment.get_class(type_name)
    except NotFound:
        raise InvalidGlobalResource(type_name=type_name) from None
    assert resource_class is not None
    if resource_class.support_status.status == HIDDEN:
        raise NotSupported(feature=type_name)
    try:
        available, reason = resource_class.is_service_available(context)
    except Exception as error:
        raise resource_class.unavailable(type_name, str(error)) from None
    if not available:
        # Heat's words for a service missing from the catalog, whatever the check said.
        shown = reason if reason == NO_LIFE_CYCLE else "Service endpoint not in service catalog."
        raise resource_class.unavailable(type_name, shown)
    answer = {
        RES_SCHEMA_RES_TYPE: type_name,
        RES_SCHEMA_PROPERTIES: properties_schema(resource_class),
        RES_SCHEMA_ATTRIBUTES: attributes_schema(resource_class),
        RES_SCHEMA_SUPPORT_STATUS: resource_class.support_status.to_dict(),
    }
    if with_description:
        answer[RES_SCHEMA_DESCRIPTION] = resource_class.getdoc()
    return answer
