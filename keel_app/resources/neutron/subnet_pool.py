"""OS::Neutron::SubnetPool: a block of addresses that subnets are allocated from.

The address scope is resolved to an id by name or id, tags are set once the pool
exists. Every property but the owner and sharing changes in place; the prefixes only by
growing (Neutron never gives addresses back from a pool).
"""

from __future__ import annotations

from typing import Any

import netaddr

from keel_app.common import exception
from keel_app.engine import constraints
from keel_app.engine.environment.support import SupportStatus
from keel_app.engine.properties import Schema
from keel_app.resources.neutron.base import NeutronResource

ILLEGAL_BOUNDS = "Illegal prefix bounds: {}={}, {}={}."


class SubnetPool(NeutronResource):
    entity = "subnetpool"
    tags_collection = "subnetpools"
    required_service_extension = "subnet_allocation"
    support_status = SupportStatus(version="6.0.0")
    type_description = """\
A resource that implements neutron subnet pool.

This resource can be used to create a subnet pool with a large block
of addresses and create subnets from it.
"""

    PROPERTIES = (
        NAME,
        PREFIXES,
        ADDRESS_SCOPE,
        DEFAULT_QUOTA,
        DEFAULT_PREFIXLEN,
        MIN_PREFIXLEN,
        MAX_PREFIXLEN,
        IS_DEFAULT,
        TENANT_ID,
        SHARED,
        TAGS,
    ) = (
        "name",
        "prefixes",
        "address_scope",
        "default_quota",
        "default_prefixlen",
        "min_prefixlen",
        "max_prefixlen",
        "is_default",
        "tenant_id",
        "shared",
        "tags",
    )

    properties_schema = {
        NAME: Schema(Schema.STRING, "Name of the subnet pool.", update_allowed=True),
        PREFIXES: Schema(
            Schema.LIST,
            "List of subnet prefixes to assign.",
            schema=Schema(Schema.STRING, constraints=[constraints.CustomConstraint("net_cidr")]),
            constraints=[constraints.Length(min=1)],
            required=True,
            update_allowed=True,
        ),
        ADDRESS_SCOPE: Schema(
            Schema.STRING,
            "An address scope ID to assign to the subnet pool.",
            constraints=[constraints.CustomConstraint("neutron.address_scope")],
            update_allowed=True,
        ),
        DEFAULT_QUOTA: Schema(
            Schema.INTEGER,
            "A per-tenant quota on the prefix space that can be allocated from the subnet "
            "pool for tenant subnets.",
            constraints=[constraints.Range(min=0)],
            update_allowed=True,
        ),
        DEFAULT_PREFIXLEN: Schema(
            Schema.INTEGER,
            "The size of the prefix to allocate when the cidr or prefixlen attributes are "
            "not specified while creating a subnet.",
            constraints=[constraints.Range(min=0)],
            update_allowed=True,
        ),
        MIN_PREFIXLEN: Schema(
            Schema.INTEGER,
            "Smallest prefix size that can be allocated from the subnet pool.",
            constraints=[constraints.Range(min=0)],
            update_allowed=True,
        ),
        MAX_PREFIXLEN: Schema(
            Schema.INTEGER,
            "Maximum prefix size that can be allocated from the subnet pool.",
            constraints=[constraints.Range(min=0)],
            update_allowed=True,
        ),
        IS_DEFAULT: Schema(
            Schema.BOOLEAN,
            "Whether this is default IPv4/IPv6 subnet pool. There can only be one default "
            "subnet pool for each IP family. Note that the default policy setting restricts "
            "administrative users to set this to True.",
            default=False,
            update_allowed=True,
        ),
        TENANT_ID: Schema(
            Schema.STRING,
            "The ID of the tenant who owns the subnet pool. Only administrative users can "
            "specify a tenant ID other than their own.",
        ),
        SHARED: Schema(
            Schema.BOOLEAN,
            "Whether the subnet pool will be shared across all tenants. Note that the "
            "default policy setting restricts usage of this attribute to administrative "
            "users only.",
            default=False,
        ),
        TAGS: Schema(
            Schema.LIST,
            "The tags to be added to the subnetpool.",
            schema=Schema(Schema.STRING),
            update_allowed=True,
            support_status=SupportStatus(version="9.0.0"),
        ),
    }

    def validate(self) -> Any:
        super().validate()
        smallest = self.properties[self.MIN_PREFIXLEN]
        default = self.properties[self.DEFAULT_PREFIXLEN]
        largest = self.properties[self.MAX_PREFIXLEN]
        # Heat checks only the bounds that are set and not 0.
        if smallest and largest and smallest > largest:
            self._refuse_bounds(self.MAX_PREFIXLEN, largest, self.MIN_PREFIXLEN, smallest)
        if default:
            if largest and default > largest:
                self._refuse_bounds(self.MAX_PREFIXLEN, largest, self.DEFAULT_PREFIXLEN, default)
            if smallest and smallest > default:
                self._refuse_bounds(self.MIN_PREFIXLEN, smallest, self.DEFAULT_PREFIXLEN, default)
        return None

    @staticmethod
    def _refuse_bounds(name: str, value: int, other_name: str, other_value: int) -> None:
        raise exception.StackValidationFailed(
            message=ILLEGAL_BOUNDS.format(name, value, other_name, other_value)
        )

    def handle_create(self) -> None:
        body = self.prepare_properties(self.properties, self.physical_resource_name())
        scope = body.pop(self.ADDRESS_SCOPE, None)
        if scope:
            body["address_scope_id"] = self._address_scope_id(scope)
        tags = body.pop(self.TAGS, [])
        pool = self.neutron().create(self.entity, body)
        self.resource_id_set(pool["id"])
        if tags:
            self.set_tags(tags)

    def _address_scope_id(self, scope: str) -> str:
        return self.neutron().find_resourceid_by_name_or_id("address_scope", scope)

    def handle_update(self, json_snippet: Any, tmpl_diff: Any, prop_diff: Any) -> None:
        if self.PREFIXES in prop_diff:
            self._refuse_shrinking(prop_diff[self.PREFIXES])
        if self.ADDRESS_SCOPE in prop_diff:
            scope = prop_diff.pop(self.ADDRESS_SCOPE)
            prop_diff["address_scope_id"] = self._address_scope_id(scope) if scope else scope
        if self.TAGS in prop_diff:
            self.set_tags(prop_diff.pop(self.TAGS))
        if prop_diff:
            self.prepare_update_properties(prop_diff)
            self.neutron().update(self.entity, self.resource_id, prop_diff)

    def _refuse_shrinking(self, prefixes: list[str]) -> None:
        before = self.properties[self.PREFIXES]
        if not netaddr.IPSet(before).issubset(netaddr.IPSet(prefixes)):
            raise exception.StackValidationFailed(
                message=f"Property {self.PREFIXES} updated value {sorted(prefixes)} should be "
                f"superset of existing value {sorted(before)}."
            )


RESOURCE_CLASSES = {"OS::Neutron::SubnetPool": SubnetPool}
