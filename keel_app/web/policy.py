"""Policy checks as Heat makes them: oslo.policy with Heat's registered defaults.

An operator's policy file (``[oslo_policy] policy_file``, ``policy_dirs``) overrides the
defaults of ``policy_defaults`` by rule name, as it would in Heat. The enforcer gets a
configuration object of its own (``private_conf``), read from the same files as heat.conf.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable
from typing import Any

import flask
from oslo_config import cfg
from oslo_policy import policy as oslo_policy

from keel_app.common.context import RequestContext
from keel_app.common.exception import Forbidden
from keel_app.web import private_conf
from keel_app.web.policy_defaults import DEFAULTS, PolicyDefault

# What Heat's enforcer falls back to for a rule neither registered nor in a file.
DENY_ALL = "!"

# id(conf) -> (a weak reference to conf, its enforcer): an id is reused once its object
# is gone, so an entry counts only while its reference still points at the same object.
_enforcers: dict[int, tuple[weakref.ref[cfg.ConfigOpts], oslo_policy.Enforcer]] = {}
_enforcers_lock = threading.Lock()


def rule_default(default: PolicyDefault) -> oslo_policy.RuleDefault:
    deprecated = None
    if default.deprecated_check_str is not None:
        deprecated = oslo_policy.DeprecatedRule(
            name=default.name,
            check_str=default.deprecated_check_str,
            deprecated_reason="Heat's default before its scoped roles.",
            deprecated_since=default.deprecated_since,
        )
    return oslo_policy.RuleDefault(
        name=default.name,
        check_str=default.check_str,
        scope_types=list(default.scope_types) or None,
        deprecated_rule=deprecated,
    )


def enforcer(conf: cfg.ConfigOpts) -> oslo_policy.Enforcer:
    """The enforcer of ``conf`` (made once per configuration object)."""
    with _enforcers_lock:
        entry = _enforcers.get(id(conf))
        if entry is not None and entry[0]() is conf:
            return entry[1]
        for key in [key for key, (reference, _) in _enforcers.items() if reference() is None]:
            del _enforcers[key]
        made = oslo_policy.Enforcer(private_conf.reread(conf), default_rule=DENY_ALL)
        made.suppress_deprecation_warnings = True
        made.register_defaults([rule_default(default) for default in DEFAULTS])
        _enforcers[id(conf)] = (weakref.ref(conf), made)
        return made


def policy_values(context: RequestContext) -> dict[str, Any]:
    """The credentials a rule sees: oslo.context's, plus the old keys Heat adds."""
    return {
        "user_id": context.user_id,
        "user_domain_id": context.user_domain_id,
        "system_scope": context.system_scope,
        "domain_id": context.domain_id,
        "project_id": context.project_id,
        "project_domain_id": context.project_domain_id,
        "roles": list(context.roles),
        "is_admin_project": context.is_admin_project,
        "service_user_id": None,
        "service_user_domain_id": None,
        "service_project_id": None,
        "service_project_domain_id": None,
        "service_roles": [],
        "user": context.user_id,
        "tenant": context.project_id,
        "is_admin": context.is_admin,
        "auth_token_info": context.auth_token_info,
    }


def is_admin(context: RequestContext, conf: cfg.ConfigOpts) -> bool:
    """Heat's ``context_is_admin`` rule, which an operator's policy file may redefine."""
    # Heat asks while its context is still being made: the rule sees no is_admin yet.
    values = {**policy_values(context), "is_admin": None}
    return bool(enforcer(conf).enforce("context_is_admin", {}, values))


RESOURCE_TYPE_SCOPE = "resource_types"


def resource_type_refusal(conf: cfg.ConfigOpts) -> Callable[[RequestContext, str], str | None]:
    """Heat's resource type policy, which its engine checks: the rule of the type's own
    name, then that of its namespace (``OS::Keystone::User`` -> ``OS::Keystone::*``). The
    check answers None when the caller may use the type, else the action Heat's
    Forbidden names: the rule that refused, or the type when its namespace's rule did.
    A name with no registered rule allows; an operator's file redefines registered ones
    only, as in Heat."""

    def rule_allows(context: RequestContext, rule: str) -> bool:
        try:
            return bool(enforcer(conf).authorize(rule, {}, policy_values(context)))
        except oslo_policy.PolicyNotRegistered:
            return True
        except oslo_policy.InvalidScope:
            return False

    def refusal(context: RequestContext, type_name: str) -> str | None:
        own_rule = f"{RESOURCE_TYPE_SCOPE}:{type_name}"
        if not rule_allows(context, own_rule):
            return own_rule
        namespace = "::".join([*type_name.split("::")[:-1], "*"])
        if not rule_allows(context, f"{RESOURCE_TYPE_SCOPE}:{namespace}"):
            return type_name
        return None

    return refusal


def enforce(
    context: RequestContext,
    scope: str,
    action: str,
    target: dict[str, Any],
    conf: cfg.ConfigOpts | None = None,
) -> None:
    """Raise ``Forbidden`` unless the registered rule ``<scope>:<action>`` allows."""
    if conf is None:
        conf = flask.current_app.config["HEAT_CONF"]
    rule = f"{scope}:{action}"
    try:
        allowed = enforcer(conf).authorize(rule, target, policy_values(context))
    except oslo_policy.InvalidScope:
        allowed = False
    if not allowed:
        raise Forbidden(action=rule)
