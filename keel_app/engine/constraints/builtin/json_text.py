"""The ``json_string`` constraint: text that parses as JSON (empty text passes)."""

from __future__ import annotations

import json
from typing import Any

from keel_app.engine.constraints.custom import BaseCustomConstraint


class JsonStringConstraint(BaseCustomConstraint):
    def validate(self, value: Any, context: Any) -> bool:
        if not value:
            return True
        try:
            json.loads(value)
        except json.JSONDecodeError as error:
            # Only malformed text is a validation failure; a value that is not text at all
            # (a number) raises TypeError through to the caller, as in Heat.
            self._error_message = f"JSON string {value} is invalid: {error}"
            return False
        return True
