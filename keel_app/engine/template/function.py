"""Intrinsic functions: parsed lazily, resolved against a stack view when asked.

A template snippet is parsed once into plain data with ``Function`` objects where a
single-key mapping names a function of the template's version. Nothing is computed
then: ``resolve`` asks each function for its result at the moment the caller needs it,
so the same parsed definition answers differently as the stack view learns resource
references and attributes. ``Macro`` functions (``if``) decide at parse time which
part of the syntax tree is parsed at all.

Errors keep Heat's shapes: a function that rejects its arguments while parsing is
reported as ``StackValidationFailed`` with the dotted path of the snippet (for
example ``resources.server.properties.name.get_param``), and ``validate`` prefixes a
function's own error with the path to it.
"""

from __future__ import annotations

import collections.abc
import copy
import itertools
import weakref
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from keel_app.common.exception import StackValidationFailed


def message_value(value: Any) -> Any:
    """A value as Heat puts it into a message: a deep copy, so functions show as data.

    Heat's messages are lazily translated, and formatting one deep-copies each value
    first (falling back to its string). A parsed function copies to its JSON form.
    """
    try:
        return copy.deepcopy(value)
    except Exception:
        return str(value)


def is_sequence(value: Any) -> bool:
    """True for lists and other iterables that are not strings (Heat's notion of a list)."""
    return not isinstance(value, str) and isinstance(value, collections.abc.Iterable)


class Function:
    """One use of an intrinsic function: ``{fn_name: args}`` bound to a stack view."""

    # Heat's module and class, shown in repr() and therefore in a few error messages.
    heat_class = "heat.engine.function.Function"

    def __init__(self, stack: Any, fn_name: str, args: Any) -> None:
        self._stack_reference = weakref.ref(stack) if stack is not None else None
        self.fn_name = fn_name
        self.args = args

    @property
    def stack(self) -> Any:
        if self._stack_reference is None:
            return None
        stack = self._stack_reference()
        assert stack is not None, "Need a reference to the StackDefinition object"
        return stack

    def validate(self) -> None:
        """Check the arguments without resolving anything."""
        validate(self.args)

    def result(self) -> Any:
        """What the function stands for, computed now."""
        return {self.fn_name: self.args}

    def dependencies(self, path: str) -> Iterator[Any]:
        return dependencies(self.args, f"{path}.{self.fn_name}")

    def dep_attrs(self, resource_name: str) -> Iterator[Any]:
        """The attributes of ``resource_name`` this function reads."""
        return dep_attrs(self.args, resource_name)

    def all_dep_attrs(self) -> Iterator[tuple[str, Any]]:
        """(resource name, attribute) for every attribute this function reads."""
        if type(self).dep_attrs is Function.dep_attrs:
            return all_dep_attrs(self.args)

        def pairs(resource_name: str) -> Iterator[tuple[str, Any]]:
            return zip(itertools.repeat(resource_name), self.dep_attrs(resource_name))

        return itertools.chain.from_iterable(map(pairs, self.stack.enabled_rsrc_names()))

    def __reduce__(self) -> Any:
        # Copying a parsed template (deepcopy pickles) gives back the JSON form.
        return dict, ([(self.fn_name, self.args)],)

    def _repr_result(self) -> str:
        try:
            return repr(self.result())
        except (TypeError, ValueError):
            return "???"

    def __repr__(self) -> str:
        return f"<{self.heat_class} {{{self.fn_name}: {self.args!r}}} -> {self._repr_result()}>"

    def __eq__(self, other: object) -> Any:
        try:
            result = self.result()
            if isinstance(other, Function):
                return result == other.result()
            return result == other
        except (TypeError, ValueError):
            return NotImplemented

    def __ne__(self, other: object) -> Any:
        equal = self.__eq__(other)
        if equal is NotImplemented:
            return NotImplemented
        return not equal

    __hash__ = None  # type: ignore[assignment]


class Macro(Function):
    """A function that controls how its own arguments are parsed."""

    heat_class = "heat.engine.function.Macro"

    def __init__(
        self,
        stack: Any,
        fn_name: str,
        raw_args: Any,
        parse_func: Callable[[Any], Any],
        template: Any,
    ) -> None:
        super().__init__(stack, fn_name, raw_args)
        self._template_reference = weakref.ref(template) if template is not None else None
        self.parsed = self.parse_args(parse_func)

    @property
    def template(self) -> Any:
        if self._template_reference is None:
            return None
        template = self._template_reference()
        assert template is not None, "Need a reference to the Template object"
        return template

    def parse_args(self, parse_func: Callable[[Any], Any]) -> Any:
        return parse_func(self.args)

    def validate(self) -> None:
        validate(self.parsed)

    def result(self) -> Any:
        return resolve(self.parsed, nullable=True)

    def dependencies(self, path: str) -> Iterator[Any]:
        return dependencies(self.parsed, f"{path}.{self.fn_name}")

    def dep_attrs(self, resource_name: str) -> Iterator[Any]:
        return dep_attrs(self.parsed, resource_name)

    def all_dep_attrs(self) -> Iterator[tuple[str, Any]]:
        if type(self).dep_attrs is Macro.dep_attrs:
            return all_dep_attrs(self.parsed)
        return super().all_dep_attrs()

    def __reduce__(self) -> Any:
        # A copy keeps what the macro chose, not the macro.
        if isinstance(self.parsed, Function):
            return self.parsed.__reduce__()
        if self.parsed is None:
            return type(None), ()
        if self.parsed is Ellipsis:
            return type(Ellipsis), ()
        return type(self.parsed), (self.parsed,)

    def _repr_result(self) -> str:
        return repr(self.parsed)


