"""Condition functions (equals, not, and, or) and the ``if`` macro."""

from __future__ import annotations

import collections.abc
from collections.abc import Callable
from typing import Any

from keel_app.engine.template import function

_HOT = "heat.engine.hot.functions."


class If(function.Macro):
    """``if: [condition, value_if_true, value_if_false]``: only the chosen value is parsed."""

    heat_class = _HOT + "If"

    def _read_args(self) -> Any:
        return self.args

    def parse_args(self, parse_func: Callable[[Any], Any]) -> Any:
        try:
            if (
                not self.args
                or not isinstance(self.args, collections.abc.Sequence)
                or isinstance(self.args, str)
            ):
                raise ValueError()
            condition, value_if_true, value_if_false = self._read_args()
        except ValueError:
            raise ValueError(
                f'Arguments to "{self.fn_name}" must be of the form: '
                "[condition_name, value_if_true, value_if_false]"
            ) from None
        parsed_condition = self.template.parse_condition(self.stack, condition, self.fn_name)
        enabled = self._get_condition(function.resolve(parsed_condition))
        return parse_func(value_if_true if enabled else value_if_false)

    def _get_condition(self, condition: Any) -> Any:
        if isinstance(condition, bool):
            return condition
        return self.template.conditions(self.stack).is_enabled(condition)


class IfNullable(If):
    """``if`` from 2021-04-16: without a false value, a false ``if`` removes its item."""

    heat_class = _HOT + "IfNullable"

    def _read_args(self) -> Any:
        if not 2 <= len(self.args) <= 3:
            raise ValueError()
        if len(self.args) == 2:
            condition, value_if_true = self.args
            return condition, value_if_true, Ellipsis
        return self.args


class ConditionBoolean(function.Function):
    """What and/or/not share: arguments are condition names or booleans."""

    heat_class = _HOT + "ConditionBoolean"

    def __init__(self, stack: Any, fn_name: str, args: Any) -> None:
        super().__init__(stack, fn_name, args)
        self._check_args()

    def _check_args(self) -> None:
        if not (isinstance(self.args, collections.abc.Sequence) and not isinstance(self.args, str)):
            raise ValueError(f'Arguments to "{self.fn_name}" must be a list of conditions')
        if not self.args or len(self.args) < 2:
            raise ValueError(f'The minimum number of condition arguments to "{self.fn_name}" is 2.')

    def _get_condition(self, argument: Any) -> Any:
        if isinstance(argument, bool):
            return argument
        return self.stack.t.conditions(self.stack).is_enabled(argument)


class Not(ConditionBoolean):
    """``not: condition``."""

    heat_class = _HOT + "Not"

    def _check_args(self) -> None:
        self.condition = self.args
        if self.args is None:
            raise ValueError(f'Argument to "{self.fn_name}" must be a condition')

    def result(self) -> Any:
        return not self._get_condition(function.resolve(self.condition))


class And(ConditionBoolean):
    """``and: [condition, condition, ...]``."""

    heat_class = _HOT + "And"

    def result(self) -> Any:
        return all(self._get_condition(item) for item in function.resolve(self.args))


class Or(ConditionBoolean):
    """``or: [condition, condition, ...]``."""

    heat_class = _HOT + "Or"

    def result(self) -> Any:
        return any(self._get_condition(item) for item in function.resolve(self.args))


class Equals(function.Function):
    """``equals: [value_1, value_2]``."""

    heat_class = _HOT + "Equals"

    def __init__(self, stack: Any, fn_name: str, args: Any) -> None:
        super().__init__(stack, fn_name, args)
        try:
            if not self.args or not isinstance(self.args, list):
                raise ValueError()
            self.value1, self.value2 = self.args
        except ValueError:
            raise ValueError(
                f'Arguments to "{self.fn_name}" must be of the form: [value_1, value_2]'
            ) from None

    def result(self) -> Any:
        return function.resolve(self.value1) == function.resolve(self.value2)
