"""Functions over lists and maps: map_merge, map_replace, list_concat, contains, filter, repeat."""

from __future__ import annotations

import collections.abc
import itertools
import json
from typing import Any

from keel_app.engine.template import function

_HOT = "heat.engine.hot.functions."


class MapMerge(function.Function):
    """``map_merge: [map, map, ...]``: later maps win."""

    heat_class = _HOT + "MapMerge"

    def __init__(self, stack: Any, fn_name: str, args: Any) -> None:
        super().__init__(stack, fn_name, args)
        self._usage = (
            f'Incorrect arguments to "{fn_name}" should be: '
            f'"{fn_name}" : [ {{ "key1": "val1" }}, {{ "key2": "val2" }} ]'
        )

    def result(self) -> Any:
        args = function.resolve(self.args)
        if not isinstance(args, collections.abc.Sequence):
            raise TypeError(self._usage)

        def ensure_map(item: Any) -> Any:
            if item is None:
                return {}
            if isinstance(item, collections.abc.Mapping):
                return item
            raise TypeError(
                "Incorrect arguments: Items to merge must be maps. "
                f"{repr(item)[:200]} is type {type(item)} instead of a dict"
            )

        merged: dict[Any, Any] = {}
        for item in args:
            merged.update(ensure_map(item))
        return merged


class MapReplace(function.Function):
    """``map_replace: [map, {keys: {old: new}, values: {old: new}}]``."""

    heat_class = _HOT + "MapReplace"

    def __init__(self, stack: Any, fn_name: str, args: Any) -> None:
        super().__init__(stack, fn_name, args)
        self._example = (
            f'"{fn_name}" : [ {{ "key1": "val1" }}, '
            '{"keys": {"key1": "key2"}, "values": {"val1": "val2"}}]'
        )
        self._usage = f'Incorrect arguments to "{fn_name}" should be: {self._example}'

    def result(self) -> Any:
        args = function.resolve(self.args)

        def ensure_map(item: Any) -> Any:
            if item is None:
                return {}
            if isinstance(item, collections.abc.Mapping):
                return item
            raise TypeError(
                f'Incorrect arguments: to "{self.fn_name}", arguments must be a list of maps. '
                f"Example:  {self._example}"
            )

        try:
            input_map = ensure_map(args.pop(0))
            replacements = ensure_map(args.pop(0))
            if args != []:
                raise IndexError
        except (IndexError, AttributeError):
            raise TypeError(self._usage) from None

        for key in replacements:
            if key not in ("keys", "values"):
                raise ValueError(self._usage)
        new_keys = ensure_map(replacements.get("keys", {}))
        new_values = ensure_map(replacements.get("values", {}))

        replaced: dict[Any, Any] = {}
        for key, value in input_map.items():
            new_key = new_keys.get(key)
            if new_key is None:
                new_key = key
            elif new_key in input_map and new_key != key:
                raise ValueError(f"key replacement {new_key} collides with a key in the input map")
            elif new_key in replaced:
                raise ValueError(f"key replacement {new_key} collides with a key in the output map")
            try:
                new_value = new_values.get(value, value)
            except TypeError:
                # An unhashable value (a list or map) cannot be looked up: it stays.
                new_value = value
            replaced[new_key] = new_value
        return replaced


class ListConcat(function.Function):
    """``list_concat: [list, list, ...]``."""

    heat_class = _HOT + "ListConcat"
    _unique = False

    def __init__(self, stack: Any, fn_name: str, args: Any) -> None:
        super().__init__(stack, fn_name, args)
        self._usage = (
            f'Incorrect arguments to "{fn_name}" should be: '
            f'"{fn_name}" : [ [ <value 1>, <value 2> ], [ <value 3>, <value 4> ] ]'
        )

    def result(self) -> Any:
        args = function.resolve(self.args)
        if isinstance(args, str) or not isinstance(args, collections.abc.Sequence):
            raise TypeError(self._usage)

        def ensure_list(item: Any) -> Any:
            if item is None:
                return []
            if isinstance(item, collections.abc.Sequence) and not isinstance(item, str):
                return item
            raise TypeError(
                "Incorrect arguments: Items to concat must be lists. "
                f"{json.dumps(args)} contains an item that is not a list: {json.dumps(item)}"
            )

        joined: list[Any] = []
        for item in args:
            joined.extend(ensure_list(item))
        if not self._unique:
            return joined
        unique: list[Any] = []
        for item in joined:
            if item not in unique:
                unique.append(item)
        return unique


class ListConcatUnique(ListConcat):
    """``list_concat_unique``: the concatenation without repeated items."""

    heat_class = _HOT + "ListConcatUnique"
    _unique = True


class Contains(function.Function):
    """``contains: [value, sequence]``."""

    heat_class = _HOT + "Contains"

    def __init__(self, stack: Any, fn_name: str, args: Any) -> None:
        super().__init__(stack, fn_name, args)
        if not self.args or not isinstance(self.args, list):
            raise TypeError(
                f'Incorrect arguments to "{self.fn_name}" should be: '
                f'"{self.fn_name}" : [ "value1", [ "value1", "value2"]]'
            )
        try:
            self.value, self.sequence = self.args
        except ValueError:
            raise ValueError(
                f'Arguments to "{self.fn_name}" must be of the form: [value1, [value1, value2]]'
            ) from None

    def result(self) -> Any:
        value = function.resolve(self.value)
        sequence = function.resolve(self.sequence)
        if not isinstance(sequence, collections.abc.Sequence):
            raise TypeError(f'Second argument to "{self.fn_name}" should be a sequence.')
        return value in sequence


