"""A resource of a stack, independent of the template format it was written in.

The sections hold parsed snippets (functions not yet resolved). Two definitions are
equal when they render to the same HOT snippet, whatever their functions resolve to.
"""

from __future__ import annotations

import collections
import copy
import functools
import itertools
import operator
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from keel_app.common.exception import (
    InvalidExternalResourceDependency,
    InvalidTemplateReference,
)
from keel_app.engine.template import function

FIELDS = (
    TYPE,
    PROPERTIES,
    METADATA,
    DELETION_POLICY,
    UPDATE_POLICY,
    DEPENDS_ON,
    DESCRIPTION,
    EXTERNAL_ID,
) = (
    "Type",
    "Properties",
    "Metadata",
    "DeletionPolicy",
    "UpdatePolicy",
    "DependsOn",
    "Description",
    "external_id",
)


class ResourceDefinition:
    DELETION_POLICIES = (DELETE, RETAIN, SNAPSHOT) = ("Delete", "Retain", "Snapshot")

    class Diff:
        """What changed between two definitions of the same resource."""

        def __init__(self, old_defn: ResourceDefinition, new_defn: ResourceDefinition) -> None:
            if not (
                isinstance(old_defn, ResourceDefinition)
                and isinstance(new_defn, ResourceDefinition)
            ):
                raise TypeError
            self.old_defn = old_defn
            self.new_defn = new_defn

        def properties_changed(self) -> bool:
            return bool(self.old_defn._properties != self.new_defn._properties)

        def metadata_changed(self) -> bool:
            return bool(self.old_defn._metadata != self.new_defn._metadata)

        def update_policy_changed(self) -> bool:
            return bool(self.old_defn._update_policy != self.new_defn._update_policy)

        def __bool__(self) -> bool:
            return (
                self.properties_changed() or self.metadata_changed() or self.update_policy_changed()
            )

    def __init__(
        self,
        name: str,
        resource_type: Any,
        properties: Any = None,
        metadata: Any = None,
        depends: Any = None,
        deletion_policy: Any = None,
        update_policy: Any = None,
        description: Any = None,
        external_id: Any = None,
        condition: Any = None,
    ) -> None:
        self.name = name
        self.resource_type = resource_type
        self.description = description or ""
        self._properties = properties
        self._metadata = metadata
        self._depends = depends
        self._deletion_policy = deletion_policy
        self._update_policy = update_policy
        self._external_id = external_id
        self._condition = condition

        self._hash = hash(self.resource_type)
        self._rendering: dict[str, Any] | None = None
        self._dep_names: set[str] | None = None
        self._all_dep_attrs: dict[str, set[Any]] | None = None
        self._frozen = False

        assert isinstance(self.description, str)
        if properties is not None:
            assert isinstance(properties, (Mapping, function.Function))
            self._hash ^= _hash_data(properties)
        if metadata is not None:
            assert isinstance(metadata, (Mapping, function.Function))
            self._hash ^= _hash_data(metadata)
        if depends is not None:
            assert isinstance(depends, (Sequence, function.Function))
            assert not isinstance(depends, str)
            self._hash ^= _hash_data(depends)
        if deletion_policy is not None:
            assert deletion_policy in self.DELETION_POLICIES
            self._hash ^= _hash_data(deletion_policy)
        if update_policy is not None:
            assert isinstance(update_policy, (Mapping, function.Function))
            self._hash ^= _hash_data(update_policy)
        if external_id is not None:
            assert isinstance(external_id, (str, function.Function))
            self._hash ^= _hash_data(external_id)
            # An external resource is never deleted by the stack.
            self._deletion_policy = self.RETAIN
        if condition is not None:
            assert isinstance(condition, (str, bool, function.Function))
            self._hash ^= _hash_data(condition)
        self.set_translation_rules()

    def freeze(self, **overrides: Any) -> ResourceDefinition:
        """A copy with every function resolved (``overrides`` replace sections)."""
        if self._frozen and not overrides:
            return self

        def argument(attribute_name: str) -> tuple[str, Any]:
            name = attribute_name.lstrip("_")
            if name in overrides:
                value = overrides[name]
                if not value and getattr(self, attribute_name) is None:
                    value = None
            else:
                value = function.resolve(getattr(self, attribute_name))
            return name, value

        names = (
            "name",
            "resource_type",
            "_properties",
            "_metadata",
            "_depends",
            "_deletion_policy",
            "_update_policy",
            "description",
            "_external_id",
            "_condition",
        )
        frozen = type(self)(**dict(argument(name) for name in names))
        frozen._frozen = True
        return frozen

    def reparse(self, stack: Any, template: Any) -> ResourceDefinition:
        """The same definition parsed for another stack and template (conditions dropped)."""
        assert not self._frozen, "Cannot re-parse a frozen definition"

        def reparse_snippet(snippet: Any) -> Any:
            return template.parse(stack, copy.deepcopy(snippet))

        return type(self)(
            self.name,
            self.resource_type,
            properties=reparse_snippet(self._properties),
            metadata=reparse_snippet(self._metadata),
            depends=reparse_snippet(self._depends),
            deletion_policy=reparse_snippet(self._deletion_policy),
            update_policy=reparse_snippet(self._update_policy),
            external_id=reparse_snippet(self._external_id),
            condition=None,
        )

    def validate(self) -> None:
        """Validate the functions in every section."""
        function.validate(self._properties, PROPERTIES)
        function.validate(self._metadata, METADATA)
        function.validate(self._depends, DEPENDS_ON)
        function.validate(self._deletion_policy, DELETION_POLICY)
        function.validate(self._update_policy, UPDATE_POLICY)
        function.validate(self._external_id, EXTERNAL_ID)

    def dep_attrs(self, resource_name: str, load_all: bool = False) -> Iterable[Any]:
        """The attributes of ``resource_name`` read by the properties and metadata."""
        if self._all_dep_attrs is None and load_all:
            attribute_map: dict[str, set[Any]] = collections.defaultdict(set)
            pairs = itertools.chain(
                function.all_dep_attrs(self._properties), function.all_dep_attrs(self._metadata)
            )
            for name, attribute in pairs:
                attribute_map[name].add(attribute)
            self._all_dep_attrs = attribute_map
        if self._all_dep_attrs is not None:
            # .get: a lookup must not add an empty entry for every resource asked about.
            return self._all_dep_attrs.get(resource_name, ())
        return itertools.chain(
            function.dep_attrs(self._properties, resource_name),
            function.dep_attrs(self._metadata, resource_name),
        )

    def all_dep_attrs_map(self) -> Mapping[str, set[Any]]:
        """Every resource name to the attributes of it this definition reads (cached)."""
        self.dep_attrs("", load_all=True)
        assert self._all_dep_attrs is not None
        return self._all_dep_attrs

    def required_resource_names(self) -> set[str]:
        """Names this definition depends on, explicitly or through functions (unchecked)."""
        if self._dep_names is None:
            explicit = [] if self._depends is None else self._depends
            property_deps = function.dependencies(self._properties, f"{self.name}.{PROPERTIES}")
            metadata_deps = function.dependencies(self._metadata, f"{self.name}.{METADATA}")
            implicit = (resource.name for resource in itertools.chain(property_deps, metadata_deps))
            if self.external_id():
                if explicit:
                    raise InvalidExternalResourceDependency(
                        external_id=self.external_id(), resource_type=self.resource_type
                    )
                self._dep_names = set()
            else:
                self._dep_names = set(itertools.chain(explicit, implicit))
        return self._dep_names

    def dependencies(self, stack: Any) -> Iterator[Any]:
        """The resources of ``stack`` this definition depends on."""

        def get_resource(name: str) -> Any:
            if name not in stack:
                if name in stack.defn.all_rsrc_names():
                    # Disabled by a condition: depending on it is allowed.
                    return None
                raise InvalidTemplateReference(resource=name, key=self.name)
            resource = stack[name]
            if getattr(resource, "strict_dependency", True):
                return resource
            return None

        return filter(None, map(get_resource, self.required_resource_names()))

    def set_translation_rules(self, rules: Any = None, client_resolve: bool = True) -> None:
        self._rules = rules or []
        self._client_resolve = client_resolve

    def properties(self, schema: Any, context: Any = None) -> Any:
        """The property values read through a plugin's properties schema."""
        # Imported here: the properties package reads this module's function library.
        from keel_app.engine.properties import Properties

        properties = Properties(
            schema,
            self._properties or {},
            function.resolve,
            context=context,
            section=PROPERTIES,
            rsrc_description=self.description,
        )
        properties.update_translation(self._rules, self._client_resolve)
        return properties

    def deletion_policy(self) -> Any:
        return function.resolve(self._deletion_policy) or self.DELETE

    def update_policy(self, schema: Any, context: Any = None) -> Any:
        """The update policy read through a plugin's update policy schema."""
        from keel_app.engine.properties import Properties

        policy = Properties(
            schema,
            self._update_policy or {},
            function.resolve,
            context=context,
            section=UPDATE_POLICY,
        )
        policy.update_translation(self._rules, self._client_resolve)
        return policy

    def metadata(self) -> Any:
        return function.resolve(self._metadata) or {}

    def external_id(self) -> Any:
        return function.resolve(self._external_id)

    def condition(self) -> Any:
        """The condition the resource exists under, ``None`` for always."""
        return function.resolve(self._condition)

    def render_hot(self) -> dict[str, Any]:
        """The definition as a HOT resource snippet (functions in their JSON form)."""
        if self._rendering is None:
            sections = {
                "type": "resource_type",
                "properties": "_properties",
                "metadata": "_metadata",
                "deletion_policy": "_deletion_policy",
                "update_policy": "_update_policy",
                "depends_on": "_depends",
                "external_id": "_external_id",
                "condition": "_condition",
            }
            self._rendering = {
                key: copy.deepcopy(getattr(self, attribute))
                for key, attribute in sections.items()
                if getattr(self, attribute) is not None
            }
        return self._rendering

    def __sub__(self, previous: object) -> Any:
        if not isinstance(previous, ResourceDefinition):
            return NotImplemented
        return self.Diff(previous, self)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ResourceDefinition):
            return NotImplemented
        return self.render_hot() == other.render_hot()

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        if equal is NotImplemented:
            return NotImplemented
        return not equal

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        names = (
            "properties",
            "metadata",
            "depends",
            "deletion_policy",
            "update_policy",
            "condition",
        )
        arguments = ", ".join(f"{name}={getattr(self, '_' + name)!r}" for name in names)
        return f"{type(self).__name__}({self.name!r}, {self.resource_type!r}, {arguments})"


def _hash_data(data: Any) -> int:
    """A hash of parsed template data that is the same for equal snippets."""
    if isinstance(data, function.Function):
        data = copy.deepcopy(data)
    if not isinstance(data, str):
        if isinstance(data, Sequence):
            return hash(tuple(_hash_data(item) for item in data))
        if isinstance(data, Mapping):
            item_hashes = (hash(key) ^ _hash_data(value) for key, value in data.items())
            return functools.reduce(operator.xor, item_hashes, 0)
    return hash(data)
