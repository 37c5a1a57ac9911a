"""OS::Cinder::Volume: a Cinder volume.

Made empty of a size, or from an image, a snapshot, another volume or (restored from) a
backup; complete once Cinder reports it available, when its read-only flag is set.
Name, description, metadata and type change in place; a larger size extends it and a new
backup restores it, both followed to their end by ``check_update_complete``. Deleted
once Cinder no longer knows it; with the ``Snapshot`` deletion policy a backup is made
first. Every step's progress is a plain dict, carried from poll to poll.
"""

from __future__ import annotations

import json
from typing import Any

from keel_app.common import exception
from keel_app.engine.properties import TranslationRule
from keel_app.resources.cinder import server_volumes
from keel_app.resources.cinder.volume_schema import CinderVolumeSchema
from keel_app.resources.scheduler_hints import with_stack_hints

CREATING = ("creating", "restoring-backup", "downloading")
# Volumes in use may be extended from this microversion on (cinder.EXTEND_IN_USE).
EXTEND_IN_USE = (3, 42)


class CinderVolume(CinderVolumeSchema):
    type_description = """\
A resource that implements Cinder volumes.

Cinder volume is a storage in the form of block devices. It can be used,
for example, for providing storage to instance. Volume supports creation
from snapshot, backup or image. Also volume can be created only by size.
"""

    def translation_rules(self, properties: Any) -> list[TranslationRule]:
        return [
            TranslationRule(
                properties, TranslationRule.REPLACE, [self.IMAGE], value_path=[self.IMAGE_REF]
            )
        ]

    # Validation

    def validate(self) -> Any:
        result = super().validate()
        if result is not None:
            return result
        if self.properties.get(self.IMAGE) and self.properties.get(self.IMAGE_REF):
            raise exception.ResourcePropertyConflict(self.IMAGE, self.IMAGE_REF)
        if not self.properties.get(self.BACKUP_ID):
            self._validate_create_sources()
        return None

    def _validate_create_sources(self) -> None:
        sources = [
            name
            for name in (self.SNAPSHOT_ID, self.SOURCE_VOLID, self.IMAGE, self.IMAGE_REF)
            if self.properties.get(name)
        ]
        sized_by_source = [s for s in sources if s in (self.SNAPSHOT_ID, self.SOURCE_VOLID)]
        size = self.properties.get(self.SIZE)
        if size is None and (len(sized_by_source) != 1 or len(sources) != 1):
            raise exception.StackValidationFailed(
                message=(
                    'If neither "backup_id" nor "size" is provided, one and only one of '
                    '"source_volid", "snapshot_id" must be specified, but currently '
                    f"specified options: {sources}."
                )
            )
        if size and len(sources) > 1:
            raise exception.StackValidationFailed(
                message=(
                    'If "size" is provided, only one of "image", "imageRef", '
                    '"source_volid", "snapshot_id" can be specified, but currently '
                    f"specified options: {sources}."
                )
            )

    # Creating

    def _name(self) -> str | None:
        return self.properties[self.NAME] or self.physical_resource_name()

    def _description(self) -> str | None:
        return self.properties[self.DESCRIPTION]  # type: ignore[no-any-return]

    def _name_and_description(
        self, name: str | None = None, description: str | None = None
    ) -> dict[str, Any]:
        return {"name": name or self._name(), "description": description or self._description()}

    def _create_arguments(self) -> dict[str, Any]:
        arguments: dict[str, Any] = {
            "size": self.properties[self.SIZE],
            "availability_zone": self.properties[self.AVAILABILITY_ZONE] or None,
        }
        hints = with_stack_hints(self, self.properties[self.CINDER_SCHEDULER_HINTS])
        if hints:
            arguments["scheduler_hints"] = hints
        if self.properties[self.IMAGE]:
            arguments["imageRef"] = self.client_plugin("glance").find_image_by_name_or_id(
                self.properties[self.IMAGE]
            )
        elif self.properties[self.IMAGE_REF]:
            arguments["imageRef"] = self.properties[self.IMAGE_REF]
        for name in (self.SNAPSHOT_ID, self.VOLUME_TYPE, self.SOURCE_VOLID, self.METADATA):
            if self.properties[name] is not None:
                arguments[name] = self.properties[name]
        return arguments

    def handle_create(self) -> str:
        cinder = self.cinder()
        backup_id = self.properties.get(self.BACKUP_ID)
        if backup_id is not None:
            volume_id = str(cinder.restore_backup(backup_id)["volume_id"])
            cinder.update_volume(volume_id, self._name_and_description())
        else:
            volume_id = str(
                cinder.create_volume({**self._create_arguments(), **self._name_and_description()})[
                    "id"
                ]
            )
        self.resource_id_set(volume_id)
        return volume_id

    def check_create_complete(self, volume_id: str) -> bool:
        volume = self.cinder().show_volume(volume_id)
        status = volume["status"]
        if status in CREATING:
            return False
        if status == "error":
            raise exception.ResourceInError(resource_status=status)
        if status != "available":
            raise exception.ResourceUnknownStatus(
                resource_status=status, result="Volume create failed"
            )
        self._store_config_defaults(volume)
        self._update_read_only(self.properties[self.READ_ONLY])
        return True

    def _store_config_defaults(self, volume: dict[str, Any]) -> None:
        # Cinder's configured default type is what the volume got: kept to compare with.
        if volume.get("volume_type") is not None:
            self.data_set(self.VOLUME_TYPE, volume["volume_type"])
        else:
            self.data_delete(self.VOLUME_TYPE)

    def _update_read_only(self, read_only: bool | None) -> bool:
        if read_only is not None:
            self.cinder().action(
                self.resource_id, "os-update_readonly_flag", {"readonly": read_only}
            )
        return True

    # Updating

    def handle_update(self, json_snippet: Any, tmpl_diff: Any, prop_diff: Any) -> dict[str, Any]:
        """Make the in-place changes; what must be waited for is the returned progress."""
        cinder = self.cinder()
        progress: dict[str, Any] = {}
        volume: dict[str, Any] | None = None

        def current() -> dict[str, Any]:
            nonlocal volume
            if volume is None:
                volume = cinder.show_volume(self.resource_id)
            return volume

        if self.NAME in prop_diff or self.DESCRIPTION in prop_diff:
            current()
            cinder.update_volume(
                self.resource_id,
                self._name_and_description(
                    prop_diff.get(self.NAME) or self.properties[self.NAME],
                    prop_diff.get(self.DESCRIPTION) or self.properties[self.DESCRIPTION],
                ),
            )
        if self.METADATA in prop_diff:
            current()
            cinder.set_volume_metadata(self.resource_id, prop_diff[self.METADATA])
        if self.VOLUME_TYPE in prop_diff:
            current()
            cinder.action(
                self.resource_id,
                "os-retype",
                {"new_type": prop_diff[self.VOLUME_TYPE], "migration_policy": "never"},
            )
        if self.READ_ONLY in prop_diff:
            progress["access"] = {"read_only": prop_diff[self.READ_ONLY], "called": False}
            self._detach_and_reattach(current(), progress)
        if self.BACKUP_ID in prop_diff:
            progress["restore"] = {
                "backup_id": prop_diff[self.BACKUP_ID],
                "called": False,
                "complete": False,
            }
            self._detach_and_reattach(current(), progress)
        if self.SIZE in prop_diff:
            new_size = prop_diff[self.SIZE]
            if new_size < current()["size"]:
                raise exception.NotSupported(feature="Shrinking volume")
            if new_size > current()["size"]:
                progress["resize"] = {
                    "size": new_size,
                    "pre_check": False,
                    "called": False,
                    "complete": False,
                }
                if not cinder.is_version_supported(EXTEND_IN_USE):
                    self._detach_and_reattach(current(), progress)
        return progress

    @staticmethod
    def _detach_and_reattach(volume: dict[str, Any], progress: dict[str, Any]) -> None:
        # A volume attached to a server is detached for the change and attached again.
        if not volume["attachments"]:
            return
        attachment = volume["attachments"][0]
        progress["detach"] = {
            "server_id": attachment["server_id"],
            "attachment_id": attachment["id"],
            "called": False,
            "cinder_complete": False,
            "nova_complete": False,
        }
        progress["attach"] = {
            "server_id": attachment["server_id"],
            "device": attachment.get("device"),
            "called": False,
            "complete": False,
        }

    def check_update_complete(self, progress: dict[str, Any]) -> bool:
        detach, restore = progress.get("detach"), progress.get("restore")
        resize, access, attach = (
            progress.get("resize"),
            progress.get("access"),
            progress.get("attach"),
        )
        if detach and not detach["nova_complete"]:
            self._step_detach(detach)
            return False
        if restore:
            if not restore["called"]:
                restore["called"] = self._restore_backup(restore["backup_id"])
                return False
            if not restore["complete"]:
                restore["complete"] = self._check_restore_complete()
                return bool(restore["complete"]) and not resize
        if resize:
            if not resize["pre_check"]:
                resize["pre_check"] = self._ready_to_extend()
                if not resize["pre_check"]:
                    return False
            if not resize["called"]:
                resize["called"] = self._extend(resize["size"])
                return False
            if not resize["complete"]:
                resize["complete"] = self._check_extend_complete()
                return bool(resize["complete"]) and not attach
        if access and not access["called"]:
            access["called"] = self._update_read_only(access["read_only"])
            return False
        if attach:
            return self._step_attach(attach)
        return True

    def _extend_statuses(self) -> tuple[str, ...]:
        if self.cinder().is_version_supported(EXTEND_IN_USE):
            return ("available", "in-use")
        return ("available",)

    def _ready_to_extend(self) -> bool:
        return self.cinder().show_volume(self.resource_id)["status"] in self._extend_statuses()

    def _extend(self, size: int) -> bool:
        cinder = self.cinder()
        try:
            cinder.action(self.resource_id, "os-extend", {"new_size": size})
        except Exception as error:
            if cinder.is_client_exception(error):
                raise exception.Error(
                    message=f"Failed to extend volume {self.resource_id} - {error}"
                ) from error
            raise
        return True

    def _check_extend_complete(self) -> bool:
        status = self.cinder().show_volume(self.resource_id)["status"]
        if status == "extending":
            return False
        if status not in self._extend_statuses():
            raise exception.ResourceUnknownStatus(
                resource_status=status, result="Volume resize failed"
            )
        return True

    def _restore_backup(self, backup_id: str) -> bool:
        cinder = self.cinder()
        try:
            cinder.restore_backup(backup_id, self.resource_id)
        except Exception as error:
            if cinder.is_client_exception(error):
                raise exception.Error(
                    message=(
                        f"Failed to restore volume {self.resource_id} from backup "
                        f"{backup_id} - {error}"
                    )
                ) from error
            raise
        return True

    def _check_restore_complete(self) -> bool:
        status = self.cinder().show_volume(self.resource_id)["status"]
        if status == "restoring-backup":
            return False
        if status != "available":
            raise exception.ResourceUnknownStatus(
                resource_status=status, result="Volume backup restore failed"
            )
        return True

    def _step_detach(self, detach: dict[str, Any]) -> None:
        nova = self.client_plugin("nova")
        if not detach["called"]:
            detach["called"] = server_volumes.detach_volume(
                nova, detach["server_id"], detach["attachment_id"]
            )
        elif not detach["cinder_complete"]:
            detach["cinder_complete"] = self.cinder().check_detach_volume_complete(
                self.resource_id, detach["server_id"]
            )
        else:
            detach["nova_complete"] = server_volumes.check_detach_volume_complete(
                nova, detach["server_id"], detach["attachment_id"]
            )

    def _step_attach(self, attach: dict[str, Any]) -> bool:
        if not attach["called"]:
            attach["called"] = server_volumes.attach_volume(
                self.client_plugin("nova"), attach["server_id"], self.resource_id, attach["device"]
            )
            return False
        if not attach["complete"]:
            attach["complete"] = self.cinder().check_attach_volume_complete(self.resource_id)
        return bool(attach["complete"])

    # Reading it back

    def _show_resource(self) -> Any:
        return self.cinder().show_volume(self.resource_id)

    def _resolve_attribute(self, name: str) -> Any:
        if self.resource_id is None:
            return None
        volume = self._show_resource()
        if name == self.METADATA_ATTR:
            return json.dumps(volume.get("metadata"))
        if name == self.METADATA_VALUES_ATTR:
            return volume.get("metadata")
        if name == self.DISPLAY_NAME_ATTR:
            return volume.get("name")
        if name == self.DISPLAY_DESCRIPTION_ATTR:
            return volume.get("description")
        if name == self.ATTACHMENTS_LIST:
            return volume.get("attachments")
        # Heat reads the client's attribute and shows it as text, None included.
        return str(volume.get(name))

    def needs_replace_failed(self) -> bool:
        if not self.resource_id:
            return True
        with self.cinder().ignore_not_found():
            return self._show_resource()["status"] in ("error", "deleting")
        return True

    def handle_check(self) -> None:
        status = self._show_resource()["status"]
        if status not in ("available", "in-use"):
            raise exception.Error(
                message=f"'status': expected '['available', 'in-use']', got '{status}'"
            )

    # Stack snapshots: a backup of the volume

    def handle_snapshot(self) -> str:
        backup_id = str(self.cinder().create_backup(self.resource_id, force=True)["id"])
        self.data_set("backup_id", backup_id)
        return backup_id

    def check_snapshot_complete(self, backup_id: str) -> bool:
        backup = self.cinder().show_backup(backup_id)
        if backup["status"] == "creating":
            return False
        if backup["status"] == "available":
            return True
        raise exception.Error(message=backup.get("fail_reason"))

    def handle_delete_snapshot(self, snapshot: dict[str, Any]) -> str | None:
        backup_id = snapshot["resource_data"].get("backup_id")
        if not backup_id:
            return None
        try:
            self.cinder().delete_backup(backup_id)
        except Exception as error:
            if not self.cinder().is_not_found(error):
                raise
            return None
        return str(backup_id)

    def check_delete_snapshot_complete(self, backup_id: str | None) -> bool:
        if not backup_id:
            return True
        try:
            self.cinder().show_backup(backup_id)
        except Exception as error:
            if not self.cinder().is_not_found(error):
                raise
            return True
        return False

    def handle_restore(self, definition: Any, restore_data: dict[str, Any]) -> Any:
        # The size is kept: a volume grown since the snapshot goes back to its old size.
        ignored = (self.IMAGE_REF, self.IMAGE, self.SOURCE_VOLID)
        properties = {
            key: value
            for key, value in self.properties.data.items()
            if key not in ignored and value is not None
        }
        properties[self.BACKUP_ID] = restore_data["resource_data"]["backup_id"]
        return definition.freeze(properties=properties)


RESOURCE_CLASSES = {"OS::Cinder::Volume": CinderVolume}
