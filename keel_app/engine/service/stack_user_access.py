"""Which resources of a stack a stack user (a caller with the stack-user role) may describe.

Heat lets a user made by a stack describe a resource only when a resource of the stack
vouches for that user's credential: an AWS::IAM::AccessKey for its access key (as far
as its user's access policies allow), a server for the user it made to fetch its
software config (that server only). A resource vouches through
``access_allowed_handlers()``: a map of credential ids (a user id or an EC2 access key)
to a check of resource names. The caller is known by its user id, or else by the access
key of the EC2 signature its request came with.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any

from keel_app.engine.settings import EngineSettings

LOG = logging.getLogger(__name__)

DEFAULT_STACK_USER_ROLE = "heat_stack_user"


def stack_user_role(settings: EngineSettings) -> str:
    domain = settings.stack_domain
    return str(domain.stack_user_role) if domain is not None else DEFAULT_STACK_USER_ROLE


def is_stack_user(context: Any, settings: EngineSettings) -> bool:
    return stack_user_role(settings) in (getattr(context, "roles", None) or [])


def access_handlers(stack: Any) -> dict[str, Callable[[str], bool]]:
    """Every credential a resource of the stack vouches for, with its check."""
    handlers: dict[str, Callable[[str], bool]] = {}
    for resource in stack.resources.values():
        offered = getattr(resource, "access_allowed_handlers", None)
        if callable(offered):
            handlers.update(offered())
    return handlers


def _ec2_access_key(context: Any) -> str | None:
    try:
        credentials = json.loads(context.aws_creds).get("ec2Credentials")
    except (TypeError, AttributeError, ValueError):
        return None
    if not credentials:
        return None
    return credentials.get("access")


def access_allowed(context: Any, stack: Any, resource_name: str) -> bool:
    """Whether the stack user of ``context`` may describe ``resource_name``."""
    handlers = access_handlers(stack)
    for credential in (getattr(context, "user_id", None), _ec2_access_key(context)):
        handler = handlers.get(credential) if credential else None
        if handler is not None and handler(resource_name):
            return True
    return False
