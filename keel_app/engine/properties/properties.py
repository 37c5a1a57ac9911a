"""A resource's property values read through its schema: a read-only mapping.

Values are resolved lazily (``resolver`` is the template library's ``function.resolve``
for a resource, the identity for plain data) and coerced by each ``Property``.
``validate`` reports the first problem as ``StackValidationFailed`` with Heat's wording
and a path to the value (``Property error: properties.length: ...``); resources
prefix the path with ``resources.<name>``.
"""

from __future__ import annotations

import collections.abc
from collections.abc import Iterator
from typing import Any

from keel_app.common.exception import StackValidationFailed
from keel_app.engine.properties.property import Property
from keel_app.engine.properties.schema import Schema
from keel_app.engine.properties.translation import Translation
from keel_app.engine.template import function


def _default_resolver(data: Any, nullable: bool = False) -> Any:
    return data


class Properties(collections.abc.Mapping[str, Any]):
    def __init__(
        self,
        schema: Any,
        data: Any,
        resolver: Any = _default_resolver,
        parent_name: str | None = None,
        context: Any = None,
        section: str | None = None,
        translation: Translation | None = None,
        rsrc_description: str | None = None,
    ) -> None:
        self.props = {
            key: Property(item, key, context, path=parent_name) for key, item in schema.items()
        }
        self.resolve = resolver
        self.data = data
        self.error_prefix: list[Any] = [section] if section is not None else []
        self.parent_name = parent_name
        self.context = context
        self.translation = Translation(properties=self) if translation is None else translation
        self.rsrc_description = rsrc_description or None

    def update_translation(
        self, rules: Any, client_resolve: bool = True, ignore_resolve_error: bool = False
    ) -> None:
        self.translation.set_rules(
            rules, client_resolve=client_resolve, ignore_resolve_error=ignore_resolve_error
        )

    @staticmethod
    def schema_from_params(params_snippet: Any) -> dict[str, Schema]:
        """The facade properties of a provider template's parameter schemata."""
        if not params_snippet:
            return {}
        return {name: Schema.from_parameter(param) for name, param in params_snippet.items()}

    def validate(self, with_value: bool = True) -> None:
        """Check names always, and values too when ``with_value``."""
        try:
            for key in self.data:
                if key not in self.props:
                    raise StackValidationFailed(message=f"Unknown Property {key}")

            for key, prop in self.props.items():
                if self.translation.is_deleted(prop.path) or self.translation.is_replaced(
                    prop.path
                ):
                    continue
                if with_value:
                    self._validate_value(key, prop)
                if not prop.implemented() and key in self.data:
                    raise StackValidationFailed(message=f"Property {key} not implemented yet")
        except StackValidationFailed as error:
            # Heat extends its own prefix list in place; a second failing
            # validation of the same object repeats the prefix, as there.
            path = self.error_prefix
            path.extend(error.path)
            raise StackValidationFailed(
                error=error.error or "Property error", path=path, message=error.error_message
            ) from None

    def _validate_value(self, key: str, prop: Property) -> None:
        try:
            self._get_property_value(key, validate=True)
        except StackValidationFailed as error:
            raise StackValidationFailed(
                path=[key, *error.path], message=error.error_message
            ) from None
        except ValueError as error:
            # A missing required property is the resource's problem, not the value's.
            path = [] if prop.required() and key not in self.data else [key]
            raise StackValidationFailed(path=path, message=str(error)) from None

    @staticmethod
    def _depends_on_resource_in_init(unresolved_value: Any) -> bool:
        return any(
            resource.action == resource.INIT for resource in function.dependencies(unresolved_value)
        )

    def get_user_value(self, key: str) -> Any:
        if key not in self:
            raise KeyError(f"Invalid Property {key}")
        value, _found = self._resolve_user_value(key, self.props[key], validate=False)
        return value

    def _resolve_user_value(self, key: str, prop: Property, validate: bool) -> tuple[Any, bool]:
        """The user's value (or None) and whether one was given at all.

        A function giving None, or an explicit null, counts as given; an ``if`` that
        leaves nothing behind counts as not given.
        """
        if key not in self.data:
            return None, False
        if self.translation.is_deleted(prop.path) or self.translation.is_replaced(prop.path):
            return None, False
        try:
            unresolved = self.data[key]
            # A value built from resources not created yet cannot be checked now.
            if validate and self._depends_on_resource_in_init(unresolved):
                validate = False
            value = self.resolve(unresolved, nullable=True)
            if value is Ellipsis:
                return None, False
            if self.translation.has_translation(prop.path):
                value = self.translation.translate(prop.path, value, self.data)
            return prop.get_value(value, validate, translation=self.translation), True
        except StackValidationFailed as error:
            raise StackValidationFailed(path=error.path, message=error.error_message) from None
        except Exception as error:
            # A resolver may fail in any way; all of it reads as a bad value.
            raise ValueError(str(error)) from None

    def _get_property_value(self, key: str, validate: bool = False) -> Any:
        if key not in self:
            raise KeyError(f"Invalid Property {key}")
        prop = self.props[key]
        value, found = self._resolve_user_value(key, prop, validate)
        if found:
            return value
        if self.translation.has_translation(prop.path):
            value = self.translation.translate(prop.path, prop_data=self.data, validate=validate)
            if value is not None or prop.has_default():
                return prop.get_value(value)
        if prop.has_default():
            return prop.get_value(None, validate, translation=self.translation)
        if prop.required():
            raise ValueError(f"Property {key} not assigned")
        if key == "description" and prop.schema.update_allowed:
            return self.rsrc_description
        return None

    def __getitem__(self, key: str) -> Any:
        return self._get_property_value(key)

    def __len__(self) -> int:
        return len(self.props)

    def __contains__(self, key: object) -> bool:
        return key in self.props

    def __iter__(self) -> Iterator[str]:
        return iter(self.props)
