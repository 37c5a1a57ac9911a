"""A stack's environment: parameter values and defaults, its resource registry, event sinks.

A user environment sits on top of the global one (the operator's registry, event
sink classes and custom constraints); the global environment is built with
``user_env=False`` and holds plugin classes as well as mappings.
"""

from __future__ import annotations

from typing import Any

from keel_app.engine.constraints import registry as constraints_registry
from keel_app.engine.environment import format as env_format
from keel_app.engine.environment.registry import ResourceRegistry

FLAT_PARAMETER_EXCLUDED = (
    env_format.PARAMETER_DEFAULTS,
    env_format.ENCRYPTED_PARAM_NAMES,
    env_format.EVENT_SINKS,
    env_format.RESOURCE_REGISTRY,
)


class Environment:
    """An environment built from a parsed environment document.

    The document is either sectioned (``parameters``, ``resource_registry``, ...) or,
    the old style, a flat mapping of parameter values. ``global_env`` is the global
    environment a user environment sits on; it defaults to the process's one.
    """

    def __init__(
        self, env: dict[Any, Any] | None = None, user_env: bool = True, global_env: Any = None
    ) -> None:
        if env is None:
            env = {}
        global_registry = None
        event_sink_classes: dict[str, Any] = {}
        if user_env:
            if global_env is None:
                global_env = _process_global_environment()
            global_registry = global_env.registry
            event_sink_classes = global_env.event_sink_classes
        else:
            global_env = None
        self.global_env = global_env

        # Parameter defaults are shared with the registry: template resources
        # generated from it see later updates.
        self.param_defaults = env.get(env_format.PARAMETER_DEFAULTS, {})
        self.registry = ResourceRegistry(global_registry, self.param_defaults)
        self.registry.load(env.get(env_format.RESOURCE_REGISTRY, {}))
        self.encrypted_param_names = env.get(env_format.ENCRYPTED_PARAM_NAMES, [])
        if env_format.PARAMETERS in env:
            self.params = env[env_format.PARAMETERS]
        else:
            self.params = {
                key: value for key, value in env.items() if key not in FLAT_PARAMETER_EXCLUDED
            }
        self.event_sink_classes = event_sink_classes
        self._event_sinks: list[Any] = []
        self._built_event_sinks: list[Any] = []
        self._update_event_sinks(env.get(env_format.EVENT_SINKS, []))
        self.constraints: dict[str, Any] = {}
        self.stack_lifecycle_plugins: list[tuple[str, Any]] = []

    @property
    def event_sinks(self) -> list[Any]:
        """The event sinks as the user wrote them."""
        return self._event_sinks

    def load(self, env_snippet: dict[Any, Any]) -> None:
        """Add a sectioned environment on top of this one."""
        self.registry.load(env_snippet.get(env_format.RESOURCE_REGISTRY, {}))
        self.params.update(env_snippet.get(env_format.PARAMETERS, {}))
        self.param_defaults.update(env_snippet.get(env_format.PARAMETER_DEFAULTS, {}))
        self._update_event_sinks(env_snippet.get(env_format.EVENT_SINKS, []))

    def env_as_dict(self) -> dict[str, Any]:
        """The whole environment, as stored with the stack."""
        stored = self.user_env_as_dict()
        # Stored, but never shown to the user nor handed to nested stacks.
        stored[env_format.ENCRYPTED_PARAM_NAMES] = self.encrypted_param_names
        return stored

    def user_env_as_dict(self) -> dict[str, Any]:
        """The environment as the user may see it and nested stacks inherit it."""
        return {
            env_format.RESOURCE_REGISTRY: self.registry.as_dict(),
            env_format.PARAMETERS: self.params,
            env_format.PARAMETER_DEFAULTS: self.param_defaults,
            env_format.EVENT_SINKS: self._event_sinks,
        }

    # Plugins (the global environment)

    def register_class(self, resource_type: str, resource_class: Any, path: Any = None) -> None:
        self.registry.register_class(resource_type, resource_class, path=path)

    def register_template_resource_class(self, template_resource_class: Any) -> None:
        self.registry.register_template_resource_class(template_resource_class)

    def register_constraint(self, constraint_name: str, constraint: Any) -> None:
        self.constraints[constraint_name] = constraint

    def register_stack_lifecycle_plugin(self, name: str, plugin_class: Any) -> None:
        self.stack_lifecycle_plugins.append((name, plugin_class))

    def register_event_sink(self, event_sink_name: str, event_sink_class: Any) -> None:
        self.event_sink_classes[event_sink_name] = event_sink_class

    def get_constraint(self, name: str) -> Any:
        """A custom constraint class; the global environment also knows every plugin one."""
        if name in self.constraints or self.global_env is not None:
            return self.constraints.get(name)
        return constraints_registry.get_constraint(name)

    def get_stack_lifecycle_plugins(self) -> list[tuple[str, Any]]:
        return self.stack_lifecycle_plugins

    # Lookups

    def get_class(
        self, resource_type: str, resource_name: str | None = None, files: Any = None
    ) -> Any:
        return self.registry.get_class(resource_type, resource_name, files=files)

    def get_class_to_instantiate(self, resource_type: Any, resource_name: str | None = None) -> Any:
        return self.registry.get_class_to_instantiate(resource_type, resource_name)

    def get_types(
        self,
        context: Any = None,
        support_status: str | None = None,
        type_name: str | None = None,
        version: str | None = None,
        with_description: bool = False,
        is_allowed: Any = None,
    ) -> list[Any]:
        return self.registry.get_types(
            context,
            support_status=support_status,
            type_name=type_name,
            version=version,
            with_description=with_description,
            is_allowed=is_allowed,
        )

    def get_resource_info(
        self,
        resource_type: str,
        resource_name: str | None = None,
        registry_type: type | None = None,
        ignore: Any = None,
    ) -> Any:
        return self.registry.get_resource_info(
            resource_type, resource_name, registry_type, ignore=ignore
        )

    # Event sinks

    def _update_event_sinks(self, sinks: list[Any]) -> None:
        self._event_sinks.extend(sinks)
        for sink in sinks:
            arguments = sink.copy()
            sink_class = self.event_sink_classes[arguments.pop("type")]
            self._built_event_sinks.append(sink_class(**arguments))

    def get_event_sinks(self) -> list[Any]:
        """The event sink objects, built from the sinks' ``type`` and arguments."""
        return self._built_event_sinks


