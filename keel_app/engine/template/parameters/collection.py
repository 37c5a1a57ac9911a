"""The parameters of a stack: the template's, with the user's values and defaults, plus
the pseudo parameters of the template's dialect (``OS::stack_name``, ``AWS::StackId`` ...).

A mapping from name to value. ``parameter_defaults`` apply only to parameters the
template declares; a value for a parameter the template does not declare is an error at
``validate()``: ``The Parameter (x) was not defined in template.``
"""

from __future__ import annotations

import abc
import itertools
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

from keel_app.common.exception import UnknownUserParameter
from keel_app.engine.template.parameters.parameter import Parameter


class Parameters(Mapping[str, Any], metaclass=abc.ABCMeta):
    """A stack's parameters; ``parameters[name]`` is the typed value in force."""

    PSEUDO_PARAMETERS: tuple[str, ...] = ()
    PARAM_STACK_ID = ""

    def __init__(
        self,
        stack_identifier: Any,
        tmpl: Any,
        user_params: Mapping[str, Any] | None = None,
        param_defaults: Mapping[str, Any] | None = None,
    ) -> None:
        user_params = user_params or {}
        param_defaults = param_defaults or {}
        self.tmpl = tmpl
        self.user_params = user_params

        declared = (
            Parameter(name, schema, user_params.get(name))
            for name, schema in tmpl.param_schemata().items()
        )
        pseudo = self._pseudo_parameters(stack_identifier)
        # A template parameter named like a pseudo parameter replaces it.
        self.params: dict[str, Parameter] = {
            parameter.name: parameter for parameter in itertools.chain(pseudo, declared)
        }
        self.non_pseudo_param_keys = [
            name for name in self.params if name not in self.PSEUDO_PARAMETERS
        ]
        for name, default in param_defaults.items():
            if name in self.params:
                self.params[name].set_default(default)

    def validate(self, validate_value: bool = True, context: Any = None) -> None:
        """Refuse values for undeclared parameters, then validate every parameter."""
        self._validate_user_parameters()
        for parameter in self.params.values():
            parameter.validate(validate_value, context)

    def __contains__(self, key: object) -> bool:
        return key in self.params

    def __iter__(self) -> Iterator[str]:
        return iter(self.params)

    def __len__(self) -> int:
        return len(self.params)

    def __getitem__(self, key: str) -> Any:
        return self.params[key].value()

    def map(
        self,
        func: Callable[[Parameter], Any],
        filter_func: Callable[[Parameter], bool] = lambda parameter: True,
    ) -> dict[str, Any]:
        """``{name: func(parameter)}`` for the parameters that pass ``filter_func``."""
        return {
            name: func(parameter)
            for name, parameter in self.params.items()
            if filter_func(parameter)
        }

    def set_stack_id(self, stack_identifier: Any) -> bool:
        """Give the stack-id pseudo parameter its value, once the stack has an identity."""
        if stack_identifier is None:
            return False
        self.params[self.PARAM_STACK_ID].schema.set_default(self._stack_id_text(stack_identifier))
        return True

    def _stack_id_text(self, stack_identifier: Any) -> str:
        return str(stack_identifier.arn())

    def _validate_user_parameters(self) -> None:
        schemata = self.tmpl.param_schemata()
        for name in self.user_params:
            if name not in schemata:
                raise UnknownUserParameter(key=name)

    @abc.abstractmethod
    def _pseudo_parameters(self, stack_identifier: Any) -> Iterable[Parameter]:
        """The dialect's pseudo parameters for a stack with this identity (or None)."""

    def immutable_params_modified(
        self, new_parameters: Parameters, input_params: Mapping[str, Any]
    ) -> list[str] | None:
        """The immutable parameters whose value an update would change, or None."""
        # Only a parameter both stacks have can have been changed.
        common = [
            name
            for name in self.non_pseudo_param_keys
            if name in new_parameters.non_pseudo_param_keys
        ]
        changed = []
        for name in common:
            if name in input_params:
                new_value = input_params[name]
            else:
                new_value = new_parameters[name]
            immutable = new_parameters.params[name].schema.immutable
            if immutable and self.params[name].value() != new_value:
                changed.append(name)
        return changed or None
