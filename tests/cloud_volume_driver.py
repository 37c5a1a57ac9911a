"""A Cinder volume driver for the test cloud, which has no disks, LVM or iSCSI: each
volume (and each snapshot) is a file in a directory under the cloud's home, holding the
bytes written into it (not padded to the volume's size). It runs inside cinder-volume
(tests/cloud_files.py copies it beside cinder's configuration, on the daemons' path);
nothing imports it here.

Cinder's fake logging driver makes every call a no-op; this one, built on it, keeps the
data where a volume's life moves it:

- from an image: ``clone_image`` makes the file and ``copy_image_to_volume`` downloads
  the image's bytes into it with cinder's image_utils (Cinder's own download path runs
  ``qemu-img`` as root first, which this machine has neither of);
- to an image (upload-to-image): the file's bytes are sent to Glance as a raw image;
- clones, snapshots and volumes from snapshots are copies of files;
- attaching hands out a ``local`` connection (os-brick's LocalConnector: a path, no
  root), which is how cinder-backup reads a volume to back it up and writes one to
  restore it.

Root without sudo: this machine runs the cloud as root but has no ``sudo``, and Cinder's
root helper is ``sudo cinder-rootwrap`` whatever cinder.conf says. Nothing here runs a
command. cinder-backup asks os-brick for the host's connector properties, which starts
os-brick's privsep daemon: cinder.conf's ``[privsep_osbrick] helper_command`` names the
plain ``privsep-helper`` of the cloud's virtual environment (already root, it needs no
sudo).

A volume whose metadata holds ``keel_test_cloud: unattachable`` refuses every
connection, so that a test can make a backup of it fail.
"""

import os
import shutil

from cinder import exception
from cinder.image import image_utils
from cinder.tests import fake_driver
from cinder.volume import volume_utils
from oslo_config import cfg

OPTIONS = [
    cfg.StrOpt("keel_volumes_directory", help="Where the volumes' and snapshots' files live."),
]
UNATTACHABLE = ("keel_test_cloud", "unattachable")


class FileVolumeDriver(fake_driver.FakeLoggingVolumeDriver):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.configuration.append_config_values(OPTIONS)

    def _path(self, name: str) -> str:
        directory = self.configuration.keel_volumes_directory
        os.makedirs(directory, exist_ok=True)
        return os.path.join(directory, name)

    def local_path(self, volume, vg=None) -> str:
        return self._path(volume["name"])

    # Volumes and snapshots

    def create_volume(self, volume):
        model_update = super().create_volume(volume)
        open(self.local_path(volume), "wb").close()
        return model_update

    def delete_volume(self, volume):
        _remove(self.local_path(volume))

    def create_cloned_volume(self, volume, src_vref):
        shutil.copyfile(self.local_path(src_vref), self.local_path(volume))

    def create_snapshot(self, snapshot):
        shutil.copyfile(self._path(snapshot["volume_name"]), self._path(snapshot["name"]))

    def delete_snapshot(self, snapshot):
        _remove(self._path(snapshot["name"]))

    def create_volume_from_snapshot(self, volume, snapshot):
        shutil.copyfile(self._path(snapshot["name"]), self.local_path(volume))

    # Images

    def clone_image(self, context, volume, image_location, image_meta, image_service):
        # Taken as the way to make a volume from an image: Cinder's fallback inspects the
        # downloaded image with qemu-img first.
        model_update = self.create_volume(volume) or {}
        self.copy_image_to_volume(context, volume, image_service, image_meta["id"])
        return model_update, True

    def copy_image_to_volume(self, context, volume, image_service, image_id, disable_sparse=False):
        image_utils.fetch(context, image_service, image_id, self.local_path(volume), None, None)

    def copy_volume_to_image(self, context, volume, image_service, image_meta):
        # A raw image is the file's bytes as they are; other formats would need qemu-img.
        volume_utils.upload_volume(
            context,
            image_service,
            image_meta,
            self.local_path(volume),
            volume,
            run_as_root=False,
        )

    # Connections: a path on this host

    def validate_connector(self, connector):
        # A path needs nothing of the host (the iSCSI target would want an initiator).
        pass

    def initialize_connection(self, volume, connector):
        if _unattachable(volume):
            raise exception.VolumeBackendAPIException(
                data=f"volume {volume['id']} is marked {':'.join(UNATTACHABLE)}"
            )
        connection = super().initialize_connection(volume, connector)
        connection["driver_volume_type"] = "local"
        connection["data"]["device_path"] = self.local_path(volume)
        return connection

    def initialize_connection_snapshot(self, snapshot, connector):
        return {
            "driver_volume_type": "local",
            "data": {"device_path": self._path(snapshot["name"])},
        }


def _unattachable(volume) -> bool:
    key, value = UNATTACHABLE
    metadata = getattr(volume, "metadata", None) or {}
    return metadata.get(key) == value


def _remove(path: str) -> None:
    try:
        os.remove(path)
    except FileNotFoundError:
        pass
