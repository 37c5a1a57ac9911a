"""Which engine calls OpenKeel serves, and the service function that answers each.

``METHODS`` maps a method of Heat's engine API (``keel_app.rpc.contract``) to a function
of ``keel_app.engine.service`` taking ``(context, settings, database, dispatcher,
**keywords)``. Serving one more call is one line here: the ``EngineClient`` grows the
method and every transport can carry it.

A message carries Heat's argument names. Each goes to the function's keyword of the same
name unless the entry renames it. An argument the function does not take yet is dropped
when it is None (the value every Heat client sends when the caller has no use for it)
and refused with ``NotSupported`` otherwise, so a request is never half-served.
Functions are named by path and imported on first call: the client needs only the
names, so a process that only sends calls (the API) never loads the engine.
"""

from __future__ import annotations

import functools
import importlib
import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from keel_app.common import exception
from keel_app.rpc.contract import HEAT_ENGINE_API

SERVICE_PACKAGE = "keel_app.engine.service"
# What every service function takes before its keywords.
SERVICE_POSITIONALS = 4


@dataclass(frozen=True)
class ServiceFunction:
    # "<module>:<function>", the module under keel_app.engine.service.
    path: str
    # Heat's argument name -> the function's keyword, where the two differ.
    renames: Mapping[str, str] = field(default_factory=dict)

    def resolve(self) -> Callable[..., Any]:
        return _resolve(self.path)


METHODS: dict[str, ServiceFunction] = {
    "identify_stack": ServiceFunction("stacks:identify_stack"),
    "list_stacks": ServiceFunction("stacks:list_stacks"),
    "count_stacks": ServiceFunction("stacks:count_stacks"),
    "show_stack": ServiceFunction("stacks:show_stack"),
    "create_stack": ServiceFunction("stacks:create_stack"),
    "delete_stack": ServiceFunction("stacks:delete_stack"),
    "get_template": ServiceFunction("stacks:get_template"),
    "get_environment": ServiceFunction("stacks:get_environment"),
    "get_files": ServiceFunction("stacks:get_files"),
    "list_outputs": ServiceFunction("stacks:list_outputs"),
    "show_output": ServiceFunction("stacks:show_output"),
    "list_stack_resources": ServiceFunction("resources:list_stack_resources"),
    "describe_stack_resource": ServiceFunction("resources:describe_stack_resource"),
    "describe_stack_resources": ServiceFunction("resources:describe_stack_resources"),
    "list_events": ServiceFunction("resources:list_events"),
    "list_template_versions": ServiceFunction("catalog:list_template_versions"),
    "list_template_functions": ServiceFunction("catalog:list_template_functions"),
    "list_resource_types": ServiceFunction("catalog:list_resource_types"),
    "resource_schema": ServiceFunction("catalog:resource_schema"),
    "generate_template": ServiceFunction("provider_template:generate_template"),
    "validate_template": ServiceFunction("validation:validate_template"),
    "get_revision": ServiceFunction("validation:get_revision"),
    "update_stack": ServiceFunction("stack_update:update_stack"),
    "preview_update_stack": ServiceFunction("stack_preview:preview_update_stack"),
    "preview_stack": ServiceFunction("stack_preview:preview_stack"),
    "abandon_stack": ServiceFunction("stack_abandon:abandon_stack"),
    "export_stack": ServiceFunction("stack_abandon:export_stack"),
    "stack_cancel_update": ServiceFunction("stack_cancel:stack_cancel_update"),
    "stack_suspend": ServiceFunction("stack_actions:stack_suspend"),
    "stack_resume": ServiceFunction("stack_actions:stack_resume"),
    "stack_check": ServiceFunction("stack_actions:stack_check"),
    "stack_snapshot": ServiceFunction("snapshots:stack_snapshot"),
    "show_snapshot": ServiceFunction("snapshots:show_snapshot"),
    "stack_list_snapshots": ServiceFunction("snapshots:stack_list_snapshots"),
    "delete_snapshot": ServiceFunction("snapshots:delete_snapshot"),
    "stack_restore": ServiceFunction("snapshots:stack_restore"),
    "resource_mark_unhealthy": ServiceFunction("resource_state:resource_mark_unhealthy"),
    "find_physical_resource": ServiceFunction("resource_state:find_physical_resource"),
    "resource_signal": ServiceFunction("signals:resource_signal"),
    "show_software_config": ServiceFunction("software_configs:show_software_config"),
    "list_software_configs": ServiceFunction("software_configs:list_software_configs"),
    "create_software_config": ServiceFunction("software_configs:create_software_config"),
    "delete_software_config": ServiceFunction("software_configs:delete_software_config"),
    "list_software_deployments": ServiceFunction("software_deployments:list_software_deployments"),
    "metadata_software_deployments": ServiceFunction(
        "software_deployments:metadata_software_deployments"
    ),
    "show_software_deployment": ServiceFunction("software_deployments:show_software_deployment"),
    "check_software_deployment": ServiceFunction("software_deployments:check_software_deployment"),
    "create_software_deployment": ServiceFunction(
        "software_deployments:create_software_deployment"
    ),
    "update_software_deployment": ServiceFunction(
        "software_deployments:update_software_deployment"
    ),
    "delete_software_deployment": ServiceFunction(
        "software_deployments:delete_software_deployment"
    ),
    "signal_software_deployment": ServiceFunction(
        "software_deployments:signal_software_deployment"
    ),
    "list_services": ServiceFunction("services:list_services"),
    "authenticated_to_backend": ServiceFunction("backend_auth:authenticated_to_backend"),
    "migrate_convergence_1": ServiceFunction("convergence_migration:migrate_convergence_1"),
}


