"""``test_constr`` (and, as registered by Heat, ``nova.network``): a constraint for tests.

Heat's version sleeps for ``value`` seconds inside the validating worker, so any template
can hold an engine for as long as it likes. OpenKeel keeps the name and the argument
checks (a non-negative number of seconds) but never sleeps: the delay is a denial of
service, not a behaviour to keep (see docs/divergences.md). It needs no context.
"""

from __future__ import annotations

import numbers
from typing import Any

from keel_app.engine.constraints.custom import BaseCustomConstraint


class TestConstraintDelay(BaseCustomConstraint):
    # Not a pytest test class, whatever its name says.
    __test__ = False

    def validate(self, value: Any, context: Any) -> bool:
        if not isinstance(value, numbers.Real):
            raise TypeError(f"'{type(value).__name__}' object cannot be interpreted as an integer")
        if value < 0:
            raise ValueError("sleep length must be non-negative")
        return True
