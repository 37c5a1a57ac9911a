"""Custom constraints: a named validator looked up in a registry, and the validators' base.

``CustomConstraint("ip_addr")`` finds the class registered under that name (in the
environment given, else in the global registry of entry points) and asks an instance.

Service-backed validators (``nova.flavor``, ``glance.image``, ...) look a value up through
a client plugin: ``context.clients.client_plugin(name).<getter>(value)``. When the service
is not in the caller's catalog, Heat fails on keystoneauth's ``EndpointNotFound``, which
reaches the user as an HTTP 500 that hides it (docs/divergences.md). OpenKeel has no
client for such a service when the context carries no ``clients`` (the embedded default)
or its clients do not offer that one: the value is then refused as any value the
validator cannot vouch for ("Error validating value 'm1.small': The client (nova) is not
available."), which the stack reports as Heat's invalid parameter or property, a 400.
Successful checks are cached as Heat caches them, in ``[constraint_validation_cache]``
(``keel_app.clients.lookup_cache``).
"""

from __future__ import annotations

from typing import Any

from keel_app.common.exception import (
    ClientNotAvailable,
    EntityNotFound,
    InvalidSchemaError,
)
from keel_app.engine.constraints import base, registry


class CustomConstraint(base.Constraint):
    """``{"custom_constraint": "<name>"}``: validation delegated to a registered class."""

    valid_types = (
        base.STRING_TYPE,
        base.INTEGER_TYPE,
        base.NUMBER_TYPE,
        base.BOOLEAN_TYPE,
        base.LIST_TYPE,
    )

    def __init__(self, name: str, description: str | None = None, environment: Any = None) -> None:
        super().__init__(description)
        self.name = name
        self._environment = environment
        self._custom_constraint: Any = None

    def _constraint(self) -> str:
        return self.name

    @property
    def custom_constraint(self) -> Any:
        """The validator instance, or None when nothing is registered under the name."""
        if self._custom_constraint is None:
            if self._environment is not None:
                constraint_class = self._environment.get_constraint(self.name)
            else:
                constraint_class = registry.get_constraint(self.name)
            if constraint_class:
                self._custom_constraint = constraint_class()
        return self._custom_constraint

    def _str(self) -> str:
        message = getattr(self.custom_constraint, "message", None)
        return message or f"Value must be of type {self.name}"

    def _err_msg(self, value: Any) -> str:
        constraint = self.custom_constraint
        if constraint is None:
            return f'"{value}" does not validate {self.name} (constraint not found)'
        error = getattr(constraint, "error", None)
        if error:
            return str(error(value))
        return f'"{value}" does not validate {self.name}'

    def _is_valid(self, value: Any, schema: Any, context: Any) -> bool:
        constraint = self.custom_constraint
        if not constraint:
            return False
        return bool(constraint.validate(value, context))


class BaseCustomConstraint:
    """A validator that looks the value up with a client plugin's getter.

    Subclasses name ``resource_client_name`` and ``resource_getter_name`` (or override
    ``validate_with_client``) and the exceptions that mean "no such thing"; validators
    that need no service override ``validate`` and set ``_error_message`` on failure.
    """

    expected_exceptions: tuple[type[BaseException], ...] = (EntityNotFound,)
    resource_client_name: str | None = None
    resource_getter_name: str | None = None

    _error_message: str | None = None

    def error(self, value: Any) -> str:
        if self._error_message is None:
            return f"Error validating value '{value}'"
        return f"Error validating value '{value}': {self._error_message}"

    def validate(self, value: Any, context: Any) -> bool:
        clients = getattr(context, "clients", None)
        if clients is None:
            self._error_message = str(ClientNotAvailable(client_name=self.resource_client_name))
            return False

        def check() -> bool:
            try:
                self.validate_with_client(clients, value)
            except (*self.expected_exceptions, ClientNotAvailable) as error:
                self._error_message = str(error)
                return False
            return True

        cache = getattr(getattr(clients, "lookup_caches", None), "constraint_validation", None)
        if cache is None:
            return check()
        # Only what was found valid is remembered (per type, project and value): a value
        # found wanting is checked again each time.
        key = f"{type(self).__name__}:{getattr(context, 'project_id', None)}:{value!r}"
        return bool(cache.get_or_create(key, check, should_cache=bool))

    def validate_with_client(self, client: Any, resource_id: Any) -> None:
        if not (self.resource_client_name and self.resource_getter_name):
            raise InvalidSchemaError(
                message="Client name and resource getter name must be specified."
            )
        plugin = client.client_plugin(self.resource_client_name)
        getattr(plugin, self.resource_getter_name)(resource_id)
