"""How the long-running commands (``keel all-in-one``, ``keel-api``) log: INFO and above
on standard error, DEBUG too with heat.conf's ``[DEFAULT] debug``.

Each request's access line and each error are worth reading at INFO; what libraries
say while they set themselves up is not.
"""

from __future__ import annotations

import logging

LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
# Alembic names each of its autogenerate plugins as it loads them, at INFO, on every start.
QUIET_LOGGERS = ("alembic.runtime.plugins",)


def configure(debug: bool) -> None:
    """Send log records to standard error, replacing whatever handlers were there."""
    logging.basicConfig(
        level=logging.DEBUG if debug else logging.INFO, format=LOG_FORMAT, force=True
    )
    for name in QUIET_LOGGERS:
        logging.getLogger(name).setLevel(logging.WARNING)
