"""The resource registry: from a resource type name (and resource name) to its implementation.

A user's registry sits on top of the global one. A lookup gathers every candidate
entry from both — a template named by the type itself, the per-resource override under
``resources``, the exact type name, every matching glob — sorts them (the user's
first, then the longest path, then by path) and follows the first one that resolves.
"""

from __future__ import annotations

import fnmatch
import itertools
import logging
import re
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from keel_app.common.exception import EntityNotFound, Invalid, StackValidationFailed
from keel_app.engine.environment import support
from keel_app.engine.environment.resource_info import (
    ClassResourceInfo,
    ResourceInfo,
    TemplateResourceInfo,
    is_hook_definition,
    is_valid_restricted_action,
)

LOG = logging.getLogger(__name__)

RESOURCES = "resources"


def _names(value: Any) -> set[Any]:
    """A hook or restricted-action value (one name or a list of names) as a set."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, Sequence):
        return set(value)
    return set()


class ResourceRegistry:
    """Type names to entries; ``global_registry`` is None for the global registry itself."""

    def __init__(self, global_registry: ResourceRegistry | None, param_defaults: Any) -> None:
        self._registry: dict[Any, Any] = {RESOURCES: {}}
        # The wildcard names ("OS::Nova::*"), looked through at every type lookup: kept
        # until an entry is registered or removed.
        self._wildcards: list[Any] | None = None
        self.global_registry = global_registry
        self.param_defaults = param_defaults
        self._template_resource_class: Any = None
        # Directories the operator's file URLs name -> where their templates are read.
        self._template_dirs: dict[str, Path] = {}

    # Loading

    def load(self, json_snippet: Any) -> None:
        self._load_registry([], json_snippet)

    def register_class(self, resource_type: str, resource_class: Any, path: Any = None) -> None:
        if path is None:
            path = [resource_type]
        self._register_info(path, ResourceInfo(self, path, resource_class))

    def register_template_resource_class(self, template_resource_class: Any) -> None:
        """The plugin class that every template resource is an instance of."""
        self._template_resource_class = template_resource_class

    def read_templates_from(self, named_dir: str | Path, actual_dir: Path) -> None:
        """Read the templates that file URLs place in ``named_dir`` from ``actual_dir``."""
        self._template_dirs[str(named_dir).rstrip("/")] = actual_dir

    def template_location(self, url: str) -> str:
        """The URL a template entry's text is fetched from: ``url`` itself, unless it is a
        file URL into a directory that is read from elsewhere."""
        parsed = urllib.parse.urlparse(url)
        if parsed.scheme != "file":
            return url
        path = Path(urllib.request.url2pathname(parsed.path))
        actual_dir = self._template_dirs.get(str(path.parent))
        if actual_dir is None:
            return url
        return (actual_dir / path.name).as_uri()

    def template_resource_class(self) -> Any:
        if self._template_resource_class is not None:
            return self._template_resource_class
        if self.global_registry is not None:
            return self.global_registry.template_resource_class()
        raise RuntimeError("no template resource class is registered")

    def _load_registry(self, path: list[Any], registry: Any) -> None:
        for key, value in registry.items():
            if value is None:
                self._register_info([*path, key], None)
            elif is_hook_definition(key, value) or is_valid_restricted_action(key, value):
                self._register_item([*path, key], value)
            elif isinstance(value, dict):
                self._load_registry([*path, key], value)
            else:
                self._register_info([*path, key], ResourceInfo(self, [*path, key], value))

    def _level(self, path: list[Any]) -> dict[Any, Any]:
        """The nested mapping that holds ``path[-1]``, created on the way if needed."""
        level = self._registry
        for key in path[:-1]:
            level = level.setdefault(key, {})
        return level

    def _register_item(self, path: list[Any], item: Any) -> None:
        self._wildcards = None
        self._level(path)[path[-1]] = item

    def _register_info(self, path: list[Any], info: ResourceInfo | None) -> None:
        descriptive_path = "/".join(path)
        name = path[-1]
        level = self._level(path)
        self._wildcards = None

        if info is None:
            self._remove(level, name, descriptive_path)
            return

        existing = level.get(name)
        if isinstance(existing, ResourceInfo):
            if existing == info:
                return
            LOG.warning(
                "Changing %(path)s from %(was)s to %(now)s",
                {"path": descriptive_path, "was": existing.value, "now": info.value},
            )

        if isinstance(info, ClassResourceInfo):
            # Read unconditionally: a user's non-string value fails here, as in Heat.
            status = info.value.support_status
            if status.status != support.SUPPORTED and status.message is not None:
                # Heat warns: a line for each of the many deprecated types at each load.
                LOG.debug("%s is %s. %s", info.name, status.status, status.message)

        info.user_resource = self.global_registry is not None
        level[name] = info

    @staticmethod
    def _remove(level: dict[Any, Any], name: Any, descriptive_path: str) -> None:
        if not name.endswith("*"):
            LOG.warning("Removing %s from %s", name, descriptive_path)
            level.pop(name, None)
            return
        for entry_name, entry in list(level.items()):
            if isinstance(entry, ResourceInfo) and entry_name.startswith(name[:-1]):
                LOG.warning("Removing %s from %s", entry_name, descriptive_path)
                del level[entry_name]

    def log_resource_info(self, show_all: bool = False, prefix: str | None = None) -> None:
        lead = f"{prefix} " if prefix is not None else ""
        # Heat lists the whole registry at INFO, hundreds of lines at each start; a
        # stack's own template resources stay at INFO.
        level = logging.DEBUG if show_all else logging.INFO
        for name, entry in self._registry.items():
            if name == RESOURCES:
                continue
            if show_all or isinstance(entry, TemplateResourceInfo):
                LOG.log(level, "%sRegistered: %s", lead, entry)

    def remove_item(self, info: ResourceInfo) -> None:
        """Forget a template resource (a nested stack must not instantiate itself)."""
        if not isinstance(info, TemplateResourceInfo):
            return
        self._wildcards = None
        level = self._registry
        for key in info.path[:-1]:
            level = level[key]
        level.pop(info.path[-1], None)

    def remove_resources_except(self, resource_name: str) -> None:
        """Keep, flattened, only the per-resource settings that apply to ``resource_name``."""
        resources = self._registry[RESOURCES]
        kept: dict[Any, Any] = {}
        for pattern, settings in resources.items():
            if fnmatch.fnmatchcase(resource_name, pattern):
                kept.update(settings)
        if resource_name in resources:
            kept.update(resources[resource_name])
        self._registry[RESOURCES] = kept

    # Per-resource settings

    def get_rsrc_restricted_actions(self, resource_name: str) -> set[Any]:
        """Every action restricted for the resource, by its name or a matching pattern."""
        restricted: set[Any] = set()
        for pattern, settings in self._registry[RESOURCES].items():
            if fnmatch.fnmatchcase(resource_name, pattern) and "restricted_actions" in settings:
                restricted |= _names(settings["restricted_actions"])
        return restricted

    def matches_hook(self, resource_name: str, hook: str) -> bool:
        """Whether a hook of this type is set for the resource, by its name or a pattern."""
        for pattern, settings in self._registry[RESOURCES].items():
            if fnmatch.fnmatchcase(resource_name, pattern) and "hooks" in settings:
                if hook in _names(settings["hooks"]):
                    return True
        return False

    # Lookups

    def iterable_by(self, resource_type: str, resource_name: str | None = None) -> Iterator[Any]:
        """Every entry of this registry that may answer for the type (unsorted)."""
        if self.global_registry is not None and resource_type.endswith((".yaml", ".template")):
            # A type that names a template is registered on first sight, in user
            # registries only: the operator's registry never fetches on a user's word.
            if resource_type not in self._registry:
                self._register_info([resource_type], ResourceInfo(self, [resource_type], None))
            yield self._registry[resource_type]

        if resource_name:
            override = self._registry[RESOURCES].get(resource_name)
            if override and resource_type in override:
                yield override[resource_type]

        exact = self._registry.get(resource_type)
        if exact:
            yield exact

        if self._wildcards is None:
            self._wildcards = [name for name in self._registry if name.endswith("*")]
        for pattern in self._wildcards:
            if self._registry[pattern].matches(resource_type):
                yield self._registry[pattern]

    def get_resource_info(
        self,
        resource_type: str,
        resource_name: str | None = None,
        registry_type: type | None = None,
        ignore: ResourceInfo | None = None,
    ) -> Any:
        """The entry that implements the type, or EntityNotFound."""
        from_global: Iterator[Any] = iter(())
        if self.global_registry is not None:
            from_global = self.global_registry.iterable_by(resource_type, resource_name)
        candidates = itertools.chain(self.iterable_by(resource_type, resource_name), from_global)

        for info in sorted(candidates):
            try:
                match = info.get_resource_info(resource_type, resource_name)
            except EntityNotFound:
                continue
            if registry_type is not None and not isinstance(match, registry_type):
                continue
            if ignore is not None and match == ignore:
                continue
            if (
                match
                and not match.user_resource
                and not isinstance(info, (TemplateResourceInfo, ClassResourceInfo))
            ):
                # A mapping found in the operator's registry is copied into the user's,
                # so the stack keeps meaning the same after the operator changes it.
                # A copy, not the entry itself: marking the shared entry as the user's
                # would reorder every later lookup in the process.
                self._register_info([resource_type], info.copy())
            return match

        raise EntityNotFound(entity="Resource Type", name=resource_type)

    def get_class(
        self, resource_type: str, resource_name: str | None = None, files: Any = None
    ) -> Any:
        info = self.get_resource_info(resource_type, resource_name=resource_name)
        return info.get_class(files=files)

    def get_class_to_instantiate(self, resource_type: Any, resource_name: str | None = None) -> Any:
        if resource_type == "":
            raise StackValidationFailed(message=f'Resource "{resource_name}" has no type')
        if resource_type is None:
            raise StackValidationFailed(
                message=f'Non-empty resource type is required for resource "{resource_name}"'
            )
        if not isinstance(resource_type, str):
            raise StackValidationFailed(message=f'Resource "{resource_name}" type is not a string')
        try:
            info = self.get_resource_info(resource_type, resource_name=resource_name)
        except EntityNotFound as error:
            raise StackValidationFailed(message=str(error)) from None
        return info.get_class_to_instantiate()

    # Views

    def as_dict(self) -> dict[Any, Any]:
        """The user's part of the registry, in the environment's own format."""

        def level_as_dict(level: dict[Any, Any]) -> dict[Any, Any]:
            result: dict[Any, Any] = {}
            for key, value in level.items():
                if isinstance(value, dict):
                    result[key] = level_as_dict(value)
                elif is_hook_definition(key, value) or is_valid_restricted_action(key, value):
                    result[key] = value
                elif value.user_resource:
                    result[key] = value.value
            return result

        return level_as_dict(self._registry)

    def get_types(
        self,
        context: Any = None,
        support_status: str | None = None,
        type_name: str | None = None,
        version: str | None = None,
        with_description: bool = False,
        is_allowed: Callable[[Any, str], bool] | None = None,
    ) -> list[Any]:
        """The plugin and template types a user may list, filtered as asked.

        With a context, a type must also pass ``is_allowed(context, name)`` (the
        resource policy) and its class's ``is_service_available(context)``.
        """
        if support_status is not None and not support.is_valid_status(support_status):
            raise Invalid(
                reason=f"Invalid support status and should be one of {support.SUPPORT_STATUSES}"
            )
        name_pattern = None
        if type_name is not None:
            try:
                name_pattern = re.compile(type_name)
            except Exception:
                return []

        def selected(name: Any, info: Any) -> bool:
            if not isinstance(info, (ClassResourceInfo, TemplateResourceInfo)):
                return False
            if name_pattern is not None and not name_pattern.match(name):
                return False
            status = info.get_class_to_instantiate().support_status
            if status.status == support.HIDDEN:
                return False
            if version is not None and status.version != version:
                return False
            if support_status is not None and status.status != support_status:
                return False
            if context is not None:
                return _available_to(context, name, info, is_allowed)
            return True

        def described(name: Any, info: Any) -> Any:
            if not with_description:
                return name
            return {"resource_type": name, "description": info.get_class().getdoc()}

        return [
            described(name, info) for name, info in self._registry.items() if selected(name, info)
        ]


def _available_to(
    context: Any, name: str, info: Any, is_allowed: Callable[[Any, str], bool] | None
) -> bool:
    if is_allowed is not None and not is_allowed(context, name):
        return False
    try:
        available, _reason = info.get_class_to_instantiate().is_service_available(context)
    except Exception:
        return False
    return bool(available)