@functools.cache
def _resolve(path: str) -> Callable[..., Any]:
    module_name, _, function_name = path.partition(":")
    module = importlib.import_module(f"{SERVICE_PACKAGE}.{module_name}")
    function: Callable[..., Any] = getattr(module, function_name)
    return function


@functools.cache
def _keywords(function: Callable[..., Any]) -> frozenset[str] | None:
    """The keywords ``function`` takes after the positionals; None when it takes any."""
    parameters = list(inspect.signature(function).parameters.values())[SERVICE_POSITIONALS:]
    if any(parameter.kind is inspect.Parameter.VAR_KEYWORD for parameter in parameters):
        return None
    return frozenset(parameter.name for parameter in parameters)


def unserved_arguments(method: str) -> tuple[str, ...]:
    """Heat's arguments of ``method`` that its service function does not take yet."""
    entry = METHODS[method]
    accepted = _keywords(entry.resolve())
    if accepted is None:
        return ()
    return tuple(
        name
        for name in HEAT_ENGINE_API[method].arguments
        if entry.renames.get(name, name) not in accepted
    )


def service_keywords(method: str, arguments: Mapping[str, Any]) -> dict[str, Any]:
    """The keywords the service function of ``method`` is called with for a message's
    ``arguments`` (Heat's names)."""
    entry = METHODS[method]
    known = HEAT_ENGINE_API[method].arguments
    for name in arguments:
        if name not in known:
            # The error an oslo server's dispatcher gives for a stray argument.
            raise TypeError(f"{method}() got an unexpected keyword argument '{name}'")
    unserved = unserved_arguments(method)
    keywords = {}
    for name, value in arguments.items():
        if name not in unserved:
            keywords[entry.renames.get(name, name)] = value
        elif value is not None:
            raise exception.NotSupported(feature=f"The {name} argument of {method}")
    return keywords


def invoke(
    context: Any,
    settings: Any,
    database: Any,
    dispatcher: Any,
    method: str,
    arguments: Mapping[str, Any],
) -> Any:
    """Run the service function of ``method``; its answer, or its exception raised."""
    if method not in METHODS:
        # The text of oslo's NoSuchMethod, as a builtin the caller can rebuild.
        raise AttributeError(f"Endpoint does not support RPC method {method}")
    function = METHODS[method].resolve()
    return function(context, settings, database, dispatcher, **service_keywords(method, arguments))
