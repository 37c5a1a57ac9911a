"""A Server's snapshots: an image of the server, made on a stack snapshot or before the
server is deleted under the ``Snapshot`` deletion policy, as Heat makes them.

A stack snapshot stores the image's id as ``snapshot_image_id`` and is complete once the
image is active and Nova has finished uploading it; restoring boots the server from that
image. Deleting under the ``Snapshot`` policy first waits for the image, then deletes the
server as a plain delete does.
"""

from __future__ import annotations

from typing import Any

from keel_app.common import exception

# Nova's task states while an image of the server is being made.
UPLOADING_TASK_STATES = frozenset(
    {"image_uploading", "image_snapshot_pending", "image_snapshot", "image_pending_upload"}
)


class ServerSnapshots:
    """Mixed into the Server."""

    def create_image(self) -> str:
        server: Any = self
        answer = server.nova().server_action(
            server.resource_id, "createImage", {"name": server.physical_resource_name()}
        )
        return str(answer["image_id"])

    def image_status(self, image_id: str) -> str:
        server: Any = self
        return str(server.client_plugin("glance").get_image(image_id)["status"]).lower()

    # The Snapshot deletion policy

    def handle_snapshot_delete(self, state: Any) -> dict[str, Any] | None:
        server: Any = self
        if state[1] != "FAILED" and server.resource_id:
            return {
                "server_id": server.resource_id,
                "image_id": self.create_image(),
                "image_complete": False,
            }
        return server.handle_delete()  # type: ignore[no-any-return]

    def image_before_delete_complete(self, deleting: dict[str, Any]) -> bool:
        """Whether the image made before the delete is there; the delete starts then."""
        server: Any = self
        if deleting.get("image_complete", True):
            return True
        status = self.image_status(deleting["image_id"])
        if status in ("error", "deleted"):
            raise exception.Error(status)
        if status == "active":
            deleting["image_complete"] = True
            # Nothing left to wait for when the server was gone already.
            if not server.handle_delete():
                deleting["server_gone"] = True
        return False

    # Stack snapshots

    def handle_snapshot(self) -> str:
        server: Any = self
        image_id = self.create_image()
        server.data_set("snapshot_image_id", image_id)
        return image_id

    def check_snapshot_complete(self, image_id: str) -> bool:
        server: Any = self
        status = self.image_status(image_id)
        if status == "active":
            found = server.nova().get_server(server.resource_id)
            return found.get("OS-EXT-STS:task_state") not in UPLOADING_TASK_STATES
        if status in ("error", "deleted"):
            raise exception.Error(status)
        return False

    def handle_delete_snapshot(self, snapshot: Any) -> None:
        server: Any = self
        image_id = snapshot["resource_data"].get("snapshot_image_id")
        glance = server.client_plugin("glance")
        with glance.ignore_not_found():
            glance.request("DELETE", f"images/{image_id}")

    def handle_restore(self, definition: Any, restore_data: Any) -> Any:
        """The definition booting from the snapshot's image, unset values left out."""
        server: Any = self
        image_id = restore_data["resource_data"]["snapshot_image_id"]
        properties = {
            key: value for key, value in server.properties.data.items() if value is not None
        }
        for key in ("block_device_mapping", "block_device_mapping_v2", "networks"):
            if properties.get(key) is not None:
                properties[key] = [
                    {name: value for name, value in entry.items() if value is not None}
                    for entry in properties[key]
                ]
        properties["image"] = image_id
        return definition.freeze(properties=properties)
