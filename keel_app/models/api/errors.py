"""What a failed statement means, whichever server raised it."""

from __future__ import annotations

from sqlalchemy import exc

_MYSQL_DUPLICATE_ENTRY = 1062
# 1451: a parent row is still referenced; 1452: a child row names no parent.
_MYSQL_FOREIGN_KEY = {1451, 1452}
_POSTGRESQL_UNIQUE_VIOLATION = "23505"
_POSTGRESQL_FOREIGN_KEY_VIOLATION = "23503"
_SQLITE_UNIQUE = {"SQLITE_CONSTRAINT_UNIQUE", "SQLITE_CONSTRAINT_PRIMARYKEY"}
_SQLITE_FOREIGN_KEY = "SQLITE_CONSTRAINT_FOREIGNKEY"


def _mysql_code(original: BaseException | None) -> int | None:
    code = getattr(original, "args", (None,))[0] if original is not None else None
    return code if isinstance(code, int) else None


def is_duplicate_entry(error: BaseException) -> bool:
    """An insert that collided with an existing primary or unique key."""
    if not isinstance(error, exc.IntegrityError):
        return False
    original = error.orig
    return (
        _mysql_code(original) == _MYSQL_DUPLICATE_ENTRY
        or getattr(original, "pgcode", None) == _POSTGRESQL_UNIQUE_VIOLATION
        or getattr(original, "sqlite_errorname", None) in _SQLITE_UNIQUE
    )


def is_foreign_key_violation(error: BaseException) -> bool:
    """A row that names a missing parent, or a parent deleted while still named."""
    if not isinstance(error, exc.IntegrityError):
        return False
    original = error.orig
    return (
        _mysql_code(original) in _MYSQL_FOREIGN_KEY
        or getattr(original, "pgcode", None) == _POSTGRESQL_FOREIGN_KEY_VIOLATION
        or getattr(original, "sqlite_errorname", None) == _SQLITE_FOREIGN_KEY
    )
