"""``resource_signal``: a signal for one resource of a stack, as Heat's engine takes it.

The resource is checked first, in the caller's request: it must exist and have been
stored, its action must take signals, and a hook it is asked to clear must be one that
is set. Then the signal is handled. Heat hands a signal with a ``handle_signal`` to a
thread of its own unless ``sync_call`` asks to wait, so the caller never hears of that
handler's failure; OpenKeel handles it at once either way and, as Heat's caller would,
hears of a failure only when it asked to wait. A ``sync_call`` answers the resource's
metadata after the signal (the CloudFormation wait condition handle's reply). With
Keystone the signal is handled with the stack's stored context, as in Heat: the caller
(a stack user of the stack-user project) can reach this stack, not its nested ones.

After a signal that says so (``signal_needs_metadata_updates``) Heat asks the stack's
other resources to refresh their metadata; no type that needs no cloud does anything
then, so that step waits for the types that do (servers).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from keel_app.clients import keystone_credentials
from keel_app.common import exception
from keel_app.engine.resource import Resource
from keel_app.engine.service.stacks import load_stack
from keel_app.engine.settings import EngineSettings
from keel_app.engine.stack.stack import Stack
from keel_app.engine.stack.template_store import load_template
from keel_app.models.database import Database

LOG = logging.getLogger(__name__)


def resource_signal(
    context: Any,
    settings: EngineSettings,
    database: Database,
    dispatcher: Any,
    *,
    stack_identity: Mapping[str, Any],
    resource_name: str,
    details: Any,
    sync_call: bool = False,
) -> Any:
    stack = load_stack(context, settings, database, stack_identity)
    if settings.keystone is not None and stack.user_creds_id is not None:
        # The signaller (often a stack user, who may see only this stack) is checked;
        # the signal then acts as the stack's owner, through its stored credentials.
        owner = keystone_credentials.stored_context(
            database, settings.keystone, stack.user_creds_id, settings.auth_encryption_key
        )
        stack = Stack.load(owner, database, settings, stack_id=stack.id)
    # A handler may start work on a nested stack (a scaling group's resize).
    stack.dispatcher = dispatcher
    resource = _resource_get(stack, resource_name, settings, database)
    if resource is None:
        raise exception.ResourceNotFound(resource_name=resource_name, stack_name=stack.name)
    if resource.id is None:
        raise exception.ResourceNotAvailable(resource_name=resource_name)
    resource.signal_check_action()
    resource.signal_check_hook(details)
    if sync_call or not callable(getattr(resource, "handle_signal", None)):
        resource.signal(details, need_check=False)
    else:
        try:
            resource.signal(details, need_check=False)
        except Exception:
            # Where Heat's signal thread would have logged it: the caller is not told.
            LOG.exception("Signal to %s failed", resource)
    if sync_call:
        return resource.metadata_get()
    return None


def _resource_get(stack: Any, name: str, settings: EngineSettings, database: Database) -> Any:
    """The stack's resource of that name; one no longer in the template, from its row."""
    resource = stack.resources.get(name)
    if resource is not None:
        return resource
    row = stack.db_resource_get(name)
    if row is None or row.current_template_id is None:
        return None
    # Built from the template it was last acted on with, as Heat does.
    template = load_template(
        database,
        row.current_template_id,
        settings.template_limits,
        encryption_key=settings.auth_encryption_key,
    )
    definitions = stack.defn.clone_with_new_template(template, stack.identifier())
    if name not in definitions.enabled_rsrc_names():
        return None
    resource = Resource(name, definitions.resource_definition(name), stack)
    resource.load_row(row)
    return resource
