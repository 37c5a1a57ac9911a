"""Cinder's client plugin: the block storage v3 API in Heat's shapes, with cinderclient's
errors.

Requests go through openstacksdk's ``block_storage`` proxy (its session and endpoint) at
the highest microversion both the server and cinderclient know, as Heat's cinderclient
negotiates; answers are the API's dicts, failures cinderclient's exceptions
(``cinder_errors``) so that they read as they do in Heat. The custom constraints'
getters (``get_volume``...) raise Heat's EntityNotFound for what is not there.
"""

from __future__ import annotations

from typing import Any

from keel_app.clients import cinder_errors
from keel_app.clients.client_plugin import ClientPlugin
from keel_app.common import exception

# The newest microversion python-cinderclient speaks (Heat asks for no more).
CLIENT_MAX_MICROVERSION = (3, 71)
# Volumes in use may be extended from this microversion on.
EXTEND_IN_USE = (3, 42)


class CinderClientPlugin(ClientPlugin):
    name = "cinder"
    service_types = ("volumev3", "block-storage")
    proxy = "block_storage"

    def __init__(self, clients: Any) -> None:
        super().__init__(clients)
        self._microversion: tuple[int, int] | None = None

    # Calls

    def microversion(self) -> tuple[int, int]:
        if self._microversion is None:
            server = self.client().get_endpoint_data().max_microversion
            self._microversion = min(tuple(server), CLIENT_MAX_MICROVERSION) if server else (3, 0)
        return self._microversion

    def is_version_supported(self, version: tuple[int, int]) -> bool:
        return self.microversion() >= version

    def request(
        self, method: str, path: str, body: Any = None, params: dict[str, Any] | None = None
    ) -> Any:
        """One call of Cinder's API; the answer's body, or cinderclient's error."""
        major, minor = self.microversion()
        response = self.client().request(
            "/" + path.lstrip("/"),
            method,
            json=body,
            params=params,
            raise_exc=False,
            headers={
                "Accept": "application/json",
                "OpenStack-API-Version": f"volume {major}.{minor}",
            },
        )
        try:
            answer = response.json() if response.content else None
        except ValueError:
            answer = None
        if response.status_code >= 400:
            raise cinder_errors.from_response(
                response.status_code,
                response.reason,
                answer,
                response.headers.get("x-compute-request-id"),
            )
        return answer

    def action(self, volume_id: str, name: str, arguments: Any = None) -> Any:
        """One of the volume actions (``os-extend``, ``os-retype``...)."""
        return self.request("POST", f"volumes/{volume_id}/action", {name: arguments})

    # Volumes

    def show_volume(self, volume_id: str) -> dict[str, Any]:
        return dict(self.request("GET", f"volumes/{volume_id}")["volume"])

    def create_volume(self, fields: dict[str, Any]) -> dict[str, Any]:
        body: dict[str, Any] = {"volume": fields}
        hints = fields.pop("scheduler_hints", None)
        if hints:
            body["OS-SCH-HNT:scheduler_hints"] = hints
        return dict(self.request("POST", "volumes", body)["volume"])

    def update_volume(self, volume_id: str, fields: dict[str, Any]) -> None:
        self.request("PUT", f"volumes/{volume_id}", {"volume": fields})

    def delete_volume(self, volume_id: str) -> None:
        self.request("DELETE", f"volumes/{volume_id}")

    def set_volume_metadata(self, volume_id: str, metadata: dict[str, str]) -> None:
        """Replace all the volume's metadata."""
        self.request("PUT", f"volumes/{volume_id}/metadata", {"metadata": metadata})

    def restore_backup(self, backup_id: str, volume_id: str | None = None) -> dict[str, Any]:
        body = {"restore": {"volume_id": volume_id} if volume_id else {}}
        return dict(self.request("POST", f"backups/{backup_id}/restore", body)["restore"])

    def create_backup(self, volume_id: str, force: bool = False) -> dict[str, Any]:
        body = {"backup": {"volume_id": volume_id, "force": force, "incremental": False}}
        return dict(self.request("POST", "backups", body)["backup"])

    def show_backup(self, backup_id: str) -> dict[str, Any]:
        return dict(self.request("GET", f"backups/{backup_id}")["backup"])

    def delete_backup(self, backup_id: str) -> None:
        self.request("DELETE", f"backups/{backup_id}")

    # What an error means, for cinderclient's classes

    def is_not_found(self, error: BaseException) -> bool:  # type: ignore[override]
        return isinstance(error, cinder_errors.NotFound)

    def is_over_limit(self, error: BaseException) -> bool:  # type: ignore[override]
        return isinstance(error, cinder_errors.OverLimit)

    def is_conflict(self, error: BaseException) -> bool:  # type: ignore[override]
        return isinstance(error, cinder_errors.ClientException) and error.code == 409

    def is_client_exception(self, error: BaseException) -> bool:
        return isinstance(
            error, (cinder_errors.ClientException, cinder_errors.NoUniqueMatch)
        ) or super().is_client_exception(error)

    # The constraints' getters

    def get_volume(self, volume: str) -> dict[str, Any]:
        try:
            return self.show_volume(volume)
        except cinder_errors.NotFound:
            raise exception.EntityNotFound(entity="Volume", name=volume) from None

    def get_volume_snapshot(self, snapshot: str) -> dict[str, Any]:
        try:
            return dict(self.request("GET", f"snapshots/{snapshot}")["snapshot"])
        except cinder_errors.NotFound:
            raise exception.EntityNotFound(entity="VolumeSnapshot", name=snapshot) from None

    def get_volume_backup(self, backup: str) -> dict[str, Any]:
        try:
            return self.show_backup(backup)
        except cinder_errors.NotFound:
            raise exception.EntityNotFound(entity="Volume backup", name=backup) from None

    def get_volume_type(self, volume_type: str) -> str:
        """The id of the volume type named or identified by ``volume_type``."""
        for found in self.request("GET", "types")["volume_types"]:
            if volume_type in (found["name"], found["id"]):
                return str(found["id"])
        raise exception.EntityNotFound(entity="VolumeType", name=volume_type)

    def get_qos_specs(self, qos_specs: str) -> str:
        """The id of the QoS specs identified (else named) by ``qos_specs``."""
        try:
            return str(self.request("GET", f"qos-specs/{qos_specs}")["qos_specs"]["id"])
        except cinder_errors.NotFound:
            pass
        named = [
            found
            for found in self.request("GET", "qos-specs")["qos_specs"]
            if found.get("name") == qos_specs
        ]
        if not named:
            raise cinder_errors.NotFound(
                404, f"No QoSSpecs matching {{'name': {qos_specs!r}}}."
            ) from None
        if len(named) > 1:
            raise cinder_errors.NoUniqueMatch()
        return str(named[0]["id"])

    # Attachments

    def check_detach_volume_complete(self, volume_id: str, server_id: str | None = None) -> bool:
        try:
            volume = self.show_volume(volume_id)
        except cinder_errors.NotFound:
            return True
        servers = [found["server_id"] for found in volume["attachments"] if "server_id" in found]
        if server_id and server_id not in servers:
            return True
        status = volume["status"]
        if status in ("in-use", "detaching", "reserved"):
            return False
        if status not in ("available", "deleting"):
            raise exception.ResourceUnknownStatus(
                resource_status=status, result="Volume detachment failed"
            )
        return True

    def check_attach_volume_complete(self, volume_id: str) -> bool:
        status = self.show_volume(volume_id)["status"]
        if status in ("available", "attaching", "reserved"):
            return False
        if status != "in-use":
            raise exception.ResourceUnknownStatus(
                resource_status=status, result="Volume attachment failed"
            )
        return True

    # Extensions

    def has_extension(self, alias: str) -> bool:
        if not hasattr(self, "_extensions"):
            answer = self.request("GET", "extensions")
            self._extensions = {extension.get("alias") for extension in answer["extensions"]}
        return alias in self._extensions
