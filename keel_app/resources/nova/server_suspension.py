"""Suspending and resuming a Nova server, as Heat's OS::Nova::Server and
AWS::EC2::Instance both do it: a server already in the wanted state is left alone, and
each is complete once Nova reports SUSPENDED (or ACTIVE). The two types differ only in
the noun of their messages ("server" or "instance")."""

from __future__ import annotations

from typing import Any

from keel_app.common import exception


class ServerSuspension:
    """Mixed into a resource that is a Nova server (its ``nova()`` and ``resource_id``)."""

    # The word for the server in messages, and the resource's name in "... is not active".
    server_noun = "server"
    active_name = "Server"

    def handle_suspend(self) -> str:
        server = self.server_for_action("suspend")
        nova = self.nova()  # type: ignore[attr-defined]
        if nova.get_status(server) != "SUSPENDED":
            nova.server_action(server["id"], "suspend")
        return str(server["id"])

    def check_suspend_complete(self, server_id: str) -> bool:
        nova = self.nova()  # type: ignore[attr-defined]
        server = nova.fetch_server(server_id)
        if server is None:
            return False
        status = nova.get_status(server)
        if status in nova.deferred_server_statuses | {"ACTIVE"}:
            return bool(status == "SUSPENDED")
        raise exception.ResourceUnknownStatus(
            result=f"Suspend of {self.server_noun} {server['name']} failed",
            resource_status=status,
        )

    def handle_resume(self) -> str:
        server = self.server_for_action("resume")
        nova = self.nova()  # type: ignore[attr-defined]
        if nova.get_status(server) != "ACTIVE":
            nova.server_action(server["id"], "resume")
        return str(server["id"])

    def check_resume_complete(self, server_id: str) -> bool:
        return bool(self.nova().check_active(server_id, self.active_name))  # type: ignore[attr-defined]

    def server_for_action(self, verb: str) -> dict[str, Any]:
        resource: Any = self
        if resource.resource_id is None:
            raise exception.Error(f"Cannot {verb} {resource.name}, resource_id not set")
        nova = resource.nova()
        try:
            return dict(nova.request("GET", f"servers/{resource.resource_id}")["server"])
        except Exception as error:
            if nova.is_not_found(error):
                raise exception.NotFound(
                    f"Failed to find {self.server_noun} {resource.resource_id}"
                ) from None
            raise