def get_child_environment(
    parent_env: Environment,
    child_params: dict[Any, Any] | None,
    item_to_remove: Any = None,
    child_resource_name: str | None = None,
) -> Environment:
    """The environment of a nested stack: the parent's, with the child's parameters.

    The parent's registry comes first and the child's on top; the parent's parameter
    values are dropped (they belong to the parent template). ``child_params`` is either
    flat parameter values or a sectioned environment. With ``child_resource_name``, only
    the per-resource settings that apply to that resource survive, flattened.
    """
    child_env = parent_env.user_env_as_dict()
    child_env[env_format.PARAMETERS] = {}
    flat_params = _is_flat_params(child_params)
    new_env = Environment(global_env=parent_env.global_env)
    if flat_params and child_params is not None:
        child_env[env_format.PARAMETERS] = child_params
    new_env.load(child_env)
    if not flat_params and child_params is not None:
        new_env.load(child_params)
    if item_to_remove is not None:
        new_env.registry.remove_item(item_to_remove)
    if child_resource_name:
        new_env.registry.remove_resources_except(child_resource_name)
    return new_env


def _is_flat_params(env_or_params: Any) -> bool:
    if env_or_params is None:
        return False
    return not any(section in env_or_params for section in env_format.SECTIONS)


def _process_global_environment() -> Environment:
    # Imported here: the global environment module builds Environments itself.
    from keel_app.engine.environment import global_environment

    return global_environment.global_env()
