"""A server's deployments as its metadata: the configs deployed to it, and the copy kept in
the server resource's ``rsrc_metadata`` under ``deployments``.

Heat also pushes that metadata to a Swift TempURL or a Zaqar queue named in the server's
resource data; both transports are absent in OpenKeel, so a server reads its deployments
from ``GET /software_deployments/metadata/<server_id>`` (or the resource's metadata).
"""

from __future__ import annotations

import random
import time
from typing import Any

import sqlalchemy as sa

from keel_app.common import exception
from keel_app.engine.service.software_configs import format_software_config
from keel_app.models import Resource, Stack
from keel_app.models.api.resources import update_resource
from keel_app.models.database import Database
from keel_app.models.software import SoftwareConfig, SoftwareDeployment

DELETE = "DELETE"
# Heat retries a metadata write that lost a race eleven times in all.
WRITE_ATTEMPTS = 11
MAX_RETRY_WAIT = 2.0


def visible_deployments(database: Database, context: Any, server_id: str | None) -> list[Any]:
    """(deployment, config) rows the caller sees, oldest first, of one server if named."""
    statement = (
        sa.select(SoftwareDeployment, SoftwareConfig)
        .join(SoftwareConfig, SoftwareDeployment.config_id == SoftwareConfig.id)
        .order_by(SoftwareDeployment.created_at, SoftwareDeployment.id)
    )
    if not context.is_admin:
        statement = statement.where(
            sa.or_(
                SoftwareDeployment.tenant == context.project_id,
                SoftwareDeployment.stack_user_project_id == context.project_id,
            )
        )
    if server_id:
        statement = statement.where(SoftwareDeployment.server_id == server_id)
    with database.transaction() as session:
        return [tuple(found) for found in session.execute(statement).all()]


def deployed_configs(database: Database, context: Any, server_id: str | None) -> list[Any]:
    """The configs deployed to a server, in the order of their names."""
    if not server_id:
        raise ValueError("server_id must be specified")
    configs = [config for _, config in visible_deployments(database, context, server_id)]
    # Heat sorts by name alone and fails on a nameless config beside a named one; a
    # nameless config goes first here (docs/divergences.md).
    configs.sort(key=lambda config: (config.name is not None, config.name or ""))
    return [format_software_config(config) for config in configs]


def _server_resource(database: Database, context: Any, server_id: str) -> Resource | None:
    statement = (
        sa.select(Resource, Stack)
        .join(Stack, Resource.stack_id == Stack.id)
        .where(Resource.physical_resource_id == server_id)
        .order_by(Resource.id)
    )
    with database.transaction() as session:
        for resource, stack in session.execute(statement).all():
            if context.is_admin or context.project_id in (
                stack.tenant,
                stack.stack_user_project_id,
            ):
                return resource
    return None


def push_server_metadata(database: Database, context: Any, server_id: str) -> None:
    """Write the server's deployed configs into its resource's metadata, if Heat knows it as
    a resource that is not being deleted; a write that lost a race is made again."""
    for attempt in range(WRITE_ATTEMPTS):
        resource = _server_resource(database, context, server_id)
        if resource is None or resource.action == DELETE:
            return
        metadata = dict(resource.rsrc_metadata or {})
        metadata["deployments"] = deployed_configs(database, context, server_id)
        if update_resource(database, resource.id, {"rsrc_metadata": metadata}, resource.atomic_key):
            return
        if attempt + 1 < WRITE_ATTEMPTS:
            time.sleep(random.uniform(0, min(MAX_RETRY_WAIT, 0.05 * 2**attempt)))
    raise exception.ConcurrentTransaction(action=f"deployments of server {server_id}")
