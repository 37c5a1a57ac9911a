"""Constraints on numbers: range, length (a range on ``len(value)``) and modulo."""

from __future__ import annotations

from typing import Any

from keel_app.common.exception import InvalidSchemaError
from keel_app.engine.constraints import base
from keel_app.engine.constraints.coercion import str_to_num


class Range(base.Constraint):
    """``{"range": {"min": <min>, "max": <max>}}``: either bound may be left out, not both."""

    MIN = "min"
    MAX = "max"
    valid_types = (base.INTEGER_TYPE, base.NUMBER_TYPE)

    def __init__(self, min: Any = None, max: Any = None, description: str | None = None) -> None:
        super().__init__(description)
        self.min = min
        self.max = max
        for bound in (min, max):
            if not isinstance(bound, (float, int, type(None))):
                raise InvalidSchemaError(message="min/max must be numeric")
        if min is None and max is None:
            raise InvalidSchemaError(
                message="A range constraint must have a min value and/or a max value specified."
            )

    def _str(self) -> str:
        if self.max is None:
            return f"The value must be at least {self.min}."
        if self.min is None:
            return f"The value must be no greater than {self.max}."
        return f"The value must be in the range {self.min} to {self.max}."

    def _err_msg(self, value: Any) -> str:
        return f"{value} is out of range (min: {self.min}, max: {self.max})"

    def _is_valid(self, value: Any, schema: Any, context: Any) -> bool:
        number = str_to_num(value)
        if self.min is not None and number < self.min:
            return False
        return not (self.max is not None and number > self.max)

    def _constraint(self) -> dict[str, Any]:
        bounds = {}
        if self.min is not None:
            bounds[self.MIN] = self.min
        if self.max is not None:
            bounds[self.MAX] = self.max
        return bounds


class Length(Range):
    """``{"length": {"min": <min>, "max": <max>}}`` on strings, lists and maps."""

    valid_types = (base.STRING_TYPE, base.LIST_TYPE, base.MAP_TYPE)

    def __init__(self, min: Any = None, max: Any = None, description: str | None = None) -> None:
        if min is None and max is None:
            raise InvalidSchemaError(
                message="A length constraint must have a min value and/or a max value specified."
            )
        super().__init__(min, max, description)
        for bound in (min, max):
            if not isinstance(bound, (int, type(None))):
                raise InvalidSchemaError(message="min/max length must be integral")

    def _str(self) -> str:
        if self.max is None:
            return f"The length must be at least {self.min}."
        if self.min is None:
            return f"The length must be no greater than {self.max}."
        return f"The length must be in the range {self.min} to {self.max}."

    def _err_msg(self, value: Any) -> str:
        return f"length ({len(value):d}) is out of range (min: {self.min}, max: {self.max})"

    def _is_valid(self, value: Any, schema: Any, context: Any) -> bool:
        return super()._is_valid(len(value), schema, context)


class Modulo(base.Constraint):
    """``{"modulo": {"step": <step>, "offset": <offset>}}``: value % step == offset."""

    STEP = "step"
    OFFSET = "offset"
    valid_types = (base.INTEGER_TYPE, base.NUMBER_TYPE)

    def __init__(
        self, step: Any = None, offset: Any = None, description: str | None = None
    ) -> None:
        super().__init__(description)
        self.step = step
        self.offset = offset
        if step is None or offset is None:
            raise InvalidSchemaError(
                message="A modulo constraint must have a step value and an offset value specified."
            )
        for number in (step, offset):
            if not isinstance(number, (float, int)):
                raise InvalidSchemaError(message="step/offset must be numeric")
            if int(number) != number:
                raise InvalidSchemaError(message="step/offset must be integer")
        whole_step, whole_offset = int(step), int(offset)
        if whole_step == 0:
            raise InvalidSchemaError(message="step cannot be 0.")
        if abs(whole_offset) >= abs(whole_step):
            raise InvalidSchemaError(
                message="offset must be smaller (by absolute value) than step."
            )
        if whole_step * whole_offset < 0:
            raise InvalidSchemaError(
                message="step and offset must be both positive or both negative."
            )

    def _str(self) -> str:
        return f"The value must be a multiple of {self.step} with an offset of {self.offset}."

    def _err_msg(self, value: Any) -> str:
        return f"{value} is not a multiple of {self.step} with an offset of {self.offset}"

    def _is_valid(self, value: Any, schema: Any, context: Any) -> bool:
        return bool(str_to_num(value) % self.step == self.offset)

    def _constraint(self) -> dict[str, Any]:
        return {self.STEP: self.step, self.OFFSET: self.offset}
