"""The database side of ``migrate_convergence_1``: may a stack tree be moved to convergence?

Moving the resources themselves needs the dependency graph of the stack's template,
which is the engine's to compute.
"""

from __future__ import annotations

import logging

from keel_app.common.exception import ActionNotComplete, NotFound, NotSupported
from keel_app.models import Stack
from keel_app.models.database import Database

LOG = logging.getLogger(__name__)


def needs_convergence_migration(database: Database, stack_id: str) -> bool:
    """False for a stack already on convergence; True for a legacy one that may move.

    Raises NotFound for a missing or deleted stack, NotSupported for a nested one and
    ActionNotComplete for one whose last action did not complete.
    """
    with database.transaction() as session:
        stack = session.get(Stack, stack_id)
        if stack is None or stack.deleted_at is not None:
            raise NotFound(f"The Stack ({stack_id}) could not be found.")
        if stack.owner_id is not None:
            raise NotSupported(feature=f"Migration of nested stack {stack_id}")
        if stack.convergence:
            LOG.info("Convergence was already enabled for stack %s", stack_id)
            return False
        if stack.status != "COMPLETE":
            raise ActionNotComplete(stack_name=stack.name, action=stack.action)
        return True
