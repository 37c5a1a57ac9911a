"""Who is asking: the two facts of a request context that the db api filters rows by."""

from __future__ import annotations

from typing import Protocol


class Scope(Protocol):
    """A request context as far as the database cares.

    Read-only properties, so that frozen dataclasses and Heat-style contexts both fit.
    """

    @property
    def is_admin(self) -> bool: ...

    @property
    def project_id(self) -> str | None: ...
