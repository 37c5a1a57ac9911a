"""The stack view that intrinsic functions resolve against.

``StackDefinition`` is what a function sees as its ``stack``: the template, the
parameters, the enabled resource definitions and, for each resource, whatever the
engine knows so far (its reference id, attribute values, action and status). Before a
resource exists, ``get_resource`` answers with its name and ``get_attr`` with ``None``;
the engine later hands in ``ResourceData`` and the same parsed definitions resolve to
the real values.
"""

from __future__ import annotations

import collections
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from keel_app.common.exception import InvalidTemplateAttribute

# The attribute every resource has that is left out of "all attributes".
SHOW_ATTRIBUTE = "show"

ACTIONS = (INIT, CREATE, DELETE, UPDATE, ROLLBACK, SUSPEND, RESUME, ADOPT, SNAPSHOT, CHECK) = (
    "INIT",
    "CREATE",
    "DELETE",
    "UPDATE",
    "ROLLBACK",
    "SUSPEND",
    "RESUME",
    "ADOPT",
    "SNAPSHOT",
    "CHECK",
)
STATUSES = (IN_PROGRESS, FAILED, COMPLETE) = ("IN_PROGRESS", "FAILED", "COMPLETE")


class ResourceState(Protocol):
    """What the engine knows about a resource that has been acted on (Heat's NodeData)."""

    action: str
    status: str

    def reference_id(self) -> Any: ...

    def attributes(self) -> dict[str, Any]: ...

    def attribute(self, name: Any) -> Any: ...

    def attribute_names(self) -> Iterator[str]: ...


@dataclass
class ResourceData:
    """A plain ``ResourceState``: attribute keys are names, or tuples (name, path...)."""

    name: str
    reference: Any = None
    attribute_values: dict[Any, Any] = field(default_factory=dict)
    action: str = CREATE
    status: str = COMPLETE

    def reference_id(self) -> Any:
        return self.reference

    def attributes(self) -> dict[str, Any]:
        values = {
            key: value for key, value in self.attribute_values.items() if isinstance(key, str)
        }
        for value in values.values():
            if isinstance(value, Exception):
                raise value
        return values

    def attribute(self, name: Any) -> Any:
        value = self.attribute_values[name]
        if isinstance(value, Exception):
            raise value
        return value

    def attribute_names(self) -> Iterator[str]:
        for key in self.attribute_values:
            yield key if isinstance(key, str) else key[0]


class ResourceProxy:
    """One resource as functions see it: its definition plus what is known of it."""

    __slots__ = ("name", "_definition", "_resource_data")

    ACTIONS = ACTIONS
    STATUSES = STATUSES
    INIT, CREATE, DELETE, UPDATE, ROLLBACK = INIT, CREATE, DELETE, UPDATE, ROLLBACK
    SUSPEND, RESUME, ADOPT, SNAPSHOT, CHECK = SUSPEND, RESUME, ADOPT, SNAPSHOT, CHECK
    IN_PROGRESS, FAILED, COMPLETE = IN_PROGRESS, FAILED, COMPLETE

    def __init__(self, name: str, definition: Any, resource_data: ResourceState | None) -> None:
        self.name = name
        self._definition = definition
        self._resource_data = resource_data

    @property
    def t(self) -> Any:
        """The resource definition."""
        return self._definition

    def _data(self) -> ResourceState:
        assert self._resource_data is not None, "Resource data not available"
        return self._resource_data

    @property
    def attributes_schema(self) -> set[str]:
        """The valid top-level attribute names (all that validation can know here)."""
        return set(self._data().attribute_names())

    @property
    def external_id(self) -> Any:
        return self._definition.external_id()

    @property
    def state(self) -> tuple[str, str]:
        return self.action, self.status

    @property
    def action(self) -> str:
        return INIT if self._resource_data is None else self._resource_data.action

    @property
    def status(self) -> str:
        return COMPLETE if self._resource_data is None else self._resource_data.status

    def FnGetRefId(self) -> Any:  # noqa: N802 - Heat's name, called by plugins too
        if self._resource_data is None:
            return self.name
        return self._resource_data.reference_id()

    def FnGetAtt(self, attribute: Any, *path: Any) -> Any:  # noqa: N802
        if path:
            attribute = (attribute, *path)
        try:
            return self._data().attribute(attribute)
        except KeyError:
            raise InvalidTemplateAttribute(resource=self.name, key=attribute) from None

    def FnGetAtts(self) -> dict[str, Any]:  # noqa: N802
        values = self._data().attributes()
        return {key: value for key, value in values.items() if key != SHOW_ATTRIBUTE}


