"""A server's deployments as its metadata: the configs deployed to it, and the copy kept in
the server resource's ``rsrc_metadata`` under ``deployments``.

A server polling a Swift TempURL (software_config_transport POLL_TEMP_URL) has the PUT
TempURL of its object in resource_data ``metadata_put_url``: the metadata is PUT there
after each write, then the row's atomic key bumped once more, so that two pushes that
raced are both made again in order. A failed PUT is logged, as Heat logs it. There is no
Zaqar here: a ``metadata_queue_id`` (which only a Heat engine could have made) is not
posted to.
"""

from __future__ import annotations

import json
import logging
import random
import time
from typing import Any

import requests
import sqlalchemy as sa

from keel_app.common import exception
from keel_app.engine.service.software_configs import format_software_config
from keel_app.models import Resource, ResourceData, Stack
from keel_app.models.api.resources import next_atomic_key, update_resource
from keel_app.models.database import Database
from keel_app.models.software import SoftwareConfig, SoftwareDeployment

LOG = logging.getLogger(__name__)

DELETE = "DELETE"
METADATA_PUT_URL = "metadata_put_url"
# [DEFAULT] metadata_put_timeout's default: how long a PUT of the metadata may take.
METADATA_PUT_TIMEOUT = 60
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


def _metadata_put_url(database: Database, resource_id: int) -> str | None:
    statement = sa.select(ResourceData.value).where(
        ResourceData.resource_id == resource_id, ResourceData.key == METADATA_PUT_URL
    )
    with database.transaction() as session:
        return session.scalars(statement).first()


def _put_metadata(server_id: str, put_url: str, metadata: Any, timeout: float) -> None:
    try:
        response = requests.put(put_url, json.dumps(metadata), timeout=timeout)
        response.raise_for_status()
    except requests.RequestException as error:
        LOG.error("Failed to deliver deployment data to server %s: %s", server_id, error)


def _push_once(database: Database, context: Any, server_id: str, put_timeout: float) -> bool:
    """One attempt; False when another writer came first."""
    resource = _server_resource(database, context, server_id)
    if resource is None or resource.action == DELETE:
        return True
    metadata = dict(resource.rsrc_metadata or {})
    metadata["deployments"] = deployed_configs(database, context, server_id)
    put_url = _metadata_put_url(database, resource.id)
    if not update_resource(database, resource.id, {"rsrc_metadata": metadata}, resource.atomic_key):
        return False
    if put_url is None:
        return True
    _put_metadata(server_id, put_url, metadata, put_timeout)
    # A push that wrote meanwhile has its PUT overwritten by ours: it must go again.
    return update_resource(database, resource.id, {}, next_atomic_key(resource.atomic_key))


def push_server_metadata(
    database: Database,
    context: Any,
    server_id: str,
    put_timeout: float = METADATA_PUT_TIMEOUT,
) -> None:
    """Write the server's deployed configs into its resource's metadata, if Heat knows it as
    a resource that is not being deleted, and PUT it to the server's TempURL if it has one;
    a write that lost a race is made again."""
    for attempt in range(WRITE_ATTEMPTS):
        if _push_once(database, context, server_id, put_timeout):
            return
        if attempt + 1 < WRITE_ATTEMPTS:
            time.sleep(random.uniform(0, min(MAX_RETRY_WAIT, 0.05 * 2**attempt)))
    raise exception.ConcurrentTransaction(action=f"deployments of server {server_id}")
