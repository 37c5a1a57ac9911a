"""The ``yaql`` function: a YAQL expression evaluated over the given data."""

from __future__ import annotations

import collections.abc
import functools
import threading
from collections.abc import Callable
from typing import Any

import yaql
from yaql.language import exceptions as yaql_exceptions

from keel_app.engine.template import function
from keel_app.engine.template.limits import DEFAULT_LIMITS, TemplateLimits


@functools.cache
def _parser(limit_iterators: int, memory_quota: int) -> Callable[[str], Any]:
    options = {"yaql.limitIterators": limit_iterators, "yaql.memoryQuota": memory_quota}
    parse = yaql.YaqlFactory().create(options)
    # YAQL's parser keeps its lexer's state in itself (ply), and a worker runs resources
    # in threads: two expressions parsed at once would read each other's tokens.
    one_at_a_time = threading.Lock()

    def parse_alone(expression: str) -> Any:
        with one_at_a_time:
            return parse(expression)

    return parse_alone


@functools.cache
def _root_context() -> Any:
    return yaql.create_context()


class Yaql(function.Function):
    """``yaql: {expression: ..., data: {...}}``; the data is ``$.data`` in the expression."""

    heat_class = "heat.engine.hot.functions.Yaql"

    def __init__(self, stack: Any, fn_name: str, args: Any) -> None:
        super().__init__(stack, fn_name, args)
        if not isinstance(self.args, collections.abc.Mapping):
            raise TypeError(f'Arguments to "{self.fn_name}" must be a map.')
        try:
            self._expression = self.args["expression"]
            self._data = self.args.get("data", {})
            if set(self.args) - {"expression", "data"}:
                raise KeyError
        except (KeyError, TypeError):
            example = (
                f"{self.fn_name}:\n"
                "              expression: $.data.var1.sum()\n"
                "              data:\n"
                "                var1: [3, 2, 1]"
            )
            raise KeyError(f'"{self.fn_name}" syntax should be {example}') from None

    def _limits(self) -> TemplateLimits:
        stack = self.stack
        template = getattr(stack, "t", None)
        return getattr(template, "limits", DEFAULT_LIMITS)

    def validate(self) -> None:
        super().validate()
        if not isinstance(self._expression, function.Function):
            self._parse(self._expression)

    def _parse(self, expression: Any) -> Any:
        if not isinstance(expression, str):
            raise TypeError(f'The "expression" argument to {self.fn_name} must contain a string.')
        limits = self._limits()
        parse = _parser(limits.yaql_limit_iterators, limits.yaql_memory_quota)
        try:
            return parse(expression)
        except yaql_exceptions.YaqlException as error:
            raise ValueError(f"Bad expression {error}.") from None

    def result(self) -> Any:
        statement = self._parse(function.resolve(self._expression))
        data = function.resolve(self._data)
        context = _root_context().create_child_context()
        return statement.evaluate({"data": data}, context)
