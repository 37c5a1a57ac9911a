"""The software deployment calls of the RPC surface: a config deployed to a server.

A deployment is seen by its project and by its stack-user project (the server's
credentials), and by admins. Creating, deleting, or moving a deployment to another
config rewrites the server's metadata (``server_metadata``). A signal from the server
records its outputs and settles an ``IN_PROGRESS`` deployment as ``COMPLETE`` or
``FAILED``; ``check_software_deployment`` waits for that.

A deployment signalled through a Swift TempURL (its derived config's
``deploy_signal_transport`` is TEMP_URL_SIGNAL) is looked at in Swift whenever it is
shown or checked while in progress: an object written since the deployment last changed
is its signal, taken with the object's time as the deployment's. One signalled through
Zaqar cannot be: there is no Zaqar, and the look fails as Heat's does without one.
"""

from __future__ import annotations

import datetime
import json
import logging
import time
import uuid
from typing import Any
from urllib.parse import urlparse

import sqlalchemy as sa
from keystoneauth1 import exceptions as keystone_errors

from keel_app.clients import engine_clients
from keel_app.common import exception
from keel_app.engine.api_format import isotime
from keel_app.engine.service.server_metadata import (
    deployed_configs,
    push_server_metadata,
    visible_deployments,
)
from keel_app.engine.service.software_configs import show_software_config
from keel_app.engine.settings import EngineSettings
from keel_app.models.base import utcnow
from keel_app.models.database import Database
from keel_app.models.software import SoftwareConfig, SoftwareDeployment

LOG = logging.getLogger(__name__)

IN_PROGRESS, COMPLETE, FAILED = "IN_PROGRESS", "COMPLETE", "FAILED"
STATUS_CODE = "deploy_status_code"
# The outputs every deployment has, whatever its config declares.
STANDARD_OUTPUTS = ("deploy_stdout", "deploy_stderr", STATUS_CODE)
MAX_PROJECT_ID_LENGTH = 64
CHECK_INTERVAL = 1.0


class Timeout(Exception):
    """``check_software_deployment`` ran out of time with the deployment still in progress."""


def format_software_deployment(
    deployment: SoftwareDeployment, config_id: str | None = None
) -> dict[str, Any]:
    answer: dict[str, Any] = {
        "id": deployment.id,
        "server_id": deployment.server_id,
        "input_values": deployment.input_values,
        "output_values": deployment.output_values,
        "action": deployment.action,
        "status": deployment.status,
        "status_reason": deployment.status_reason,
        "config_id": config_id or deployment.config_id,
        "creation_time": isotime(deployment.created_at),
    }
    if deployment.updated_at:
        answer["updated_time"] = isotime(deployment.updated_at)
    return answer


def visible_deployment(database: Database, context: Any, deployment_id: str) -> SoftwareDeployment:
    with database.transaction() as session:
        row = session.get(SoftwareDeployment, deployment_id) if deployment_id else None
    if (
        row is not None
        and not context.is_admin
        and context.project_id not in (row.tenant, row.stack_user_project_id)
    ):
        row = None
    if row is None:
        raise exception.NotFound(f"Deployment with id {deployment_id} not found")
    return row


def _check_config(
    context: Any, settings: EngineSettings, database: Database, config_id: str | None
) -> None:
    """NotFound unless the caller may deploy the config."""
    if config_id is None:
        raise exception.NotFound("Software config with id None not found")
    show_software_config(context, settings, database, None, config_id=config_id)


def _declared_outputs(database: Database, config_id: str) -> list[Any]:
    # The server's own credentials signal: its config is read whoever owns it.
    with database.transaction() as session:
        config = session.get(SoftwareConfig, config_id)
    stored = (config.config if config is not None else None) or {}
    return list(stored.get("outputs") or [])


def parse_isotime(text: str) -> datetime.datetime:
    """An ISO 8601 time as naive UTC, as Heat stores a signal's time."""
    try:
        moment = datetime.datetime.fromisoformat(text)
    except (TypeError, ValueError):
        raise ValueError(f"Unable to parse date string {text!r}") from None
    if moment.tzinfo is not None:
        moment = moment.astimezone(datetime.UTC).replace(tzinfo=None)
    return moment


# The calls


def list_software_deployments(
    context: Any,
    settings: EngineSettings,
    database: Database,
    dispatcher: Any,
    *,
    server_id: str | None = None,
) -> list[dict[str, Any]]:
    return [
        format_software_deployment(deployment)
        for deployment, _ in visible_deployments(database, context, server_id)
    ]


def metadata_software_deployments(
    context: Any,
    settings: EngineSettings,
    database: Database,
    dispatcher: Any,
    *,
    server_id: str,
) -> list[dict[str, Any]]:
    return deployed_configs(database, context, server_id)


