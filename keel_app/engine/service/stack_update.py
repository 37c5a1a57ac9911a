"""update_stack: a stored stack moved to a new template, parameters or options.

A PUT gives the whole new template and environment. A PATCH (``args["existing"]``)
changes only what it names: the stored template and files are kept unless new ones are
given, the given parameters are merged over the stored ones (less those named in
``clear_parameters``), and tags, timeout and rollback stay as they were unless given.
The updated stack is built and validated here without being stored; convergence then
stores its template and options and starts the UPDATE traversal, which pre-empts any
traversal still running.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from keel_app.common import exception
from keel_app.engine.environment import Environment, merge_environments
from keel_app.engine.environment import format as env_format
from keel_app.engine.service import catalog
from keel_app.engine.service.arguments import extract_args
from keel_app.engine.service.container_files import with_container_files
from keel_app.engine.service.stacks import converge_stored_stack, load_stack, renew_trust
from keel_app.engine.settings import EngineSettings
from keel_app.engine.stack import Stack
from keel_app.engine.stack.template_store import load_template
from keel_app.engine.template import Template
from keel_app.models.database import Database

PARAM_EXISTING = "existing"
PARAM_CLEAR_PARAMETERS = "clear_parameters"


def _patched_template(
    current: Stack,
    settings: EngineSettings,
    template: Mapping[str, Any] | None,
    params: dict[str, Any],
    files: dict[str, Any] | None,
    args: Mapping[str, Any],
    environment_files: list[str] | None,
) -> Template:
    """The template of a PATCH: the stored one unless given, the stored files plus the
    given ones, the stored parameters (less the cleared ones) under the given ones."""
    # A convergence stack's current template is always usable, whatever its state.
    document = dict(template) if template is not None else current.t.t
    new_files = current.t.files
    new_files.update(files or {})
    tmpl = Template(document, files=new_files, limits=settings.template_limits)
    # Heat reads the schemata of the files given, not of the merged ones.
    merge_environments(environment_files, new_files, params, tmpl.all_param_schemata(files))
    existing = current.env.env_as_dict()
    cleared = set(args.get(PARAM_CLEAR_PARAMETERS, []))
    existing[env_format.PARAMETERS] = {
        name: value
        for name, value in existing[env_format.PARAMETERS].items()
        if name not in cleared
    }
    environment = Environment(existing)
    environment.load(params)
    declared = tmpl.param_schemata()
    for name in list(environment.params):
        if name not in declared:
            environment.params.pop(name)
    tmpl.env = environment
    return tmpl


def _replacement_template(
    settings: EngineSettings,
    database: Database,
    template: Mapping[str, Any],
    params: dict[str, Any],
    files: dict[str, Any] | None,
    environment_files: list[str] | None,
    template_id: int | None,
) -> Template:
    """The template of a PUT: the one given (or stored as ``template_id``), as create
    reads it."""
    if template_id is not None:
        return load_template(
            database,
            template_id,
            settings.template_limits,
            encryption_key=settings.auth_encryption_key,
        )
    tmpl = Template(dict(template), files=files, limits=settings.template_limits)
    merge_environments(environment_files, files, params, tmpl.all_param_schemata(files))
    tmpl.env = Environment(params)
    return tmpl


def prepare_stack_updates(
    context: Any,
    settings: EngineSettings,
    database: Database,
    current: Stack,
    template: Mapping[str, Any] | None,
    params: dict[str, Any],
    files: dict[str, Any] | None,
    args: Mapping[str, Any],
    environment_files: list[str] | None = None,
    template_id: int | None = None,
) -> tuple[Template, Stack]:
    """Heat's ``_prepare_stack_updates``: the new template and the updated stack, built
    and validated but not stored."""
    patch = bool(args.get(PARAM_EXISTING, False))
    if patch:
        assert template_id is None, "Cannot specify template_id with PARAM_EXISTING"
        tmpl = _patched_template(
            current, settings, template, params, files, args, environment_files
        )
    else:
        tmpl = _replacement_template(
            settings, database, template or {}, params, files, environment_files, template_id
        )
    limit = settings.max_resources_per_stack
    if limit != -1 and len(tmpl[tmpl.RESOURCES]) > limit:
        raise exception.RequestLimitExceeded(message=exception.StackResourceLimitExceeded.msg_fmt)
    options = extract_args(args)
    options.setdefault("timeout_mins", current.timeout_mins)
    options.setdefault("disable_rollback", current.disable_rollback)
    options.setdefault("converge", current.converge)
    if patch:
        options.setdefault("tags", current.tags)
    updated = Stack(
        context,
        current.name,
        tmpl,
        database=database,
        settings=settings,
        owner_id=current.owner_id,
        username=current.username,
        stack_user_project_id=current.stack_user_project_id,
        user_creds_id=current.user_creds_id,
        nested_depth=current.nested_depth,
        convergence=current.convergence,
        current_traversal=current.current_traversal,
        prev_raw_template_id=current.prev_raw_template_id,
        current_deps=current.current_deps,
        parent_resource=current.parent_resource_name,
        tenant_id=current.tenant_id,
        # Heat's loaded stacks validate strictly: so does the stack built from one.
        strict_validate=True,
        **options,
    )
    modified = current.parameters.immutable_params_modified(updated.parameters, tmpl.env.params)
    if modified:
        raise exception.ImmutableParameterModified(*modified)
    updated.parameters.set_stack_id(current.identifier())
    catalog.enforce_stack(context, settings, updated)
    updated.validate()
    return tmpl, updated


def update_stack(
    context: Any,
    settings: EngineSettings,
    database: Database,
    dispatcher: Any,
    *,
    stack_identity: Mapping[str, Any],
    template: Mapping[str, Any] | None,
    params: dict[str, Any],
    files: dict[str, Any] | None,
    args: Mapping[str, Any],
    environment_files: list[str] | None = None,
    files_container: str | None = None,
    template_id: int | None = None,
) -> dict[str, str]:
    """Start the UPDATE traversal towards the new template; the stack's identifier."""
    if template_id is None:
        files = with_container_files(context, settings, files_container, files)
    current = load_stack(context, settings, database, stack_identity)
    catalog.enforce_stack(context, settings, current)
    if current.action == current.SUSPEND:
        raise exception.NotSupported(feature="Updating a stack when it is suspended")
    if current.action == current.DELETE:
        raise exception.NotSupported(feature="Updating a stack when it is deleting")
    tmpl, updated = prepare_stack_updates(
        context,
        settings,
        database,
        current,
        template,
        params,
        files,
        args,
        environment_files,
        template_id,
    )
    renew_trust(current)
    updated.release_resources()
    current.release_resources()
    converge_stored_stack(current, tmpl, current.UPDATE, dispatcher, new_stack=updated)
    return dict(current.identifier())
