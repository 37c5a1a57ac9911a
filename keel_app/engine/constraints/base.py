"""The constraint base class: a rule on a value that also reads as a HOT constraint mapping.

``dict(constraint)`` gives the HOT form, e.g. ``{"description": "...", "range": {"min": 1}}``;
``str(constraint)`` gives the human wording (the description, if any, on its own line first).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

# The data type keywords a constraint names in ``valid_types``; a schema class maps each
# of them onto the type name its templates use (its INTEGER, STRING, ... attributes).
INTEGER_TYPE = "INTEGER"
STRING_TYPE = "STRING"
NUMBER_TYPE = "NUMBER"
BOOLEAN_TYPE = "BOOLEAN"
MAP_TYPE = "MAP"
LIST_TYPE = "LIST"


class Constraint(Mapping[str, Any]):
    """A rule on allowable values, raising ``ValueError`` with Heat's wording when broken."""

    DESCRIPTION = "description"
    valid_types: tuple[str, ...] = ()

    def __init__(self, description: str | None = None) -> None:
        self.description = description

    def __str__(self) -> str:
        lines = [self.description] if self.description else []
        lines.append(self._str())
        return "\n".join(lines)

    def validate(self, value: Any, schema: Any = None, context: Any = None) -> None:
        if self._is_valid(value, schema, context):
            return
        # A template author's own wording replaces the generated one.
        raise ValueError(self.description or self._err_msg(value))

    @classmethod
    def _name(cls) -> str:
        """The HOT keyword: the class name's words in snake case (AllowedValues: allowed_values)."""
        return "_".join(word.lower() for word in re.findall("[A-Z]?[a-z]+", cls.__name__))

    def _str(self) -> str:
        raise NotImplementedError

    def _err_msg(self, value: Any) -> str:
        raise NotImplementedError

    def _is_valid(self, value: Any, schema: Any, context: Any) -> bool:
        raise NotImplementedError

    def _constraint(self) -> Any:
        raise NotImplementedError

    def __getitem__(self, key: str) -> Any:
        if key == self.DESCRIPTION and self.description is not None:
            return self.description
        if key == self._name():
            return self._constraint()
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        if self.description is not None:
            yield self.DESCRIPTION
        yield self._name()

    def __len__(self) -> int:
        return 1 if self.description is None else 2