def _signal_inputs(database: Database, config_id: str | None) -> dict[str, Any]:
    """The values of the deployment's (derived) config's inputs, by name."""
    with database.transaction() as session:
        config = session.get(SoftwareConfig, config_id) if config_id else None
    stored = (config.config if config is not None else None) or {}
    return {item.get("name"): item.get("value") for item in stored.get("inputs") or []}


def _refreshed_deployment(
    context: Any, settings: EngineSettings, database: Database, deployment_id: str
) -> SoftwareDeployment:
    """The deployment, after taking a signal left in Swift for it if there is one."""
    deployment = visible_deployment(database, context, deployment_id)
    if deployment.status != IN_PROGRESS:
        return deployment
    inputs = _signal_inputs(database, deployment.config_id)
    transport = inputs.get("deploy_signal_transport")
    if transport == "TEMP_URL_SIGNAL":
        return _refresh_from_swift(
            context, settings, database, deployment, inputs.get("deploy_signal_id")
        )
    if transport == "ZAQAR_SIGNAL":
        # Heat's Zaqar client finds no endpoint in the catalog.
        raise keystone_errors.EndpointNotFound()
    return deployment


def _refresh_from_swift(
    context: Any,
    settings: EngineSettings,
    database: Database,
    deployment: SoftwareDeployment,
    signal_url: Any,
) -> SoftwareDeployment:
    container, object_name = urlparse(str(signal_url)).path.split("/")[-2:]
    engine_clients.attach(context, settings)
    clients = getattr(context, "clients", None)
    if clients is None:
        raise exception.ClientNotAvailable(client_name="swift")
    swift = clients.client_plugin("swift")
    try:
        headers = swift.head_object(container, object_name)
    except Exception as error:
        # Swift may not show a new object at once: not there yet is no signal yet.
        if swift.is_not_found(error):
            LOG.info("Signal object not found: %s %s", container, object_name)
            return deployment
        raise
    last_modified = swift.parse_last_modified(headers.get("last-modified"))
    previous = deployment.updated_at
    if previous is not None and last_modified is not None and last_modified <= previous:
        return deployment  # written before the deployment last changed: not for it
    try:
        _, body = swift.get_object(container, object_name)
    except Exception as error:
        if swift.is_not_found(error):
            LOG.info("Signal object not found: %s %s", container, object_name)
            return deployment
        raise
    if body:
        signal_software_deployment(
            context,
            settings,
            database,
            None,
            deployment_id=deployment.id,
            details=json.loads(body),
            updated_at=last_modified.isoformat() if last_modified is not None else None,
        )
        # A signal is read once. Swift's Last-Modified is a whole second, rounded up: an
        # update made within the second of this signal would take it for its own.
        with swift.ignore_not_found():
            swift.delete_object(container, object_name)
    return visible_deployment(database, context, deployment.id)


def show_software_deployment(
    context: Any,
    settings: EngineSettings,
    database: Database,
    dispatcher: Any,
    *,
    deployment_id: str,
) -> dict[str, Any]:
    return format_software_deployment(
        _refreshed_deployment(context, settings, database, deployment_id)
    )


def check_software_deployment(
    context: Any,
    settings: EngineSettings,
    database: Database,
    dispatcher: Any,
    *,
    deployment_id: str,
    timeout: float | None,
) -> dict[str, Any]:
    """The deployment once it is no longer in progress, looked at once a second."""
    deadline = None if timeout is None else time.monotonic() + float(timeout)
    while True:
        deployment = _refreshed_deployment(context, settings, database, deployment_id)
        if deployment.status != IN_PROGRESS:
            return format_software_deployment(deployment)
        if deadline is not None and time.monotonic() + CHECK_INTERVAL > deadline:
            raise Timeout("Task _check Timed out")
        time.sleep(CHECK_INTERVAL)


def _check_project_limit(context: Any, settings: EngineSettings, database: Database) -> None:
    """Heat's quota of deployments a project may hold (-1: none), not applied to admins.

    As Heat counts them, a project holds the deployments it made and those of servers
    whose stack-user project it is.
    """
    limit = settings.max_software_deployments_per_tenant
    if context.is_admin or limit < 0:
        return
    statement = (
        sa.select(sa.func.count())
        .select_from(SoftwareDeployment)
        .where(
            sa.or_(
                SoftwareDeployment.tenant == context.project_id,
                SoftwareDeployment.stack_user_project_id == context.project_id,
            )
        )
    )
    with database.transaction() as session:
        counted = session.scalar(statement) or 0
    if counted >= limit:
        raise exception.RequestLimitExceeded(
            message=(
                f"You have reached the maximum software deployments per tenant, {limit}. "
                "Please delete some deployments."
            )
        )


