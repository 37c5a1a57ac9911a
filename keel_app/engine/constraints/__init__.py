"""Schemas and the constraints on their values (Heat's ``heat.engine.constraints``).

``Schema`` is the base of parameter schemata (``keel_app.engine.template.parameters``)
and, later, of resource property schemata. Constraints: ``Range``, ``Length``, ``Modulo``,
``AllowedValues``, ``AllowedPattern`` and ``CustomConstraint``, whose validators are
found by name in ``registry`` (entry points ``openkeel.constraints``); the validators
that need no cloud service live in ``builtin``.
"""

from keel_app.engine.constraints.base import Constraint
from keel_app.engine.constraints.custom import BaseCustomConstraint, CustomConstraint
from keel_app.engine.constraints.numeric import Length, Modulo, Range
from keel_app.engine.constraints.schema import AnyIndexDict, Schema
from keel_app.engine.constraints.values import AllowedPattern, AllowedValues

__all__ = [
    "AllowedPattern",
    "AllowedValues",
    "AnyIndexDict",
    "BaseCustomConstraint",
    "Constraint",
    "CustomConstraint",
    "Length",
    "Modulo",
    "Range",
    "Schema",
]