class Invalid(Function):
    """Stands for a function that may not be used where it was found."""

    heat_class = "heat.engine.function.Invalid"

    def __init__(self, stack: Any, fn_name: str, args: Any) -> None:
        raise ValueError(f'The function "{fn_name}" is invalid in this context')


def resolve(snippet: Any, nullable: bool = False) -> Any:
    """The snippet with every function replaced by its result.

    ``Ellipsis`` is what a false ``if`` without an else-value leaves behind: the item
    holding it disappears from its mapping or list (and is ``None`` at the top).
    """
    if isinstance(snippet, Function):
        result = snippet.result()
        if not nullable and result is Ellipsis:
            result = None
        return result
    if isinstance(snippet, Mapping):
        resolved_items = ((key, resolve(value, nullable=True)) for key, value in snippet.items())
        return {key: value for key, value in resolved_items if value is not Ellipsis}
    if is_sequence(snippet):
        resolved = (resolve(value, nullable=True) for value in snippet)
        return [value for value in resolved if value is not Ellipsis]
    return snippet


def validate(snippet: Any, path: list[Any] | str | None = None) -> None:
    """Validate every function in the snippet; an error names the path to its function."""
    if path is None:
        path = []
    elif isinstance(path, str):
        path = [path]

    if isinstance(snippet, Function):
        try:
            snippet.validate()
        except AssertionError:
            raise
        except Exception as error:
            raise StackValidationFailed(path=path + [snippet.fn_name], message=str(error)) from None
    elif isinstance(snippet, Mapping):
        for key, value in snippet.items():
            validate(value, path + [key])
    elif is_sequence(snippet):
        base = list(path)
        parent = base.pop() if base else ""
        for index, value in enumerate(snippet):
            validate(value, base + [f"{parent}[{index}]"])


def dependencies(snippet: Any, path: str = "") -> Iterator[Any]:
    """The resources (from the stack view) that a parsed snippet refers to."""
    if isinstance(snippet, Function):
        return snippet.dependencies(path)
    if isinstance(snippet, Mapping):
        return itertools.chain.from_iterable(
            dependencies(value, f"{path}.{key}") for key, value in snippet.items()
        )
    if is_sequence(snippet):
        return itertools.chain.from_iterable(
            dependencies(value, f"{path}[{index}]") for index, value in enumerate(snippet)
        )
    return iter(())


def dep_attrs(snippet: Any, resource_name: str) -> Iterator[Any]:
    """The attributes of one resource that a parsed snippet reads."""
    if isinstance(snippet, Function):
        return snippet.dep_attrs(resource_name)
    if isinstance(snippet, Mapping):
        return itertools.chain.from_iterable(
            dep_attrs(value, resource_name) for value in snippet.values()
        )
    if is_sequence(snippet):
        return itertools.chain.from_iterable(dep_attrs(value, resource_name) for value in snippet)
    return iter(())


def all_dep_attrs(snippet: Any) -> Iterator[tuple[str, Any]]:
    """(resource name, attribute) for every attribute a parsed snippet reads."""
    if isinstance(snippet, Function):
        return snippet.all_dep_attrs()
    if isinstance(snippet, Mapping):
        return itertools.chain.from_iterable(all_dep_attrs(value) for value in snippet.values())
    if is_sequence(snippet):
        return itertools.chain.from_iterable(all_dep_attrs(value) for value in snippet)
    return iter(())


FunctionTable = Mapping[str, Callable[..., Any]]


def parse(
    functions: FunctionTable,
    stack: Any,
    snippet: Any,
    path: str = "",
    template: Any = None,
) -> Any:
    """Turn every single-key mapping naming a function of ``functions`` into that function."""

    def recurse(value: Any, value_path: str) -> Any:
        return parse(functions, stack, value, value_path, template)

    if isinstance(snippet, Mapping):
        if len(snippet) == 1:
            fn_name, args = next(iter(snippet.items()))
            function_class = functions.get(fn_name)
            if function_class is not None:
                function_path = f"{path}.{fn_name}"
                try:
                    if isinstance(function_class, type) and issubclass(function_class, Macro):
                        return function_class(
                            stack,
                            fn_name,
                            args,
                            lambda value: recurse(value, function_path),
                            template,
                        )
                    return function_class(stack, fn_name, recurse(args, function_path))
                except (ValueError, TypeError, KeyError) as error:
                    raise StackValidationFailed(path=function_path, message=str(error)) from None
        return {key: recurse(value, f"{path}.{key}") for key, value in snippet.items()}
    if is_sequence(snippet):
        return [recurse(value, f"{path}[{index}]") for index, value in enumerate(snippet)]
    return snippet
