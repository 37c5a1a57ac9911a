"""The software config calls of the RPC surface: immutable configs, stored per project.

A config row keeps ``{"inputs", "outputs", "options", "config"}`` in its ``config``
column. ``create_software_config`` checks each input and output against the schemata of
``OS::Heat::SoftwareConfig`` (an input's default against its declared type) and stores
them as Heat does: unset keys left out, ``replace_on_change`` only when true. A config
of another project is "not found" unless the caller is an admin; one that a deployment
uses cannot be deleted. Listings are newest first and page after a ``marker`` config id.
"""

from __future__ import annotations

import collections.abc
import copy
from typing import Any

import sqlalchemy as sa

from keel_app.common import exception
from keel_app.engine.api_format import isotime
from keel_app.engine.properties import Properties
from keel_app.engine.properties import Schema as PropertySchema
from keel_app.engine.settings import EngineSettings
from keel_app.engine.template.parameters import Schema as ParameterSchema
from keel_app.models.database import Database
from keel_app.models.software import SoftwareConfig, SoftwareDeployment
from keel_app.resources.heat import software_config as declarations

SOFTWARE_CONFIG_KEYS = (
    ID,
    NAME,
    GROUP,
    CONFIG,
    INPUTS,
    OUTPUTS,
    OPTIONS,
    CREATION_TIME,
    PROJECT,
) = ("id", "name", "group", "config", "inputs", "outputs", "options", "creation_time", "project")
# What an input may carry beside its schema: the value a deployment gives it.
_NO_VALUE = object()


def format_software_config(
    row: SoftwareConfig, detail: bool = True, include_project: bool = False
) -> dict[str, Any]:
    answer: dict[str, Any] = {
        ID: row.id,
        NAME: row.name,
        GROUP: row.group,
        CREATION_TIME: isotime(row.created_at),
    }
    if detail:
        stored = row.config or {}
        answer[CONFIG] = stored.get(CONFIG)
        answer[INPUTS] = stored.get(INPUTS)
        answer[OUTPUTS] = stored.get(OUTPUTS)
        answer[OPTIONS] = stored.get(OPTIONS)
    if include_project:
        answer[PROJECT] = row.tenant
    return answer


# Inputs and outputs


def check_io_schema_list(io_configs: Any) -> None:
    """A list of mappings, or TypeError."""
    if not isinstance(io_configs, collections.abc.Sequence) or isinstance(
        io_configs, collections.abc.Mapping | str
    ):
        raise TypeError("Software Config I/O Schema must be in a list")
    if not all(isinstance(item, collections.abc.Mapping) for item in io_configs):
        raise TypeError("Software Config I/O Schema must be a dict")


def _checked(schema: dict[str, Any], config: dict[str, Any]) -> Properties:
    properties = Properties(schema, config)
    try:
        properties.validate()
    except exception.StackValidationFailed as error:
        raise ValueError(str(error)) from None
    return properties


def input_config(config: collections.abc.Mapping[str, Any]) -> dict[str, Any]:
    """An input as stored: checked, unset keys dropped."""
    config = dict(config)
    value = config.pop(declarations.VALUE, _NO_VALUE)
    schema = declarations.input_config_schema
    input_type = config.get(declarations.TYPE)
    default = config.get(declarations.DEFAULT, _NO_VALUE)
    # An empty default was once the way to give none, whatever the type.
    if input_type is not None and default is not _NO_VALUE:
        if not (default == "" and input_type != declarations.STRING_TYPE):
            schema = copy.copy(schema)
            parameter = ParameterSchema.from_dict("config", {"Type": input_type})
            schema[declarations.DEFAULT] = PropertySchema.from_parameter(parameter)
    properties = _checked(schema, config)
    stored = {key: item for key, item in properties.items() if item is not None}
    if not properties[declarations.REPLACE_ON_CHANGE]:
        del stored[declarations.REPLACE_ON_CHANGE]
    if value is not _NO_VALUE:
        stored[declarations.VALUE] = value
    return stored


def output_config(config: collections.abc.Mapping[str, Any]) -> dict[str, Any]:
    """An output as stored: checked, unset keys dropped."""
    properties = _checked(declarations.output_config_schema, dict(config))
    return {key: item for key, item in properties.items() if item is not None}


