"""OS::Nova::HostAggregate: a group of compute hosts with metadata, and perhaps an
availability zone of their own (Nova lets only admins make them).

Everything changes in place: the hosts by adding and removing the difference, the
metadata by Nova's merge (as Heat sets it: keys left out of the new map stay), the name
and zone by an update. The hosts leave the aggregate before it is deleted, which Nova
requires.
"""

from __future__ import annotations

from typing import Any

from keel_app.engine import constraints
from keel_app.engine.environment.support import SupportStatus
from keel_app.engine.properties import Schema
from keel_app.resources.nova.base import BASE_MICROVERSION, NovaResource


class HostAggregate(NovaResource):
    api_path = "os-aggregates"
    api_key = "aggregate"
    entity = "aggregates"
    support_status = SupportStatus(version="6.0.0")
    type_description = """\
A resource for further partition an availability zone with hosts.

While availability zones are visible to users, host aggregates are only
visible to administrators. Host aggregates started out as a way to use
Xen hypervisor resource pools, but has been generalized to provide a
mechanism to allow administrators to assign key-value pairs to groups of
machines. Each node can have multiple aggregates, each aggregate can have
multiple key-value pairs, and the same key-value pair can be assigned to
multiple aggregate. This information can be used in the scheduler to
enable advanced scheduling, to set up xen hypervisor resources pools or to
define logical groups for migration.
"""

    PROPERTIES = (NAME, AVAILABILITY_ZONE, HOSTS, METADATA) = (
        "name",
        "availability_zone",
        "hosts",
        "metadata",
    )

    properties_schema = {
        NAME: Schema(Schema.STRING, "Name for the aggregate.", required=True, update_allowed=True),
        AVAILABILITY_ZONE: Schema(
            Schema.STRING, "Name for the availability zone.", update_allowed=True
        ),
        HOSTS: Schema(
            Schema.LIST,
            "List of hosts to join aggregate.",
            update_allowed=True,
            schema=Schema(Schema.STRING, constraints=[constraints.CustomConstraint("nova.host")]),
        ),
        METADATA: Schema(
            Schema.MAP,
            "Arbitrary key/value metadata to store information for aggregate.",
            update_allowed=True,
            default={},
        ),
    }

    def handle_create(self) -> None:
        made = self._call(
            "POST",
            self.api_path,
            {
                "aggregate": {
                    "name": self.properties[self.NAME],
                    "availability_zone": self.properties[self.AVAILABILITY_ZONE],
                }
            },
        )[self.api_key]
        self.resource_id_set(made["id"])
        metadata = self.properties[self.METADATA] or {}
        if metadata:
            self._action("set_metadata", {"metadata": metadata})
        for host in self.properties[self.HOSTS] or []:
            self._action("add_host", {"host": host})

    def handle_update(self, json_snippet: Any, tmpl_diff: Any, prop_diff: Any) -> None:
        if not prop_diff:
            return
        changes = dict(prop_diff)
        if self.HOSTS in changes:
            wanted = set(changes.pop(self.HOSTS) or [])
            present = set(self._aggregate()["hosts"] or [])
            for host in wanted - present:
                self._action("add_host", {"host": host})
            for host in present - wanted:
                self._action("remove_host", {"host": host})
        if self.METADATA in changes:
            metadata = changes.pop(self.METADATA)
            if metadata:
                self._action("set_metadata", {"metadata": metadata})
        if changes:
            self._call("PUT", f"{self.api_path}/{self.resource_id}", {"aggregate": changes})

    def handle_delete(self) -> None:
        if self.resource_id is None:
            return
        with self.nova().ignore_not_found():
            # Nova refuses to delete an aggregate that still has hosts.
            for host in self._aggregate()["hosts"] or []:
                self._action("remove_host", {"host": host})
        with self.nova().ignore_not_found():
            self._call("DELETE", f"{self.api_path}/{self.resource_id}")

    def _aggregate(self) -> dict[str, Any]:
        return dict(self._call("GET", f"{self.api_path}/{self.resource_id}")[self.api_key])

    def _action(self, action: str, arguments: dict[str, Any]) -> None:
        self._call("POST", f"{self.api_path}/{self.resource_id}/action", {action: arguments})

    def _call(self, method: str, path: str, body: Any = None) -> Any:
        return self.nova().request(method, path, body, microversion=BASE_MICROVERSION)


RESOURCE_CLASSES = {"OS::Nova::HostAggregate": HostAggregate}