class StackDefinition:
    """A stack as its template defines it, with whatever resource data is known."""

    def __init__(
        self,
        context: Any,
        template: Any,
        stack_identifier: Any,
        resource_data: Mapping[str, ResourceState] | None,
        parent_info: Any = None,
        availability_zones: Callable[[], list[str]] | None = None,
    ) -> None:
        self._context = context
        self._template = template
        self._resource_data: dict[str, ResourceState] = dict(resource_data or {})
        self._parent_info = parent_info
        self._zones: list[str] | None = None
        # Fn::GetAZs asks the compute service; the engine hands in how.
        self._zone_lister = availability_zones
        self.parameters = template.parameters(
            stack_identifier, template.env.params, template.env.param_defaults
        )
        self._resource_defns: dict[str, Any] | None = None
        self._resources: dict[str, ResourceProxy] = {}
        self._output_defns: dict[str, Any] | None = None
        # Per kind of definition ("resources", "outputs"): who reads what of whom.
        self._read_indexes: dict[str, AttributeReads] = {}

    def clone_with_new_template(
        self, new_template: Any, stack_identifier: Any, clear_resource_data: bool = False
    ) -> StackDefinition:
        resource_data = {} if clear_resource_data else dict(self._resource_data)
        return type(self)(
            self._context,
            new_template,
            stack_identifier,
            resource_data,
            self._parent_info,
            self._zone_lister,
        )

    @property
    def t(self) -> Any:
        return self._template

    @property
    def env(self) -> Any:
        return self._template.env

    def _load_resource_definitions(self) -> dict[str, Any]:
        if self._resource_defns is None:
            self._resource_defns = self._template.resource_definitions(self)
        return self._resource_defns

    def resource_definition(self, resource_name: str) -> Any:
        if self._resource_defns is not None:
            return self._resource_defns[resource_name]
        # A convergence step needs one resource of a template that may have thousands.
        single = getattr(self._template, "resource_definition", None)
        if single is None:
            return self._load_resource_definitions()[resource_name]
        return single(self, resource_name)

    def enabled_rsrc_names(self) -> set[str]:
        return set(self._load_resource_definitions())

    def _load_output_definitions(self) -> dict[str, Any]:
        if self._output_defns is None:
            self._output_defns = self._template.outputs(self)
        return self._output_defns

    def output_definition(self, output_name: str) -> Any:
        return self._load_output_definitions()[output_name]

    def enabled_output_names(self) -> set[str]:
        return set(self._load_output_definitions())

    def all_rsrc_names(self) -> set[str]:
        """Every resource name in the template, those disabled by conditions too."""
        if hasattr(self._template, "RESOURCES"):
            return set(self._template.get(self._template.RESOURCES, self._resource_defns or []))
        return self.enabled_rsrc_names()

    def all_resource_types(self) -> set[str]:
        definitions = self._load_resource_definitions()
        return {definition.resource_type for definition in definitions.values()}

    def get_availability_zones(self) -> list[str]:
        if self._zones is None:
            self._zones = list(self._zone_lister()) if self._zone_lister is not None else []
        return self._zones

    def __contains__(self, resource_name: Any) -> bool:
        if self._resource_defns is not None:
            return resource_name in self._resource_defns
        # While the definitions are being parsed, CFN's Ref must still tell a resource
        # from a parameter: the template's resources section answers.
        return resource_name in self._template[self._template.RESOURCES]

    def __getitem__(self, resource_name: str) -> ResourceProxy:
        if resource_name not in self._resources:
            self._resources[resource_name] = ResourceProxy(
                resource_name,
                self.resource_definition(resource_name),
                self._resource_data.get(resource_name),
            )
        return self._resources[resource_name]

    @property
    def parent_resource(self) -> Any:
        """The facade resource of a provider template's parent stack, if any."""
        return self._parent_info


