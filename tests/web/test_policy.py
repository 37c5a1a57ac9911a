"""Policy decisions: Heat's registered defaults, and an operator's policy file over them."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest
from oslo_config import cfg

from keel_app.common import config
from keel_app.common.context import RequestContext
from keel_app.common.exception import Forbidden
from keel_app.web import policy
from keel_app.web.policy_defaults import DEFAULTS
from tests import oracle

OWN_PROJECT = "project-a"
OTHER_PROJECT = "project-b"
ROLE_SETS: tuple[tuple[str, ...], ...] = (
    (),
    ("reader",),
    ("member",),
    ("member", "reader"),
    ("admin",),
    ("admin", "member", "reader"),
    ("heat_stack_user",),
    ("heat_stack_owner",),
)
OLD_DEFAULTS = "[oslo_policy]\nenforce_new_defaults = False\nenforce_scope = False\n"

# Heat's own enforcer, deciding every case of a JSON list: true when allowed.
HEAT_DECISIONS = """
import json, sys
conf_path, cases_path = sys.argv[1:3]
from oslo_config import cfg
from heat.common import config
cfg.CONF(["--config-file", conf_path], project="heat")
from heat.common import context, exception, policy
enforcer = policy.Enforcer()
decisions = []
for case in json.load(open(cases_path)):
    caller = context.RequestContext(
        user_id="someone", project_id=case["project_id"], roles=case["roles"],
        system_scope=case["system_scope"])
    scope, action = case["rule"].split(":", 1)
    try:
        allowed = bool(enforcer.enforce(caller, action, scope=scope,
                                        target={"project_id": case["target"]},
                                        is_registered_policy=True))
    except exception.Forbidden:
        allowed = False
    decisions.append(allowed)
print(json.dumps(decisions))
"""


def load_conf(directory: Path, text: str) -> cfg.ConfigOpts:
    path = directory / "heat.conf"
    path.write_text(text)
    return config.load(["--config-file", str(path)])


def allowed(conf: cfg.ConfigOpts, case: dict[str, Any]) -> bool:
    caller = RequestContext(
        user_id="someone",
        project_id=case["project_id"],
        roles=list(case["roles"]),
        system_scope=case["system_scope"],
    )
    scope, action = case["rule"].split(":", 1)
    try:
        policy.enforce(caller, scope, action, {"project_id": case["target"]}, conf=conf)
    except Forbidden:
        return False
    return True


def cases() -> list[dict[str, Any]]:
    """Every registered rule for callers of each role set, in the target's project or in
    another, and system-scoped callers; the target is always the own project."""
    rules = [default.name for default in DEFAULTS if ":" in default.name]
    callers = [
        (list(roles), project, None)
        for roles in ROLE_SETS
        for project in (OWN_PROJECT, OTHER_PROJECT)
    ]
    callers += [(["reader"], None, "all"), (["admin"], None, "all")]
    return [
        {
            "roles": roles,
            "project_id": project,
            "system_scope": scope,
            "rule": rule,
            "target": OWN_PROJECT,
        }
        for (roles, project, scope), rule in itertools.product(callers, rules)
    ]


@pytest.mark.oracle
@pytest.mark.parametrize("conf_text", ["", OLD_DEFAULTS], ids=["new-defaults", "old-defaults"])
def test_every_registered_rule_decides_as_heats_enforcer(tmp_path: Path, conf_text: str) -> None:
    conf = load_conf(tmp_path, conf_text)
    table = cases()
    cases_path = tmp_path / "cases.json"
    cases_path.write_text(json.dumps(table))

    heat = json.loads(oracle.run(HEAT_DECISIONS, str(tmp_path / "heat.conf"), str(cases_path)))
    ours = [allowed(conf, case) for case in table]

    differences = [
        (case, heat_decision)
        for case, heat_decision, our_decision in zip(table, heat, ours, strict=True)
        if heat_decision != our_decision
    ]
    assert differences == []
    # The table is worth something only if it holds both answers.
    assert set(heat) == {True, False}


def test_an_operators_policy_file_overrides_a_default(tmp_path: Path) -> None:
    policy_file = tmp_path / "policy.yaml"
    policy_file.write_text('"stacks:create": "role:reader"\n"build_info:build_info": "!"\n')
    conf = load_conf(tmp_path, f"[oslo_policy]\npolicy_file = {policy_file}\n")
    reader = {"roles": ["reader"], "project_id": OWN_PROJECT, "system_scope": None}
    admin = {"roles": ["admin", "member", "reader"], "project_id": OWN_PROJECT}

    decisions = {
        "reader creates": allowed(conf, {**reader, "rule": "stacks:create", "target": "x"}),
        "reader deletes": allowed(conf, {**reader, "rule": "stacks:delete", "target": OWN_PROJECT}),
        "admin reads build info": allowed(
            conf, {**admin, "system_scope": None, "rule": "build_info:build_info", "target": ""}
        ),
    }

    assert decisions == {
        "reader creates": True,
        "reader deletes": False,
        "admin reads build info": False,
    }


def test_without_a_policy_file_the_default_decides(tmp_path: Path) -> None:
    conf = load_conf(tmp_path, "")
    reader = {"roles": ["reader"], "project_id": OWN_PROJECT, "system_scope": None}

    assert allowed(conf, {**reader, "rule": "stacks:create", "target": OWN_PROJECT}) is False
    assert allowed(conf, {**reader, "rule": "stacks:index", "target": OWN_PROJECT}) is True


def test_a_refusal_names_the_rule(tmp_path: Path) -> None:
    conf = load_conf(tmp_path, "")
    caller = RequestContext(user_id="someone", project_id=OWN_PROJECT, roles=["reader"])

    with pytest.raises(Forbidden) as refused:
        policy.enforce(caller, "stacks", "create", {"project_id": OWN_PROJECT}, conf=conf)

    assert str(refused.value) == "You are not authorized to use stacks:create."
