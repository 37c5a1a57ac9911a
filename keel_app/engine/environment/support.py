"""How supported a resource type is: the status every plugin class declares.

The registry reads it to warn about deprecated types and to filter resource type
listings; the statuses and their spelling are Heat's, they travel in API answers.
"""

from __future__ import annotations

from typing import Any

SUPPORT_STATUSES = (UNKNOWN, SUPPORTED, DEPRECATED, UNSUPPORTED, HIDDEN) = (
    "UNKNOWN",
    "SUPPORTED",
    "DEPRECATED",
    "UNSUPPORTED",
    "HIDDEN",
)


class SupportStatus:
    """A status, the release it holds from, and the status it replaced."""

    def __init__(
        self,
        status: str = SUPPORTED,
        message: str | None = None,
        version: str | None = None,
        previous_status: SupportStatus | None = None,
        substitute_class: type | None = None,
    ) -> None:
        self.status = status
        self.substitute_class = substitute_class
        self.message = message
        self.version = version
        self.previous_status = previous_status
        self.validate()

    def validate(self) -> None:
        if self.previous_status is not None and not isinstance(self.previous_status, SupportStatus):
            raise ValueError(
                f"previous_status must be SupportStatus instead of {type(self.previous_status)}"
            )
        if self.status not in SUPPORT_STATUSES:
            # An unknown status is not an error: it degrades to UNKNOWN and says so.
            self.status = UNKNOWN
            self.message = f"Specified status is invalid, defaulting to {UNKNOWN}"
            self.version = None
            self.previous_status = None

    def to_dict(self) -> dict[str, Any]:
        previous = self.previous_status.to_dict() if self.previous_status is not None else None
        return {
            "status": self.status,
            "message": self.message,
            "version": self.version,
            "previous_status": previous,
        }

    def is_substituted(self, substitute_class: type) -> bool:
        if self.substitute_class is None:
            return False
        return substitute_class is self.substitute_class


def is_valid_status(status: Any) -> bool:
    return status in SUPPORT_STATUSES
