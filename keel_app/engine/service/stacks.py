"""The stack calls of Heat's engine RPC surface, as plain functions.

Every function takes ``(context, settings, database, dispatcher, ...)`` and answers
what Heat's EngineService answers: identifiers and documents as dictionaries, Heat's
exceptions with Heat's messages. Stack operations that traverse resources hand the
stack to convergence (``converge_stack``), which sends the first ``check_resource``
messages through the dispatcher.
"""

from __future__ import annotations

import copy
import importlib
import logging
import uuid
from collections.abc import Mapping
from typing import Any

import sqlalchemy as sa

from keel_app.clients import engine_clients, trust_renewal
from keel_app.common import exception
from keel_app.common.identifier import HeatIdentifier
from keel_app.engine import api_format
from keel_app.engine.environment import Environment, merge_environments
from keel_app.engine.service import catalog, stack_adopt, stack_query
from keel_app.engine.service.arguments import extract_args
from keel_app.engine.service.container_files import with_container_files
from keel_app.engine.settings import EngineSettings
from keel_app.engine.stack import Stack
from keel_app.engine.stack.template_store import load_template
from keel_app.engine.template import Template
from keel_app.engine.validate.service import _validate_template
from keel_app.models import Stack as StackRow
from keel_app.models.api import stacks as stack_rows
from keel_app.models.database import Database

LOG = logging.getLogger(__name__)

HIDDEN_VALUE = "******"


def convergence_view(stack: Stack) -> Any:
    """Convergence's own view of the stored stack row (``ConvergenceStack``)."""
    # Imported when first needed: convergence builds on the stack layer.
    runtime = importlib.import_module("keel_app.engine.convergence.runtime")
    view = runtime.ConvergenceStack.load(stack.context, stack.database, stack.settings, stack.id)
    if view is None:
        raise exception.EntityNotFound(entity="Stack", name=stack.name)
    return view


def converge_stored_stack(
    stack: Stack, template: Template | None, action: str, dispatcher: Any, **options: Any
) -> None:
    """Hand the stored stack to convergence, which starts the traversal; with no
    ``template`` the stack's stored one is used."""
    converge = importlib.import_module("keel_app.engine.convergence.converge")
    view = convergence_view(stack)
    # The steps of an adopt carry the abandon data they take their resources from.
    view.adopt_stack_data = stack.adopt_stack_data
    converge.converge_stack(
        view, template if template is not None else view.t, dispatcher, action=action, **options
    )


# Finding stacks


def _stack_by_name(database: Database, context: Any, name: str) -> StackRow | None:
    """The oldest live stack of that name in the context's project, admin or not (nested
    stacks and those whose stack-user project it is included)."""
    statement = (
        sa.select(StackRow)
        .where(
            StackRow.name == name,
            StackRow.deleted_at.is_(None),
            sa.or_(
                StackRow.tenant == context.project_id,
                StackRow.stack_user_project_id == context.project_id,
            ),
        )
        .order_by(StackRow.created_at)
    )
    with database.transaction() as session:
        return session.scalars(statement).first()


def _is_uuid(text: str) -> bool:
    try:
        uuid.UUID(str(text))
    except ValueError:
        return False
    return True


def identify_stack(
    context: Any, settings: EngineSettings, database: Database, dispatcher: Any, *, stack_name: str
) -> dict[str, str]:
    """The identifier of the live stack named (or with id) ``stack_name``."""
    row = None
    if _is_uuid(stack_name):
        row = stack_rows.get_stack(database, context, stack_name, show_deleted=True)
    if row is None:
        row = _stack_by_name(database, context, stack_name)
    if row is None:
        raise exception.EntityNotFound(entity="Stack", name=stack_name)
    return dict(api_format.stack_row_identifier(row))


def get_stack_row(
    context: Any, database: Database, stack_identity: Mapping[str, Any], show_deleted: bool = False
) -> StackRow:
    """The row an identifier names, checked as Heat's ``_get_stack`` checks it."""
    identity = HeatIdentifier(**stack_identity)
    # Read in the caller's own scope: a stack of another project is not found at all,
    # whatever project the identifier names.
    deleted_ok = show_deleted or bool(getattr(context, "show_deleted", False))
    row = stack_rows.get_stack(database, context, identity.stack_id, show_deleted=deleted_ok)
    if row is None:
        raise exception.EntityNotFound(entity="Stack", name=identity.stack_name)
    if not context.is_admin and context.project_id not in (
        identity.tenant,
        row.stack_user_project_id,
    ):
        raise exception.InvalidTenant(target=identity.tenant, actual=context.project_id)
    if identity.path or row.name != identity.stack_name:
        raise exception.EntityNotFound(entity="Stack", name=identity.stack_name)
    return row


