"""What Heat's Cinder resource types share: the client plugin, and a volume's deletion.

A volume is deleted in polled steps: with the ``Snapshot`` deletion policy a backup is
made and waited for first, then the delete is asked for (not of a volume in use, and
once only if Cinder is deleting it already) and the volume polled until Cinder no longer
knows it. The progress is a dict carried from poll to poll.
"""

from __future__ import annotations

from typing import Any

from keel_app.common import exception
from keel_app.engine.resource import Resource
from keel_app.engine.template.resource_definition import ResourceDefinition


class CinderResource(Resource):
    default_client_name = "cinder"

    def cinder(self) -> Any:
        """The Cinder client plugin (``request``, ``show_volume``...)."""
        return self.client_plugin()


def deletion_progress(done: bool = False, backup: bool = False) -> dict[str, Any]:
    return {
        "backup": {"called": done or not backup, "complete": done or not backup},
        "delete": {"called": done, "complete": done},
        "backup_id": None,
    }


class VolumeDeletion(CinderResource):
    """Deleting a volume, after a backup of it when the deletion policy says Snapshot."""

    def validate_deletion_policy(self, policy: Any) -> None:  # type: ignore[override]
        # Called on the resource: heat.conf's [volumes] backups_enabled is in its stack's
        # settings (Heat reads the option here).
        super().validate_deletion_policy(policy)
        if policy == ResourceDefinition.SNAPSHOT and not self.stack.settings.volume_backups_enabled:
            raise exception.StackValidationFailed(
                message=f'"{policy}" deletion policy not supported - volume backup service '
                "is not enabled."
            )

    def handle_delete(self) -> dict[str, Any]:
        return deletion_progress(done=self.resource_id is None)

    def handle_snapshot_delete(self, state: tuple[str, str]) -> dict[str, Any]:
        # What failed to be made or changed is not worth a backup.
        backup = state not in (("CREATE", "FAILED"), ("UPDATE", "FAILED"))
        return deletion_progress(backup=backup)

    def check_delete_complete(self, progress: dict[str, Any]) -> bool:
        backup, delete = progress["backup"], progress["delete"]
        if not backup["called"]:
            progress["backup_id"] = self._create_backup()
            backup["called"] = True
            backup["complete"] = progress["backup_id"] is None
            return False
        if not backup["complete"]:
            backup["complete"] = self._check_backup_complete(progress["backup_id"])
            return False
        if not delete["called"]:
            delete["complete"] = self._delete_volume()
            delete["called"] = True
            return False
        if not delete["complete"]:
            try:
                volume = self.cinder().show_volume(self.resource_id)
            except Exception as error:
                if not self.cinder().is_not_found(error):
                    raise
                delete["complete"] = True
                return True
            if volume["status"].lower() == "error_deleting":
                raise exception.ResourceInError(
                    status_reason="delete", resource_status=volume["status"]
                )
            return False
        return True

    def _create_backup(self) -> str | None:
        with self.cinder().ignore_not_found():
            return str(self.cinder().create_backup(self.resource_id)["id"])
        return None  # the volume is gone: nothing to back up

    def _check_backup_complete(self, backup_id: str) -> bool:
        status = self.cinder().show_backup(backup_id)["status"]
        if status == "creating":
            return False
        if status == "available":
            return True
        raise exception.ResourceUnknownStatus(resource_status=status, result="Volume backup failed")

    def _delete_volume(self) -> bool:
        """Ask for the delete; True when the volume is gone already."""
        cinder = self.cinder()
        try:
            volume = cinder.show_volume(self.resource_id)
            if volume["status"] == "in-use":
                raise exception.Error(message="Volume in use")
            if volume["status"] != "deleting":
                cinder.delete_volume(self.resource_id)
        except Exception as error:
            if not cinder.is_not_found(error):
                raise
            return True
        return False
