"""OS::Cinder::Quota: a project's Cinder quotas, set (never below what the project uses
already) and changed in place; deleting it gives the project Cinder's defaults back."""

from __future__ import annotations

from typing import Any

from keel_app.engine import constraints
from keel_app.engine.environment.support import SupportStatus
from keel_app.engine.properties import Schema
from keel_app.resources.cinder.base import CinderResource
from keel_app.resources.project_quota import ProjectQuota


def quota_schema(description: str, version: str | None = None) -> Schema:
    return Schema(
        Schema.INTEGER,
        f"{description} Setting the value to -1 removes the limit.",
        constraints=[constraints.Range(min=-1)],
        update_allowed=True,
        **({"support_status": SupportStatus(version=version)} if version else {}),
    )


class CinderQuota(ProjectQuota, CinderResource):
    support_status = SupportStatus(version="7.0.0")
    required_service_extension = "os-quota-sets"
    entity = "quotas"
    type_description = """\
A resource for creating cinder quotas.

Cinder Quota is used to manage operational limits for projects. Currently,
this resource can manage Cinder's gigabytes, snapshots, and volumes
quotas.

Note that default cinder security policy usage of this resource
is limited to being used by administrators only. Administrators should be
careful to create only one Cinder Quota resource per project, otherwise
it will be hard for them to manage the quota properly.
"""

    PROPERTIES = (PROJECT, GIGABYTES, VOLUMES, BACKUPS, BACKUPS_GIGABYTES, SNAPSHOTS) = (
        "project",
        "gigabytes",
        "volumes",
        "backups",
        "backup_gigabytes",
        "snapshots",
    )

    properties_schema = {
        PROJECT: Schema(
            Schema.STRING,
            "OpenStack Keystone Project.",
            required=True,
            constraints=[constraints.CustomConstraint("keystone.project")],
        ),
        GIGABYTES: quota_schema("Quota for the amount of disk space (in Gigabytes)."),
        VOLUMES: quota_schema("Quota for the number of volumes."),
        BACKUPS: quota_schema("Quota for the number of backups.", "16.0.0"),
        BACKUPS_GIGABYTES: quota_schema(
            "Quota for the amount of backups disk space (in Gigabytes).", "16.0.0"
        ),
        SNAPSHOTS: quota_schema("Quota for the number of snapshots."),
    }

    def unspecified_limits(self) -> tuple[str, ...]:
        return (self.GIGABYTES, self.SNAPSHOTS, self.VOLUMES, self.BACKUPS, self.BACKUPS_GIGABYTES)

    def handle_delete(self) -> None:
        self.cinder().request("DELETE", f"os-quota-sets/{self.properties[self.PROJECT]}")

    def _set_quota(self, properties: Any) -> None:
        project = properties[self.PROJECT]
        quotas = {
            key: value
            for key, value in properties.items()
            if key != self.PROJECT and value is not None
        }
        # Checked here, not at validation: the project may come from another resource.
        self._check_usage(project, {key: value for key, value in quotas.items() if value != -1})
        self.cinder().request("PUT", f"os-quota-sets/{project}", {"quota_set": quotas})

    def _listing(self, collection: str, project: str) -> list[dict[str, Any]]:
        answer = self.cinder().request(
            "GET", f"{collection}/detail", params={"all_tenants": True, "project_id": project}
        )
        return list(answer[collection])

    def _check_usage(self, project: str, limits: dict[str, int]) -> None:
        listings: dict[str, list[dict[str, Any]]] = {}

        def listing(collection: str) -> list[dict[str, Any]]:
            if collection not in listings:
                listings[collection] = self._listing(collection, project)
            return listings[collection]

        usage = {
            self.GIGABYTES: lambda: sum(
                found["size"] for found in listing("volumes") + listing("snapshots")
            ),
            self.VOLUMES: lambda: len(listing("volumes")),
            self.BACKUPS: lambda: len(listing("backups")),
            self.BACKUPS_GIGABYTES: lambda: sum(found["size"] for found in listing("backups")),
            self.SNAPSHOTS: lambda: len(listing("snapshots")),
        }
        for name in (
            self.GIGABYTES, self.VOLUMES, self.BACKUPS, self.BACKUPS_GIGABYTES, self.SNAPSHOTS,
        ):  # fmt: skip
            if name in limits:
                used = usage[name]()
                if limits[name] < used:
                    raise ValueError(
                        f"Invalid quota {name} value(s): {limits[name]}. Can not be less than "
                        f"the current usage value(s): {used}."
                    )


RESOURCE_CLASSES = {"OS::Cinder::Quota": CinderQuota}