def load_stack(
    context: Any,
    settings: EngineSettings,
    database: Database,
    stack_identity: Mapping[str, Any],
    show_deleted: bool = False,
) -> Stack:
    row = get_stack_row(context, database, stack_identity, show_deleted)
    return Stack.load(context, database, settings, row=row)


# Creating and deleting


def parse_and_validate_stack(
    context: Any,
    settings: EngineSettings,
    database: Database,
    stack_name: str,
    template: Mapping[str, Any] | None,
    params: dict[str, Any] | None,
    files: dict[str, Any] | None,
    args: Mapping[str, Any],
    environment_files: list[str] | None = None,
    template_id: int | None = None,
    **stack_options: Any,
) -> Stack:
    """Heat's ``_parse_template_and_validate_stack``: the new stack, validated.

    With ``template_id`` (a Heat engine creating a nested stack) the template, its
    environment and its files are those of that stored ``raw_template`` row, which the
    new stack then keeps as its own.
    """
    options = extract_args(args)
    stack_adopt.adopt_parameters(settings, options, params if params is not None else {})
    limits = settings.template_limits
    if template_id is not None:
        tmpl = load_template(
            database, template_id, limits, encryption_key=settings.auth_encryption_key
        )
    else:
        assert template is not None and params is not None
        tmpl = Template(dict(template), files=files, limits=limits)
        merge_environments(environment_files, files, params, tmpl.all_param_schemata(files))
        tmpl.env = Environment(params)
    _validate_new_stack(context, settings, database, stack_name, tmpl)
    stack = Stack(
        context,
        stack_name,
        tmpl,
        database=database,
        settings=settings,
        convergence=settings.convergence_engine,
        **stack_options,
        **options,
    )
    catalog.enforce_stack(context, settings, stack)
    stack.validate()
    return stack


def _validate_new_stack(
    context: Any, settings: EngineSettings, database: Database, stack_name: str, tmpl: Any
) -> None:
    if _stack_by_name(database, context, stack_name) is not None:
        raise exception.StackExists(stack_name=stack_name)
    limit = settings.max_stacks_per_tenant
    if not context.is_admin and limit >= 0:
        counted = stack_query.count_rows(database, stack_query.stack_query(context))
        if counted >= limit:
            raise exception.RequestLimitExceeded(
                message=(
                    f"You have reached the maximum stacks per tenant, {limit}. "
                    "Please delete some stacks."
                )
            )
    _validate_template(tmpl, settings.template_limits)


def create_stack(
    context: Any,
    settings: EngineSettings,
    database: Database,
    dispatcher: Any,
    *,
    stack_name: str,
    template: Mapping[str, Any] | None,
    params: dict[str, Any] | None,
    files: dict[str, Any] | None,
    args: Mapping[str, Any],
    environment_files: list[str] | None = None,
    files_container: str | None = None,
    owner_id: str | None = None,
    nested_depth: int = 0,
    user_creds_id: int | None = None,
    stack_user_project_id: str | None = None,
    parent_resource_name: str | None = None,
    template_id: int | None = None,
) -> dict[str, str]:
    """Store a new stack and start its CREATE traversal; its identifier."""
    if template_id is None:
        files = with_container_files(context, settings, files_container, files)
    stack = parse_and_validate_stack(
        context,
        settings,
        database,
        stack_name,
        template,
        params,
        files,
        args,
        environment_files,
        template_id,
        owner_id=owner_id,
        nested_depth=nested_depth,
        user_creds_id=user_creds_id,
        stack_user_project_id=stack_user_project_id,
        parent_resource=parent_resource_name,
    )
    stack.store()
    _create_stack_user_project(stack)
    identity = dict(stack.identifier())
    stack.release_resources()
    converge_stored_stack(stack, None, stack_adopt.creating_action(stack), dispatcher)
    return identity


