"""The stack-user domain, which a deployment with Keystone must configure (spec section 3).

Heat creates the users that signal on a stack's behalf in a domain of their own; when
heat.conf names no such domain, Heat falls back to creating them in the caller's own
project with the caller's token. OpenKeel does not fall back: an engine of a deployment
that uses Keystone (any ``[paste_deploy] flavor`` but ``noauth``) refuses to start
without the domain and its admin, so the mistake shows at start-up rather than at the
first signal URL. The embedded default (noauth) needs no domain.
"""

from __future__ import annotations

from typing import Any

NOAUTH_FLAVOR = "noauth"


class StackDomainNotConfigured(Exception):
    """heat.conf uses Keystone but names no stack-user domain (or no domain admin)."""


def uses_keystone(conf: Any) -> bool:
    return conf.paste_deploy.flavor != NOAUTH_FLAVOR


def missing_options(conf: Any) -> list[str]:
    """The [DEFAULT] options of the stack-user domain that heat.conf leaves unset."""
    missing = []
    if not (conf.stack_user_domain_id or conf.stack_user_domain_name):
        missing.append("stack_user_domain_id (or stack_user_domain_name)")
    if not conf.stack_domain_admin:
        missing.append("stack_domain_admin")
    if not conf.stack_domain_admin_password:
        missing.append("stack_domain_admin_password")
    return missing


def require_stack_domain(conf: Any) -> None:
    """Raise ``StackDomainNotConfigured`` when Keystone is used without the domain."""
    if not uses_keystone(conf):
        return
    missing = missing_options(conf)
    if missing:
        raise StackDomainNotConfigured(
            "heat.conf uses Keystone ([paste_deploy] flavor "
            f"{conf.paste_deploy.flavor or 'keystone'!r}) but does not configure the "
            f"stack-user domain: set {', '.join(missing)} in [DEFAULT]. OpenKeel does not "
            "fall back to creating stack users in the caller's own project; use "
            "flavor = noauth for a deployment without Keystone."
        )
