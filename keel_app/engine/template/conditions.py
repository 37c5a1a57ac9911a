"""The conditions section resolved: which condition names are enabled."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from keel_app.common.exception import StackValidationFailed
from keel_app.engine.template import function

# Marks a condition being resolved, so that one referring to itself is caught.
_IN_PROGRESS = object()


class Conditions:
    def __init__(self, conditions_dict: Mapping[str, Any]) -> None:
        assert isinstance(conditions_dict, Mapping)
        self._conditions = conditions_dict
        self._resolved: dict[str, Any] = {}

    def validate(self) -> None:
        for name, condition in self._conditions.items():
            self._check_condition_type(name, condition)
            function.validate(condition)

    def _resolve(self, name: str) -> Any:
        resolved = function.resolve(self._conditions[name])
        self._check_condition_type(name, resolved)
        return resolved

    @staticmethod
    def _check_condition_type(name: str, definition: Any) -> None:
        if not isinstance(definition, (bool, function.Function)):
            raise StackValidationFailed(
                error="Condition validation error",
                message=(
                    f'The definition of condition "{name}" is invalid: '
                    f"{function.message_value(definition)}"
                ),
            )

    def is_enabled(self, condition_name: Any) -> Any:
        """Whether a resource or output under this condition (a name or a boolean) exists."""
        if condition_name is None:
            return True
        if isinstance(condition_name, bool):
            return condition_name
        if not (isinstance(condition_name, str) and condition_name in self._conditions):
            raise ValueError(f'Invalid condition "{condition_name}"')
        if condition_name not in self._resolved:
            self._resolved[condition_name] = _IN_PROGRESS
            self._resolved[condition_name] = self._resolve(condition_name)
        result = self._resolved[condition_name]
        if result is _IN_PROGRESS:
            raise StackValidationFailed(
                error="Condition validation error",
                message=f'Circular definition for condition "{condition_name}"',
            )
        return result

    def __repr__(self) -> str:
        return f"Conditions({self._conditions!r})"