def _create_stack_user_project(stack: Stack) -> None:
    """Give a new top-level stack its project in the stack-user domain, as Heat does
    before creating anything: its nested stacks share it, so that their stack users
    (a group's deployments, made at the same time) need not race to make one."""
    if stack.stack_user_project_id:
        return
    engine_clients.attach(stack.context, stack.settings)
    clients = getattr(stack.context, "clients", None)
    if clients is None:
        return  # no Keystone: no stack users either
    try:
        project_id = clients.client("keystone").create_stack_domain_project(stack.id)
    except Exception:
        # Heat records the failure, which the traversal starting next overwrites.
        LOG.exception("Failed to create stack user project")
        return
    stack_rows.update_stack(
        stack.database, _Admin(), stack.id, {"stack_user_project_id": project_id}
    )
    stack.stack_user_project_id = project_id


def delete_stack(
    context: Any,
    settings: EngineSettings,
    database: Database,
    dispatcher: Any,
    *,
    stack_identity: Mapping[str, Any],
) -> None:
    """Start the DELETE traversal (``start_delete``)."""
    stack = load_stack(context, settings, database, stack_identity)
    catalog.enforce_stack(context, settings, stack)
    if stack.action == stack.DELETE and stack.status == stack.COMPLETE:
        raise exception.EntityNotFound(entity="Stack", name=stack.name)
    renew_trust(stack)
    start_delete(stack, dispatcher)


def renew_trust(stack: Stack) -> None:
    """A caller other than the trustor takes the stack's trust over (Heat's
    ``check_refresh_cred`` on update and delete)."""
    renewed = trust_renewal.renew_for_caller(
        stack.database,
        stack.settings.keystone,
        stack.context,
        stack.user_creds_id,
        stack.settings.auth_encryption_key,
    )
    if renewed is not None:
        stack.user_creds_id = renewed


def start_delete(stack: Stack, dispatcher: Any, abandon: bool = False) -> None:
    """Converge on an empty template of the same version. A traversal still running is
    stopped first (the stack FAILED, "cancelled"), and the engines holding locks on its
    resources are asked to stop their steps. An abandon leaves every resource alive."""
    converge = importlib.import_module("keel_app.engine.convergence.converge")
    view = convergence_view(stack)
    if view.status == view.IN_PROGRESS:
        converge.stop_traversal(view)
    converge.converge_stack(
        view,
        Template.create_empty_template(from_template=stack.t),
        dispatcher,
        action=stack.DELETE,
        pre_converge=lambda: converge.cancel_workers(view, dispatcher),
        abandon=abandon,
    )


# Reading


def show_stack(
    context: Any,
    settings: EngineSettings,
    database: Database,
    dispatcher: Any,
    *,
    stack_identity: Mapping[str, Any] | None,
    resolve_outputs: bool = True,
) -> list[dict[str, Any]]:
    """The documents of one stack (or of every stack the context sees)."""
    if stack_identity is not None:
        stacks = [load_stack(context, settings, database, stack_identity, show_deleted=True)]
    else:
        rows = stack_query.list_rows(database, stack_query.stack_query(context))
        stacks = [Stack.load(context, database, settings, row=row) for row in rows]
    answers = []
    for stack in stacks:
        if resolve_outputs:
            stack.resolve_outputs_data()
        answers.append(api_format.format_stack(stack, resolve_outputs=resolve_outputs))
    return answers


def _listing_scope(context: Any, tenant_safe: bool) -> Any:
    return context if tenant_safe else _Admin()


def list_stacks(
    context: Any,
    settings: EngineSettings,
    database: Database,
    dispatcher: Any,
    *,
    limit: int | None = None,
    marker: str | None = None,
    sort_keys: Any = None,
    sort_dir: str | None = None,
    filters: Mapping[str, Any] | None = None,
    tenant_safe: bool = True,
    show_deleted: bool = False,
    show_nested: bool = False,
    show_hidden: bool = False,
    tags: list[str] | None = None,
    tags_any: list[str] | None = None,
    not_tags: list[str] | None = None,
    not_tags_any: list[str] | None = None,
) -> list[dict[str, Any]]:
    translated = stack_query.translate_filters(filters) if filters is not None else None
    statement = _selection(
        context,
        settings,
        tenant_safe,
        translated,
        show_deleted,
        show_nested,
        show_hidden,
        (tags, tags_any, not_tags, not_tags_any),
    )
    rows = stack_query.list_rows(database, statement, limit, sort_keys, marker, sort_dir)
    return [api_format.format_stack_db_object(row) for row in rows]