# The calls


def _visible(database: Database, context: Any, config_id: str) -> SoftwareConfig:
    with database.transaction() as session:
        row = session.get(SoftwareConfig, config_id)
    if row is not None and not context.is_admin and row.tenant != context.project_id:
        row = None
    if row is None:
        raise exception.NotFound(f"Software config with id {config_id} not found")
    return row


def show_software_config(
    context: Any,
    settings: EngineSettings,
    database: Database,
    dispatcher: Any,
    *,
    config_id: str,
) -> dict[str, Any]:
    return format_software_config(_visible(database, context, config_id))


def list_software_configs(
    context: Any,
    settings: EngineSettings,
    database: Database,
    dispatcher: Any,
    *,
    limit: int | None = None,
    marker: str | None = None,
) -> list[dict[str, Any]]:
    """The configs the caller sees, newest first; a project each when the caller is admin."""
    statement = sa.select(SoftwareConfig)
    if not context.is_admin:
        statement = statement.where(SoftwareConfig.tenant == context.project_id)
    with database.transaction() as session:
        after = session.get(SoftwareConfig, marker) if marker else None
        if after is not None:
            statement = statement.where(
                sa.or_(
                    SoftwareConfig.created_at < after.created_at,
                    sa.and_(
                        SoftwareConfig.created_at == after.created_at,
                        SoftwareConfig.id < after.id,
                    ),
                )
            )
        statement = statement.order_by(SoftwareConfig.created_at.desc(), SoftwareConfig.id.desc())
        if limit is not None:
            statement = statement.limit(int(limit))
        found = list(session.scalars(statement).all())
    return [
        format_software_config(row, detail=False, include_project=bool(context.is_admin))
        for row in found
    ]


def _check_project_limit(context: Any, settings: EngineSettings, database: Database) -> None:
    """Heat's quota of configs a project may hold (-1: none), not applied to admins."""
    limit = settings.max_software_configs_per_tenant
    if context.is_admin or limit < 0:
        return
    statement = (
        sa.select(sa.func.count())
        .select_from(SoftwareConfig)
        .where(SoftwareConfig.tenant == context.project_id)
    )
    with database.transaction() as session:
        counted = session.scalar(statement) or 0
    if counted >= limit:
        raise exception.RequestLimitExceeded(
            message=(
                f"You have reached the maximum software configs per tenant, {limit}. "
                "Please delete some configs."
            )
        )


def create_software_config(
    context: Any,
    settings: EngineSettings,
    database: Database,
    dispatcher: Any,
    *,
    group: str | None,
    name: str | None,
    config: Any,
    inputs: list[Any] | None = None,
    outputs: list[Any] | None = None,
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    _check_project_limit(context, settings, database)
    inputs = [] if inputs is None else inputs
    outputs = [] if outputs is None else outputs
    check_io_schema_list(inputs)
    stored_inputs = [input_config(item) for item in inputs]
    check_io_schema_list(outputs)
    stored_outputs = [output_config(item) for item in outputs]
    row = SoftwareConfig(
        group=group,
        name=name,
        config={
            INPUTS: stored_inputs,
            OUTPUTS: stored_outputs,
            OPTIONS: {} if options is None else options,
            CONFIG: config,
        },
        tenant=context.project_id,
    )
    with database.transaction() as session:
        session.add(row)
    return format_software_config(_visible(database, context, row.id))


def delete_software_config(
    context: Any,
    settings: EngineSettings,
    database: Database,
    dispatcher: Any,
    *,
    config_id: str,
) -> None:
    _visible(database, context, config_id)
    with database.transaction() as session:
        in_use = session.scalars(
            sa.select(SoftwareDeployment.id).where(SoftwareDeployment.config_id == config_id)
        ).first()
        if in_use is not None:
            raise exception.InvalidRestrictedAction(
                message=(
                    f"Software config with id {config_id} can not be deleted as it is referenced."
                )
            )
        session.execute(sa.delete(SoftwareConfig).where(SoftwareConfig.id == config_id))
