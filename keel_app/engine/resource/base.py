"""The resource plugin base class: what a type declares, and how its definition is checked.

A plugin subclasses ``Resource`` and declares, as data: ``properties_schema``,
``attributes_schema``, ``update_policy_schema``, ``update_allowed_properties``,
``support_status``, ``default_client_name`` (the client plugin whose service must be in
the caller's catalog) and ``required_service_extension``. ``Resource(name, definition,
stack)`` instantiates the class the stack's registry maps the definition's type to.

``validate_template`` is Heat's structural check (service availability, the
definition's functions, deletion policy, update policy and properties), reporting
errors under ``resources.<name>``; ``validate`` is what a plugin extends with its own
checks. The life cycle on the database (rows, lock, states, events, resource_data) is
``lifecycle.LifeCycle``; convergence drives it.

What the ``stack`` argument must offer: ``context``, ``env`` (the registry),
``t`` (the template: ``RESOURCES`` and ``get_section_name``), ``strict_validate``,
and, for some plugins' ``validate``, ``name``, ``nested_depth``, ``timeout_secs()`` and
membership/lookup of resources by name.
"""

from __future__ import annotations

import collections.abc
import inspect
import itertools
import logging
import re
import weakref
from typing import Any

from keel_app.common.exception import (
    ClientNotAvailable,
    InvalidTemplateAttribute,
    ResourceTypeUnavailable,
    StackValidationFailed,
)
from keel_app.engine.environment.support import SupportStatus
from keel_app.engine.resource import service_catalog
from keel_app.engine.resource.attributes import (
    ALL_ATTRIBUTES,
    BASE_ATTRIBUTES_SCHEMA,
    SHOW_ATTR,
    Attributes,
)
from keel_app.engine.resource.lifecycle import LifeCycle
from keel_app.engine.template import resource_definition, stack_definition
from keel_app.engine.template.functions.references import select_from_attribute

LOG = logging.getLogger(__name__)

NO_DESCRIPTION = "No description available"


# Why a type OpenKeel knows by name only is unavailable, whatever the catalog holds.
NO_LIFE_CYCLE = "OpenKeel has no life cycle for this resource type yet."