def count_stacks(
    context: Any,
    settings: EngineSettings,
    database: Database,
    dispatcher: Any,
    *,
    filters: Mapping[str, Any] | None = None,
    tenant_safe: bool = True,
    show_deleted: bool = False,
    show_nested: bool = False,
    show_hidden: bool = False,
    tags: list[str] | None = None,
    tags_any: list[str] | None = None,
    not_tags: list[str] | None = None,
    not_tags_any: list[str] | None = None,
) -> int:
    # Heat counts with the filters as given: API names are not translated here.
    statement = _selection(
        context,
        settings,
        tenant_safe,
        filters,
        show_deleted,
        show_nested,
        show_hidden,
        (tags, tags_any, not_tags, not_tags_any),
    )
    return stack_query.count_rows(database, statement)


def _selection(
    context: Any,
    settings: EngineSettings,
    tenant_safe: bool,
    filters: Mapping[str, Any] | None,
    show_deleted: bool,
    show_nested: bool,
    show_hidden: bool,
    tag_filters: tuple[list[str] | None, ...],
) -> Any:
    """The stacks a listing or a count looks at: one query for both."""
    tags, tags_any, not_tags, not_tags_any = tag_filters
    return stack_query.stack_query(
        _listing_scope(context, tenant_safe),
        filters=filters,
        show_deleted=show_deleted,
        show_nested=show_nested,
        show_hidden=show_hidden,
        hidden_tags=settings.hidden_stack_tags,
        tags=tags,
        tags_any=tags_any,
        not_tags=not_tags,
        not_tags_any=not_tags_any,
    )


def _stored_template(settings: EngineSettings, database: Database, row: StackRow) -> Template:
    return load_template(
        database,
        row.raw_template_id,
        settings.template_limits,
        encryption_key=settings.auth_encryption_key,
    )


def get_template(
    context: Any,
    settings: EngineSettings,
    database: Database,
    dispatcher: Any,
    *,
    stack_identity: Mapping[str, Any],
) -> Any:
    row = get_stack_row(context, database, stack_identity, show_deleted=True)
    return _stored_template(settings, database, row).t


def get_environment(
    context: Any,
    settings: EngineSettings,
    database: Database,
    dispatcher: Any,
    *,
    stack_identity: Mapping[str, Any],
) -> dict[str, Any]:
    """The stored environment, hidden parameters' values masked."""
    row = get_stack_row(context, database, stack_identity, show_deleted=True)
    tmpl = _stored_template(settings, database, row)
    schemata = tmpl.all_param_schemata(tmpl.files)
    environment = copy.deepcopy(tmpl.env.env_as_dict())
    for section in ("parameters", "parameter_defaults"):
        for name in environment.get(section, {}):
            if name in schemata and schemata[name].hidden:
                environment[section][name] = HIDDEN_VALUE
    return environment


def get_files(
    context: Any,
    settings: EngineSettings,
    database: Database,
    dispatcher: Any,
    *,
    stack_identity: Mapping[str, Any],
) -> dict[str, Any]:
    row = get_stack_row(context, database, stack_identity, show_deleted=True)
    return dict(_stored_template(settings, database, row).files)


def list_outputs(
    context: Any,
    settings: EngineSettings,
    database: Database,
    dispatcher: Any,
    *,
    stack_identity: Mapping[str, Any],
) -> list[dict[str, Any]]:
    stack = load_stack(context, settings, database, stack_identity)
    return api_format.format_stack_outputs(stack.outputs, resolve_value=False)


def show_output(
    context: Any,
    settings: EngineSettings,
    database: Database,
    dispatcher: Any,
    *,
    stack_identity: Mapping[str, Any],
    output_key: str,
) -> dict[str, Any]:
    stack = load_stack(context, settings, database, stack_identity)
    outputs = stack.outputs
    if output_key not in outputs:
        raise exception.NotFound(f"Specified output key {output_key} not found.")
    stack.resolve_outputs_data()
    return api_format.format_stack_output(outputs[output_key])


class _Admin:
    is_admin = True
    project_id = None
