"""OS::Cinder::VolumeAttachment: a volume attached to a server through Nova.

Complete once Cinder reports the volume in use. Any change detaches the volume, waits
until both Cinder and Nova see it detached, and attaches the (new) volume to the (new)
server; the delete detaches it and waits the same way. The physical id is Nova's
attachment id. Every step's progress is a plain dict, carried from poll to poll.
"""

from __future__ import annotations

from typing import Any

from keel_app.engine import constraints
from keel_app.engine.properties import Schema
from keel_app.resources.cinder import server_volumes
from keel_app.resources.cinder.base import CinderResource


def detach_progress(server_id: str, volume_id: str, attachment_id: str) -> dict[str, Any]:
    return {
        "server_id": server_id,
        "volume_id": volume_id,
        "attachment_id": attachment_id,
        "called": False,
        "cinder_complete": False,
        "nova_complete": False,
    }


class CinderVolumeAttachment(CinderResource):
    type_description = """\
Resource for associating volume to instance.

Resource for associating existing volume to instance. Also, the location
where the volume is exposed on the instance can be specified.
"""

    PROPERTIES = (INSTANCE_ID, VOLUME_ID, DEVICE) = ("instance_uuid", "volume_id", "mountpoint")

    properties_schema = {
        INSTANCE_ID: Schema(
            Schema.STRING,
            "The ID of the server to which the volume attaches.",
            required=True,
            update_allowed=True,
        ),
        VOLUME_ID: Schema(
            Schema.STRING,
            "The ID of the volume to be attached.",
            required=True,
            update_allowed=True,
            constraints=[constraints.CustomConstraint("cinder.volume")],
        ),
        DEVICE: Schema(
            Schema.STRING,
            "The location where the volume is exposed on the instance. This assignment may "
            "not be honored and it is advised that the path /dev/disk/by-id/virtio-<VolumeId> "
            "be used instead.",
            update_allowed=True,
        ),
    }

    def nova(self) -> Any:
        return self.client_plugin("nova")

    # Creating

    def handle_create(self) -> dict[str, Any]:
        attach = {
            "server_id": self.properties[self.INSTANCE_ID],
            "volume_id": self.properties[self.VOLUME_ID],
            "device": self.properties[self.DEVICE] or None,
            "called": False,
            "complete": False,
        }
        self._step_attach(attach)
        return attach

    def check_create_complete(self, attach: dict[str, Any]) -> bool:
        return self._step_attach(attach)

    def _step_attach(self, attach: dict[str, Any]) -> bool:
        """One step of an attachment: asked for (again, while Nova is busy), then
        followed until Cinder has the volume in use."""
        if not attach["called"]:
            attachment_id = server_volumes.attach_volume(
                self.nova(), attach["server_id"], attach["volume_id"], attach["device"]
            )
            if attachment_id:
                self.resource_id_set(attachment_id)
                attach["called"] = True
            return False
        if not attach["complete"]:
            attach["complete"] = self.cinder().check_attach_volume_complete(attach["volume_id"])
        return bool(attach["complete"])

    def _step_detach(self, detach: dict[str, Any]) -> bool:
        """One step of a detachment; True once Cinder and Nova both have it detached."""
        if not detach["called"]:
            detach["called"] = server_volumes.detach_volume(
                self.nova(), detach["server_id"], detach["attachment_id"]
            )
            return False
        if not detach["cinder_complete"]:
            detach["cinder_complete"] = self.cinder().check_detach_volume_complete(
                detach["volume_id"], detach["server_id"]
            )
            return False
        if not detach["nova_complete"]:
            detach["nova_complete"] = server_volumes.check_detach_volume_complete(
                self.nova(), detach["server_id"], detach["attachment_id"]
            )
        return bool(detach["nova_complete"])

    # Updating: detached, then attached as the new properties say

    def handle_update(self, json_snippet: Any, tmpl_diff: Any, prop_diff: Any) -> dict[str, Any]:
        if not prop_diff:
            return {}
        detach = detach_progress(
            self.properties[self.INSTANCE_ID], self.properties[self.VOLUME_ID], self.resource_id
        )
        self._step_detach(detach)
        device = self.properties[self.DEVICE] or None
        if self.DEVICE in prop_diff:
            device = prop_diff[self.DEVICE] or None
        attach = {
            "server_id": prop_diff.get(self.INSTANCE_ID, self.properties[self.INSTANCE_ID]),
            "volume_id": prop_diff.get(self.VOLUME_ID, self.properties[self.VOLUME_ID]),
            "device": device,
            "called": False,
            "complete": False,
        }
        return {"detach": detach, "attach": attach}

    def check_update_complete(self, progress: dict[str, Any]) -> bool:
        if not progress:
            return True
        if not progress["detach"]["nova_complete"]:
            self._step_detach(progress["detach"])
            return False
        return self._step_attach(progress["attach"])

    # Deleting

    def handle_delete(self) -> dict[str, Any] | None:
        if not self.resource_id:
            return None
        detach = detach_progress(
            self.properties[self.INSTANCE_ID], self.properties[self.VOLUME_ID], self.resource_id
        )
        self._step_detach(detach)
        return detach

    def check_delete_complete(self, detach: dict[str, Any] | None) -> bool:
        return detach is None or self._step_detach(detach)


RESOURCE_CLASSES = {"OS::Cinder::VolumeAttachment": CinderVolumeAttachment}