class Filter(function.Function):
    """``filter: [values, list]``: the list without the values."""

    heat_class = _HOT + "Filter"

    def __init__(self, stack: Any, fn_name: str, args: Any) -> None:
        super().__init__(stack, fn_name, args)
        if not isinstance(self.args, collections.abc.Sequence) or isinstance(self.args, str):
            raise TypeError(f'Argument to "{self.fn_name}" must be a list')
        if len(self.args) != 2:
            raise ValueError(
                f'"{self.fn_name}" expected 2 arguments of the form [values, sequence] '
                f"but got {len(self.args)} arguments instead"
            )
        self._values, self._sequence = self.args[0], self.args[1]

    def result(self) -> Any:
        sequence = function.resolve(self._sequence)
        if not sequence:
            return sequence
        if not isinstance(sequence, list):
            raise TypeError(f'"{self.fn_name}" only works with lists')
        values = function.resolve(self._values)
        if not values:
            return sequence
        if not isinstance(values, list):
            raise TypeError(f'"{self.fn_name}" filters a list of values')
        return [item for item in sequence if item not in values]


class Repeat(function.Function):
    """``repeat: {template: body, for_each: {var: list}}``: every combination of the lists."""

    heat_class = _HOT + "Repeat"

    def __init__(self, stack: Any, fn_name: str, args: Any) -> None:
        super().__init__(stack, fn_name, args)
        self._parse_args()

    def _parse_args(self) -> None:
        if not isinstance(self.args, collections.abc.Mapping):
            raise TypeError(f'Arguments to "{self.fn_name}" must be a map')
        # Unknown keys are not rejected: Heat never did.
        try:
            self._for_each = self.args["for_each"]
            self._template = self.args["template"]
        except KeyError:
            example = (
                "repeat:\n"
                "              template: This is %var%\n"
                "              for_each:\n"
                "                %var%: ['a', 'b', 'c']"
            )
            raise KeyError(f'"repeat" syntax should be {example}') from None
        self._nested_loop = True

    def validate(self) -> None:
        super().validate()
        if not isinstance(self._for_each, function.Function) and not isinstance(
            self._for_each, collections.abc.Mapping
        ):
            raise TypeError(f'The "for_each" argument to "{self.fn_name}" must contain a map')

    def _valid_arg(self, value: Any) -> None:
        if not (
            isinstance(value, (collections.abc.Sequence, function.Function))
            and not isinstance(value, str)
        ):
            raise TypeError(
                f'The values of the "for_each" argument to "{self.fn_name}" must be lists'
            )

    def _do_replacement(self, keys: Any, values: Any, template: Any) -> Any:
        if isinstance(template, str):
            for key, value in zip(keys, values, strict=False):
                template = template.replace(key, value)
            return template
        if isinstance(template, collections.abc.Sequence):
            return [self._do_replacement(keys, values, item) for item in template]
        if isinstance(template, collections.abc.Mapping):
            return {
                self._do_replacement(keys, values, key): self._do_replacement(keys, values, value)
                for key, value in template.items()
            }
        return template

    def result(self) -> Any:
        for_each = function.resolve(self._for_each)
        keys, lists = zip(*for_each.items(), strict=False)
        lengths = []
        values = []
        for value in lists:
            # A reference that resolves to nothing yet repeats nothing.
            if value is None:
                values.append([])
            else:
                self._valid_arg(value)
                values.append(value)
                lengths.append(len(value))
        if not self._nested_loop and lengths and len(set(lengths)) != 1:
            raise ValueError(
                f"For {self.fn_name}, the length of for_each values should be equal if no "
                "nested loop."
            )
        template = function.resolve(self._template)
        combinations = (
            itertools.product(*values) if self._nested_loop else zip(*values, strict=False)
        )
        return [self._do_replacement(keys, combination, template) for combination in combinations]


class RepeatWithMap(Repeat):
    """``repeat`` from 2016-10-14: a map's keys can be repeated over too."""

    heat_class = _HOT + "RepeatWithMap"

    def _valid_arg(self, value: Any) -> None:
        if not (
            isinstance(
                value,
                (collections.abc.Sequence, collections.abc.Mapping, function.Function),
            )
            and not isinstance(value, str)
        ):
            raise TypeError(
                f'The values of the "for_each" argument to "{self.fn_name}" must be lists or maps'
            )


class RepeatWithNestedLoop(RepeatWithMap):
    """``repeat`` from 2017-09-01: ``permutations: false`` pairs the lists up instead."""

    heat_class = _HOT + "RepeatWithNestedLoop"

    def _parse_args(self) -> None:
        super()._parse_args()
        self._nested_loop = self.args.get("permutations", True)
        if not isinstance(self._nested_loop, bool):
            raise TypeError(f'"permutations" should be boolean type for {self.fn_name} function.')

    def _valid_arg(self, value: Any) -> None:
        if self._nested_loop:
            super()._valid_arg(value)
        else:
            Repeat._valid_arg(self, value)
