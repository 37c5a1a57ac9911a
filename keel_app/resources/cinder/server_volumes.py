"""A server's volume attachments, through Nova's compute API (os-volume_attachments), as
Heat's nova client plugin makes and removes them for the volume types.

Each function takes the nova client plugin (its ``request`` and error predicates). A
conflict (the server or volume busy) is "not done yet", for the caller to try again on
its next poll.
"""

from __future__ import annotations

from typing import Any

from keel_app.common import exception


def attach_volume(nova: Any, server_id: str, volume_id: str, device: str | None) -> str | bool:
    """The attachment's id, or False when Nova is busy and it is to be tried again."""
    body = {"volumeAttachment": {"volumeId": volume_id, "device": device}}
    try:
        answer = nova.request("POST", f"servers/{server_id}/os-volume_attachments", body)
    except Exception as error:
        if nova.is_conflict(error):
            return False
        if nova.is_client_exception(error):
            raise exception.Error(
                message=f"Failed to attach volume {volume_id} to server {server_id} - {error}"
            ) from error
        raise
    attachment = answer["volumeAttachment"]
    # From microversion 2.89 on the attachment is named by its volume only.
    return str(attachment.get("id") or attachment["volumeId"])


def detach_volume(nova: Any, server_id: str, attachment_id: str) -> bool:
    """True once the detach is asked for (or nothing is attached); False when Nova is busy."""
    try:
        nova.request("DELETE", f"servers/{server_id}/os-volume_attachments/{attachment_id}")
    except Exception as error:
        if nova.is_conflict(error):
            return False
        if not (nova.is_not_found(error) or nova.is_bad_request(error)):
            raise exception.Error(
                message=f"Could not detach attachment {attachment_id} from server {server_id}."
            ) from error
    return True


def check_detach_volume_complete(nova: Any, server_id: str, attachment_id: str) -> bool:
    """Whether Nova, too, no longer has the attachment (it may lag behind Cinder)."""
    try:
        nova.request("GET", f"servers/{server_id}/os-volume_attachments/{attachment_id}")
    except Exception as error:
        if not nova.is_not_found(error):
            raise
        return True
    return False