class Resource(LifeCycle):
    """A resource of a stack; subclasses are the resource types."""

    ACTIONS = stack_definition.ACTIONS
    (INIT, CREATE, DELETE, UPDATE, ROLLBACK, SUSPEND, RESUME, ADOPT, SNAPSHOT, CHECK) = ACTIONS
    STATUSES = stack_definition.STATUSES
    IN_PROGRESS, FAILED, COMPLETE = STATUSES

    BASE_ATTRIBUTES = (SHOW,) = (SHOW_ATTR,)

    # Must the resource exist before others may refer to it?
    strict_dependency = True
    # Properties that change in place on update, besides those whose schema says so.
    update_allowed_properties: tuple[str, ...] = ()
    properties_schema: dict[str, Any] = {}
    attributes_schema: dict[str, Any] = {}
    update_policy_schema: dict[str, Any] = {}
    base_attributes_schema = BASE_ATTRIBUTES_SCHEMA
    # The client's collection that ``show`` reads by default.
    entity: str | None = None
    requires_deferred_auth = False
    physical_resource_name_limit = 255
    support_status = SupportStatus()
    default_client_name: str | None = None
    required_service_extension: str | list[str] | None = None
    no_signal_actions = (SUSPEND, DELETE)
    signal_needs_metadata_updates = True
    always_replace_on_check_failed = True
    # True for a type whose handlers and checks reach nothing but the database and never
    # wait: a step of it runs again unchanged if its transaction is rolled back, so the
    # step's writes may commit together (``Database.unit_of_work``).
    acts_locally = False
    # What the API shows as the type's description (Heat shows its class docstring).
    type_description: str | None = None

    def __new__(cls, name: str, definition: Any, stack: Any) -> Resource:
        assert isinstance(definition, resource_definition.ResourceDefinition)
        if cls is not Resource:
            return super().__new__(cls)
        resource_class = stack.env.registry.get_class_to_instantiate(
            definition.resource_type, resource_name=name
        )
        assert issubclass(resource_class, Resource)
        return super().__new__(resource_class)

    def __init__(self, name: str, definition: Any, stack: Any) -> None:
        if "/" in name:
            raise StackValidationFailed(message='Resource name may not contain "/"')
        self.stack = stack
        self.context = stack.context
        self.name = name
        self.t = definition
        self.reparse(client_resolve=False)
        self.update_policy = self.t.update_policy(self.update_policy_schema, self.context)
        self._update_allowed_properties = self.calc_update_allowed(self.properties)
        self.attributes = Attributes(
            self.name, {**self.attributes_schema, **self.base_attributes_schema}
        )
        self.resource_id: Any = None
        self.action = self.INIT
        self.status = self.COMPLETE
        self.status_reason = ""

    @property
    def stack(self) -> Any:
        stack = self._stack_reference()
        assert stack is not None, "Need a reference to the Stack object"
        return stack

    @stack.setter
    def stack(self, stack: Any) -> None:
        # A stack holds its resources; the way back must not keep it alive.
        self._stack_reference = weakref.ref(stack)

    @property
    def external_id(self) -> Any:
        return self.t.external_id()

    def type(self) -> str:
        return str(self.t.resource_type)

    @classmethod
    def getdoc(cls) -> str:
        """The type's description as the resource type APIs show it."""
        if cls.type_description is not None:
            return inspect.cleandoc(cls.type_description)
        return NO_DESCRIPTION

    # Properties

    def reparse(self, client_resolve: bool = True) -> None:
        """Read the properties afresh from the definition, with the translation rules."""
        self.properties = self.t.properties(self.properties_schema, self.context)
        self.translate_properties(self.properties, client_resolve)

    def translation_rules(self, properties: Any) -> list[Any]:
        return []

    def translate_properties(
        self, properties: Any, client_resolve: bool = True, ignore_resolve_error: bool = False
    ) -> None:
        rules = self.translation_rules(properties) or []
        properties.update_translation(
            rules, client_resolve=client_resolve, ignore_resolve_error=ignore_resolve_error
        )

    def calc_update_allowed(self, properties: Any) -> set[str]:
        allowed = set(self.update_allowed_properties)
        allowed.update(name for name, prop in properties.props.items() if prop.update_allowed())
        return allowed

    # Service availability

    @classmethod
    def is_service_available(cls, context: Any) -> tuple[bool, str | None]:
        """(available, reason): whether the type's cloud service is in the catalog."""
        client_name = cls.default_client_name
        if client_name is None:
            # Implemented inside the engine (RandomString, the OS::Heat types, ...).
            return True, None
        if client_name not in service_catalog.CLIENT_SERVICE_TYPES:
            raise ClientNotAvailable(client_name=client_name)
        available, reason = service_catalog.service_available(context, client_name)
        if available and cls.required_service_extension:
            return cls._extensions_available(context, client_name)
        return available, reason

    @classmethod
    def _extensions_available(cls, context: Any, client_name: str) -> tuple[bool, str | None]:
        extensions = cls.required_service_extension
        if isinstance(extensions, str):
            extensions = re.split(" |,", extensions)
        clients = getattr(context, "clients", None)
        if clients is None:
            # Extensions can only be listed by asking the service itself.
            raise ClientNotAvailable(client_name=client_name)
        plugin = clients.client_plugin(client_name)
        for extension in extensions or []:
            if not plugin.has_extension(extension):
                return False, (
                    f"Required extension {extension} in {client_name} service is not available."
                )
        return True, None

    @classmethod
    def unavailable(cls, resource_type: str, reason: str | None) -> ResourceTypeUnavailable:
        """The refusal of the type for ``reason`` (Heat's, naming the type's client)."""
        return ResourceTypeUnavailable(
            resource_type=resource_type, service_name=cls.default_client_name, reason=reason
        )

    @classmethod
    def _validate_service_availability(cls, context: Any, resource_type: str) -> None:
        try:
            available, reason = cls.is_service_available(context)
        except Exception as error:
            LOG.exception("Resource type %s unavailable", resource_type)
            raise cls.unavailable(resource_type, str(error)) from None
        if not available:
            unavailable = cls.unavailable(resource_type, reason)
            LOG.info("%s", unavailable)
            raise unavailable

    # Dependencies and what other resources see of this one

    def add_explicit_dependencies(self, deps: Any) -> None:
        """Add the edges the template states (depends_on and function references)."""
        for required in self.t.dependencies(self.stack):
            deps += (self, required)
        deps += (self, None)

    def add_dependencies(self, deps: Any) -> None:
        """Add dependencies the type implies beyond the template's (none by default)."""
        return None

    def get_nested_parameters_stack(self) -> Any:
        """The nested stack whose parameters validation shows (plain resources have none)."""
        return None

    def get_reference_id(self) -> str:
        if self.resource_id is not None:
            return str(self.resource_id)
        return str(self.name)

    def FnGetRefId(self) -> str:  # noqa: N802 - Heat's name, called by functions and plugins
        return self.get_reference_id()

    def get_attribute(self, key: str, *path: Any) -> Any:
        """An attribute's value, resolved by the type (``_resolve_attribute``), then ``path``."""
        if key not in self.attributes:
            raise InvalidTemplateAttribute(resource=self.name, key=key)
        return select_from_attribute(self._cached_attribute(key), list(path))

    def FnGetAtt(self, key: str, *path: Any) -> Any:  # noqa: N802
        return self.get_attribute(key, *path)

    def _answers_any_attribute(self) -> bool:
        """Whether the type makes up attributes beyond its schema (groups, None, ...)."""
        cls = type(self)
        return cls.get_attribute is not Resource.get_attribute or (
            cls.FnGetAtt is not Resource.FnGetAtt
        )

    def referenced_attrs(
        self,
        stk_defn: Any = None,
        in_resources: bool = True,
        in_outputs: Any = True,
        load_all: bool = False,
    ) -> set[Any]:
        """The attributes of this resource that other resources and/or outputs read."""
        if stk_defn is None:
            stk_defn = self.stack.defn

        def read_by(definitions: Any) -> set[Any]:
            return set(
                itertools.chain.from_iterable(
                    definition.dep_attrs(self.name, load_all) for definition in definitions
                )
            )

        subset = isinstance(in_outputs, collections.abc.Iterable)
        referenced: set[Any] = set()
        if load_all and not subset and isinstance(stk_defn, stack_definition.StackDefinition):
            # The stack definition's index answers without asking every definition.
            referenced = stack_definition.referenced_attributes(
                stk_defn, self.name, bool(in_resources), bool(in_outputs)
            )
        else:
            if in_resources and isinstance(stk_defn, stack_definition.StackDefinition):
                # Only a definition that names this resource can read its attributes.
                readers = stack_definition.referring_resource_names(stk_defn, self.name)
                referenced |= read_by(stk_defn.resource_definition(name) for name in readers)
            elif in_resources:
                referenced |= read_by(
                    stk_defn.resource_definition(name) for name in stk_defn.enabled_rsrc_names()
                )
            if subset or in_outputs:
                names = in_outputs if subset else stk_defn.enabled_output_names()
                referenced |= read_by(stk_defn.output_definition(name) for name in names)
        if ALL_ATTRIBUTES in referenced:
            referenced.remove(ALL_ATTRIBUTES)
            referenced |= set(self.attributes) - {self.SHOW}
        return referenced

    def node_data(
        self, stk_defn: Any = None, for_resources: bool = True, for_outputs: Any = False
    ) -> stack_definition.ResourceData:
        """What other resources' functions see of this resource now.

        Before the resource exists, its reference is its name and every attribute that
        is read (and that the type has) is None.
        """
        load_all = not getattr(self.stack, "in_convergence_check", False)
        wanted = self.referenced_attrs(
            stk_defn, in_resources=for_resources, in_outputs=for_outputs, load_all=load_all
        )
        if for_outputs is False:
            # The outputs show what the attributes were when the resource completed, as
            # Heat's do: the cacheable ones they read are resolved (and kept) now.
            for_outputs_only = self.referenced_attrs(
                stk_defn, in_resources=False, load_all=load_all
            ) - set(wanted)
            self._attribute_values(
                attribute
                for attribute in for_outputs_only
                if self.attributes.get_cache_mode(  # type: ignore[attr-defined]
                    attribute if isinstance(attribute, str) else attribute[0]
                )
                != "cache_none"
            )
        values = self._attribute_values(wanted)
        return stack_definition.ResourceData(
            name=self.name,
            reference=self.FnGetRefId(),
            attribute_values=values,
            action=self.action,
            status=self.status,
        )

    def _attribute_values(self, wanted: Any) -> dict[Any, Any]:
        values: dict[Any, Any] = {}
        for attribute in wanted:
            path = (attribute,) if isinstance(attribute, str) else attribute
            if self.action == self.INIT:
                if path[0] in self.attributes or self._answers_any_attribute():
                    values[attribute] = None
                continue
            try:
                values[attribute] = self.FnGetAtt(*path)
            except InvalidTemplateAttribute as error:
                # Not stored: whoever reads it gets the same error then.
                LOG.info("%s", error)
            except Exception as error:
                values[attribute] = error
        return values

    # Clients (a stack's context has them when the deployment reaches a Keystone)

    def _clients_for(self, name: str | None) -> tuple[Any, str]:
        """The context's clients and the name asked for (else the type's own)."""
        client_name = name or self.default_client_name
        clients = getattr(self.context, "clients", None)
        if client_name is None or clients is None:
            raise ClientNotAvailable(client_name=client_name)
        return clients, client_name

    def client_plugin(self, name: str | None = None) -> Any:
        """The client plugin ``name`` (else the type's own) of the stack's context."""
        clients, client_name = self._clients_for(name)
        return clients.client_plugin(client_name)

    def client(self, name: str | None = None) -> Any:
        """The client of the plugin ``name`` (else of the type's own)."""
        clients, client_name = self._clients_for(name)
        return clients.client(client_name)

    def validate_external(self) -> None:
        """Check that the external resource named by ``external_id`` exists."""
        if self.external_id is None:
            return
        self.resource_id = self.external_id
        self._show_resource()

    def _show_resource(self) -> Any:
        if self.entity is None:
            return None
        # Looking the resource up needs the type's client plugin, which arrives with
        # the engine's clients.
        raise ClientNotAvailable(client_name=self.default_client_name)

    # Validation

    def validate(self) -> Any:
        """Validate the resource; plugins extend this with their own checks."""
        LOG.info("Validating %s", self)
        return self.validate_template()

    def validate_template(self) -> Any:
        """The structural checks, possible before anything exists (never overridden)."""
        self._validate_service_availability(self.stack.context, self.t.resource_type)
        try:
            self.t.validate()
            self.validate_deletion_policy(self.t.deletion_policy())
            self.t.update_policy(self.update_policy_schema, self.context).validate()
            return self.properties.validate(with_value=self.stack.strict_validate)
        except StackValidationFailed as error:
            path = [self.stack.t.RESOURCES, self.t.name]
            if error.path:
                path.append(self.stack.t.get_section_name(error.path[0]))
                path.extend(error.path[1:])
            raise StackValidationFailed(
                error=error.error, path=path, message=error.error_message
            ) from None

    @classmethod
    def supports_snapshot_deletion(cls) -> bool:
        return callable(getattr(cls, "handle_snapshot_delete", None))

    @classmethod
    def validate_deletion_policy(cls, policy: Any) -> None:
        path = resource_definition.DELETION_POLICY
        if policy not in resource_definition.ResourceDefinition.DELETION_POLICIES:
            raise StackValidationFailed(message=f'Invalid deletion policy "{policy}"', path=path)
        if (
            policy == resource_definition.ResourceDefinition.SNAPSHOT
            and not cls.supports_snapshot_deletion()
        ):
            raise StackValidationFailed(
                message=f'"{policy}" deletion policy not supported', path=path
            )

    def __str__(self) -> str:
        stack_id = getattr(self.stack, "id", None)
        if stack_id is None:
            return f'{type(self).__name__} "{self.name}"'
        if self.resource_id is not None:
            return f'{type(self).__name__} "{self.name}" [{self.resource_id}] {self.stack}'
        return f'{type(self).__name__} "{self.name}" {self.stack}'