def create_software_deployment(
    context: Any,
    settings: EngineSettings,
    database: Database,
    dispatcher: Any,
    *,
    server_id: str,
    config_id: str | None = None,
    input_values: Any = None,
    action: str | None = "INIT",
    status: str | None = "COMPLETE",
    status_reason: Any = "",
    stack_user_project_id: str | None = None,
    deployment_id: str | None = None,
) -> dict[str, Any]:
    _check_project_limit(context, settings, database)
    if stack_user_project_id is not None and len(stack_user_project_id) > MAX_PROJECT_ID_LENGTH:
        raise exception.Invalid(
            reason='"stack_user_project_id" should be no more than 64 characters'
        )
    _check_config(context, settings, database, config_id)
    if not server_id:
        # Heat lets the insert fail on the NOT NULL column (docs/divergences.md).
        raise exception.Invalid(reason='"server_id" must be specified')
    row = SoftwareDeployment(
        id=deployment_id or str(uuid.uuid4()),
        config_id=config_id,
        server_id=server_id,
        input_values=input_values,
        tenant=context.project_id,
        stack_user_project_id=stack_user_project_id,
        action=action,
        status=status,
        # Heat stores the reason's text, "None" for none.
        status_reason=str(status_reason),
    )
    with database.transaction() as session:
        session.add(row)
    created = visible_deployment(database, context, row.id)
    push_server_metadata(database, context, server_id, settings.metadata_put_timeout)
    return format_software_deployment(created)


def update_software_deployment(
    context: Any,
    settings: EngineSettings,
    database: Database,
    dispatcher: Any,
    *,
    deployment_id: str,
    config_id: str | None = None,
    input_values: Any = None,
    output_values: Any = None,
    action: str | None = None,
    status: str | None = None,
    status_reason: Any = None,
    updated_at: str | None = None,
) -> dict[str, Any]:
    """Change what is given (empty values count as not given), stamped with ``updated_at``
    or now. The answer names the config the deployment had before, as Heat's does."""
    stamp = parse_isotime(updated_at) if updated_at else utcnow()
    changes: dict[str, Any] = {}
    if config_id:
        _check_config(context, settings, database, config_id)
        changes["config_id"] = config_id
    if input_values:
        changes["input_values"] = input_values
    if output_values:
        changes["output_values"] = output_values
    if action:
        changes["action"] = action
    if status:
        changes["status"] = status
    if status_reason:
        changes["status_reason"] = str(status_reason)
    changes["updated_at"] = stamp
    previous = visible_deployment(database, context, deployment_id)
    with database.transaction() as session:
        row = session.get(SoftwareDeployment, previous.id)
        if row is None:
            raise exception.NotFound(f"Deployment with id {deployment_id} not found")
        for name, value in changes.items():
            setattr(row, name, value)
    updated = visible_deployment(database, context, deployment_id)
    if config_id:
        push_server_metadata(database, context, updated.server_id, settings.metadata_put_timeout)
    return format_software_deployment(updated, config_id=previous.config_id)


def delete_software_deployment(
    context: Any,
    settings: EngineSettings,
    database: Database,
    dispatcher: Any,
    *,
    deployment_id: str,
) -> None:
    deployment = visible_deployment(database, context, deployment_id)
    with database.transaction() as session:
        row = session.get(SoftwareDeployment, deployment.id)
        if row is not None:
            session.delete(row)
    push_server_metadata(database, context, deployment.server_id, settings.metadata_put_timeout)


def signal_software_deployment(
    context: Any,
    settings: EngineSettings,
    database: Database,
    dispatcher: Any,
    *,
    deployment_id: str,
    details: Any,
    updated_at: str | None = None,
) -> str | None:
    """Record a server's outputs for an in-progress deployment; a sentence saying how it
    went (the signal's event reason), or None when the deployment was not waiting."""
    if not deployment_id:
        raise ValueError("deployment_id must be specified")
    deployment = visible_deployment(database, context, deployment_id)
    if deployment.status != IN_PROGRESS:
        return None
    details = details or {}
    output_values = dict(deployment.output_values or {})
    status = None
    failures: dict[str, Any] = {}
    status_code = details.get(STATUS_CODE)
    if status_code and str(status_code) != "0":
        status = FAILED
        failures[STATUS_CODE] = f"Deployment exited with non-zero status code: {status_code}"
        reason = f"deployment {deployment_id} failed ({status_code})"
    else:
        reason = f"deployment {deployment_id} succeeded"
    for output in _declared_outputs(database, deployment.config_id):
        name = output["name"]
        if name in details:
            output_values[name] = details[name]
            if output.get("error_output", False):
                status = FAILED
                failures[name] = details[name]
                reason = f"deployment {deployment_id} failed"
    for name in STANDARD_OUTPUTS:
        output_values[name] = details.get(name)
    if status == FAILED:
        status_reason = ", ".join(f"{name} : {value}" for name, value in failures.items())
    else:
        status = COMPLETE
        status_reason = "Outputs received"
    update_software_deployment(
        context,
        settings,
        database,
        dispatcher,
        deployment_id=deployment_id,
        output_values=output_values,
        status=status,
        status_reason=status_reason,
        updated_at=updated_at,
    )
    return reason
