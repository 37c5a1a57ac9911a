"""Environments: parameter values and defaults, the resource registry, event sinks.

Heat's ``heat.engine.environment``, ``heat.common.environment_format`` and
``heat.common.environment_util`` in one package, plus the ``files`` map.
"""

from keel_app.engine.environment.environment import Environment, get_child_environment
from keel_app.engine.environment.files import TemplateFiles
from keel_app.engine.environment.global_environment import (
    PACKAGED_ENVIRONMENT_DIR,
    PACKAGED_TEMPLATE_DIR,
    build_global_environment,
    global_env,
    initialise,
    read_global_environment,
)
from keel_app.engine.environment.merge import merge_environments, merge_parameters
from keel_app.engine.environment.registry import ResourceRegistry
from keel_app.engine.environment.resource_info import (
    HOOK_TYPES,
    RESTRICTED_ACTIONS,
    ClassResourceInfo,
    GlobResourceInfo,
    MapResourceInfo,
    ResourceInfo,
    TemplateResourceInfo,
    is_hook_definition,
    is_valid_restricted_action,
    valid_hook_type,
    valid_restricted_actions,
)

__all__ = [
    "HOOK_TYPES",
    "PACKAGED_ENVIRONMENT_DIR",
    "PACKAGED_TEMPLATE_DIR",
    "RESTRICTED_ACTIONS",
    "ClassResourceInfo",
    "Environment",
    "GlobResourceInfo",
    "MapResourceInfo",
    "ResourceInfo",
    "ResourceRegistry",
    "TemplateFiles",
    "TemplateResourceInfo",
    "build_global_environment",
    "get_child_environment",
    "global_env",
    "initialise",
    "is_hook_definition",
    "is_valid_restricted_action",
    "merge_environments",
    "merge_parameters",
    "read_global_environment",
    "valid_hook_type",
    "valid_restricted_actions",
]
