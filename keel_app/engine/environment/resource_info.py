"""One entry of a resource registry: what a resource type name stands for.

An entry is a plugin class, a template (file name or URL), a mapping to another type
name, or a glob mapping ("OS::Quantum*" -> "OS::Neutron*"). Beside entries, the
``resources`` part of a registry holds per-resource ``hooks`` and
``restricted_actions``; their values are checked here too.
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from keel_app.common.exception import InvalidBreakPointHook, InvalidRestrictedAction

if TYPE_CHECKING:
    from keel_app.engine.environment.registry import ResourceRegistry

HOOK_TYPES = (
    HOOK_PRE_CREATE,
    HOOK_PRE_UPDATE,
    HOOK_PRE_DELETE,
    HOOK_POST_CREATE,
    HOOK_POST_UPDATE,
    HOOK_POST_DELETE,
) = ("pre-create", "pre-update", "pre-delete", "post-create", "post-update", "post-delete")

RESTRICTED_ACTIONS = (UPDATE, REPLACE) = ("update", "replace")

TEMPLATE_SUFFIXES = (".yaml", ".template")

# A user's template resources may only come from the web; the operator's global
# environment may also name local files.
REMOTE_SCHEMES = ("http", "https")
LOCAL_SCHEMES = ("file",)


def valid_hook_type(hook: Any) -> bool:
    return hook in HOOK_TYPES


def valid_restricted_actions(action: Any) -> bool:
    return action in RESTRICTED_ACTIONS


def _one_or_all(value: Any, is_valid: Any) -> bool:
    if isinstance(value, str):
        return bool(is_valid(value))
    if isinstance(value, Sequence):
        return all(is_valid(item) for item in value)
    return False


def is_hook_definition(key: Any, value: Any) -> bool:
    """Whether ``key: value`` sets hooks; a ``hooks`` key with a bad value is an error."""
    if key != "hooks":
        return False
    if not _one_or_all(value, valid_hook_type):
        message = (
            f'Invalid hook type "{value}" for resource breakpoint, '
            f"acceptable hook types are: {HOOK_TYPES}"
        )
        raise InvalidBreakPointHook(message=message)
    return True


def is_valid_restricted_action(key: Any, value: Any) -> bool:
    """Whether ``key: value`` restricts actions; a bad value is an error."""
    if key != "restricted_actions":
        return False
    if not _one_or_all(value, valid_restricted_actions):
        message = (
            f'Invalid restricted_action type "{value}" for resource, '
            f"acceptable restricted_action types are: {RESTRICTED_ACTIONS}"
        )
        raise InvalidRestrictedAction(message=message)
    return True


def is_template_name(name: Any) -> bool:
    return isinstance(name, str) and name.endswith(TEMPLATE_SUFFIXES)


class ResourceInfo:
    """A registry entry; constructing one picks the kind from the name and the value."""

    description = "Base"

    __slots__ = ("_registry", "path", "name", "value", "user_resource")

    def __new__(cls, registry: ResourceRegistry, path: list[str], value: Any) -> ResourceInfo:
        if cls is not ResourceInfo:
            return super().__new__(cls)
        name = path[-1]
        kind: type[ResourceInfo]
        if name.endswith(TEMPLATE_SUFFIXES):
            kind = TemplateResourceInfo
        elif not isinstance(value, str):
            kind = ClassResourceInfo
        elif is_template_name(value):
            kind = TemplateResourceInfo
        elif name.endswith("*"):
            kind = GlobResourceInfo
        else:
            kind = MapResourceInfo
        return super().__new__(kind)

    def __init__(self, registry: ResourceRegistry, path: list[str], value: Any) -> None:
        # Entries outlive no registry; a weak reference keeps the pair collectable.
        self._registry = weakref.ref(registry)
        self.path = path
        self.name = path[-1]
        self.value = value
        self.user_resource = True

    @property
    def registry(self) -> ResourceRegistry:
        registry = self._registry()
        assert registry is not None, "a registry entry outlived its registry"
        return registry

    def copy(self) -> ResourceInfo:
        """The same entry (kind, path, value, owner) as a new object."""
        return type(self)(self.registry, self.path, self.value)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ResourceInfo):
            return False
        return (
            self.path == other.path
            and self.value == other.value
            and self.user_resource == other.user_resource
        )

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    __hash__ = None  # type: ignore[assignment]

    def __lt__(self, other: ResourceInfo) -> bool:
        # Lookup order: the user's entries first, then the more specific (longer) path.
        if self.user_resource != other.user_resource:
            return self.user_resource > other.user_resource
        if len(self.path) != len(other.path):
            return len(self.path) > len(other.path)
        return self.path < other.path

    def __gt__(self, other: ResourceInfo) -> bool:
        return other.__lt__(self)

    def get_resource_info(
        self, resource_type: str | None = None, resource_name: str | None = None
    ) -> ResourceInfo:
        return self

    def matches(self, resource_type: str) -> bool:
        return False

    def get_class(self, files: Any = None) -> Any:
        raise NotImplementedError

    def get_class_to_instantiate(self) -> Any:
        return self.get_class()

    def __str__(self) -> str:
        return f"[{self.description}](User:{self.user_resource}) {self.name} -> {self.value}"


class ClassResourceInfo(ResourceInfo):
    """A type name implemented by a plugin class."""

    description = "Plugin"

    __slots__ = ()

    def get_class(self, files: Any = None) -> Any:
        return self.value


class TemplateResourceInfo(ResourceInfo):
    """A type implemented by a template, named by the type itself or by the value."""

    description = "Template"

    __slots__ = ("template_name",)

    def __init__(self, registry: ResourceRegistry, path: list[str], value: Any) -> None:
        super().__init__(registry, path, value)
        self.template_name = self.name if self.name.endswith(TEMPLATE_SUFFIXES) else value
        self.value = self.template_name

    def allowed_schemes(self) -> tuple[str, ...]:
        return REMOTE_SCHEMES if self.user_resource else LOCAL_SCHEMES

    def template_data(self, files: Any = None) -> Any:
        """The template's text: from the files map when it is there, else fetched."""
        if files and self.template_name in files:
            return files[self.template_name]
        template_class = self.registry.template_resource_class()
        location = self.registry.template_location(self.template_name)
        return template_class.get_template_file(location, self.allowed_schemes())

    def get_class(self, files: Any = None) -> Any:
        data = self.template_data(files)
        template_class = self.registry.template_resource_class()
        return template_class.generate_class(str(self.name), data, self.registry.param_defaults)

    def get_class_to_instantiate(self) -> Any:
        return self.registry.template_resource_class()


class MapResourceInfo(ResourceInfo):
    """A type name that stands for another one (OS::Networking::Net -> OS::Neutron::Net)."""

    description = "Mapping"

    __slots__ = ()

    def get_class(self, files: Any = None) -> Any:
        return None

    def get_resource_info(
        self, resource_type: str | None = None, resource_name: str | None = None
    ) -> ResourceInfo:
        return self.registry.get_resource_info(self.value, resource_name)


class GlobResourceInfo(MapResourceInfo):
    """Every type name with a prefix mapped at once: to the same suffix, or all to one type."""

    description = "Wildcard Mapping"

    __slots__ = ()

    def get_resource_info(
        self, resource_type: str | None = None, resource_name: str | None = None
    ) -> ResourceInfo:
        assert resource_type is not None
        prefix = self.name[:-1]
        if self.value.endswith("*"):
            new_type = self.value[:-1] + resource_type[len(prefix) :]
        else:
            new_type = self.value
        return self.registry.get_resource_info(new_type, resource_name)

    def matches(self, resource_type: str) -> bool:
        # A many-to-one mapping (OS::* -> OS::Heat::None) must not match its own target.
        return resource_type != self.value and resource_type.startswith(self.name[:-1])
