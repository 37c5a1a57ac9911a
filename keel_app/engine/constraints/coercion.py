"""The two coercions every schema shares: text to number, and text to boolean.

Both keep the exact rules (and messages) that Heat borrows from Python and oslo.utils,
since users see them: ``int()`` first then ``float()``; the six true and six false words.
"""

from __future__ import annotations

import numbers
from typing import Any

TRUE_STRINGS = ("1", "t", "true", "on", "y", "yes")
FALSE_STRINGS = ("0", "f", "false", "off", "n", "no")


def str_to_num(value: Any) -> Any:
    """A number as it is; text as an ``int`` when it reads as one, else as a ``float``."""
    if isinstance(value, numbers.Number):
        return value
    try:
        return int(value)
    except ValueError:
        return float(value)


def bool_from_string(subject: Any, strict: bool = False, default: bool = False) -> bool:
    """Read a boolean from any value's text; strict mode rejects unknown words."""
    if isinstance(subject, bool):
        return subject
    text = subject if isinstance(subject, str) else str(subject)
    lowered = text.strip().lower()
    if lowered in TRUE_STRINGS:
        return True
    if lowered in FALSE_STRINGS:
        return False
    if strict:
        acceptable = ", ".join(f"'{word}'" for word in sorted(TRUE_STRINGS + FALSE_STRINGS))
        raise ValueError(f"Unrecognized value '{text}', acceptable values are: {acceptable}")
    return default