class AttributeReads:
    """Which attributes of each resource a set of definitions reads, and who reads whom.

    Heat asks every definition, for every resource, which of its attributes it reads:
    quadratic in the number of resources. This keeps the answer per resource instead,
    counted from each definition's reads, and recounts a definition only once the
    data of a resource it refers to has changed (its reads may depend on that data).
    """

    def __init__(self, definitions: Mapping[str, Any]) -> None:
        self._definitions = list(definitions.values())
        self._readers: dict[str, list[Any]] | None = None
        self._counts: dict[str, collections.Counter[Any]] = collections.defaultdict(
            collections.Counter
        )
        self._counted: dict[int, list[tuple[str, Any]]] = {}
        self._uncounted = {id(definition): definition for definition in self._definitions}

    def readers(self, resource_name: str) -> list[Any]:
        """The definitions that refer to the resource."""
        if self._readers is None:
            readers = collections.defaultdict(list)
            for definition in self._definitions:
                for name in definition.required_resource_names():
                    readers[name].append(definition)
            self._readers = readers
        return self._readers.get(resource_name, [])

    def forget(self, definition: Any) -> None:
        """Drop what ``definition`` reads: it is worked out again when next asked."""
        for name, attribute in self._counted.pop(id(definition), ()):
            counter = self._counts[name]
            counter[attribute] -= 1
            if not counter[attribute]:
                del counter[attribute]
        definition._all_dep_attrs = None
        self._uncounted[id(definition)] = definition

    def read_from(self, resource_name: str) -> set[Any]:
        """The attributes of ``resource_name`` that any of the definitions reads."""
        while self._uncounted:
            key, definition = self._uncounted.popitem()
            pairs = [
                (name, attribute)
                for name, attributes in definition.all_dep_attrs_map().items()
                for attribute in attributes
            ]
            for name, attribute in pairs:
                self._counts[name][attribute] += 1
            self._counted[key] = pairs
        return set(self._counts.get(resource_name, ()))


def _loaded_definitions(stack_definition: StackDefinition) -> Iterator[tuple[str, Any]]:
    yield "resources", stack_definition._resource_defns
    yield "outputs", stack_definition._output_defns


def _read_index(stack_definition: StackDefinition, kind: str, definitions: Any) -> AttributeReads:
    index = stack_definition._read_indexes.get(kind)
    if index is None:
        index = stack_definition._read_indexes[kind] = AttributeReads(definitions)
    return index


def referenced_attributes(
    stack_definition: StackDefinition,
    resource_name: str,
    in_resources: bool = True,
    in_outputs: bool = True,
) -> set[Any]:
    """The attributes of a resource that the enabled resources and/or outputs read.

    What asking every definition's ``dep_attrs(resource_name, load_all=True)`` gives,
    in time proportional to the readers rather than to the whole stack.
    """
    referenced: set[Any] = set()
    if in_resources:
        definitions = stack_definition._load_resource_definitions()
        index = _read_index(stack_definition, "resources", definitions)
        referenced |= index.read_from(resource_name)
    if in_outputs:
        definitions = stack_definition._load_output_definitions()
        index = _read_index(stack_definition, "outputs", definitions)
        referenced |= index.read_from(resource_name)
    return referenced


def referring_resource_names(stack_definition: StackDefinition, resource_name: str) -> list[str]:
    """The enabled resources whose definitions name ``resource_name`` (and so may read it).

    The answer depends on the template alone (its parameters and conditions included), so
    it is worked out once per template object and kept on it: a convergence step asks it
    for one resource of a template that every step of the traversal shares.
    """
    template = stack_definition.t
    referrers: dict[str, list[str]] | None = getattr(template, "_keel_referrers", None)
    if referrers is None:
        built: dict[str, list[str]] = collections.defaultdict(list)
        for name, definition in stack_definition._load_resource_definitions().items():
            for required in definition.required_resource_names():
                built[required].append(name)
        referrers = dict(built)
        template._keel_referrers = referrers
    return referrers.get(resource_name, [])


def _forget_referrers(stack_definition: StackDefinition) -> None:
    stack_definition.t.__dict__.pop("_keel_referrers", None)


def update_resource_data(
    stack_definition: StackDefinition, resource_name: str, resource_data: ResourceState
) -> None:
    """Record new data for a resource and forget what was derived from the old."""
    stack_definition._resource_data[resource_name] = resource_data
    stack_definition._resources.pop(resource_name, None)
    for kind, definitions in _loaded_definitions(stack_definition):
        if not definitions:
            continue
        index = _read_index(stack_definition, kind, definitions)
        for definition in index.readers(resource_name):
            index.forget(definition)


def add_resource(stack_definition: StackDefinition, resource_definition: Any) -> None:
    name = resource_definition.name
    stack_definition._resources.pop(name, None)
    stack_definition._resource_data.pop(name, None)
    stack_definition.t.add_resource(resource_definition)
    _forget_referrers(stack_definition)
    if stack_definition._resource_defns is not None:
        stack_definition._resource_defns[name] = resource_definition
    stack_definition._read_indexes.pop("resources", None)


def remove_resource(stack_definition: StackDefinition, resource_name: str) -> None:
    stack_definition.t.remove_resource(resource_name)
    _forget_referrers(stack_definition)
    if stack_definition._resource_defns is not None:
        stack_definition._resource_defns.pop(resource_name, None)
    stack_definition._resource_data.pop(resource_name, None)
    stack_definition._resources.pop(resource_name, None)
    stack_definition._read_indexes.pop("resources", None)
