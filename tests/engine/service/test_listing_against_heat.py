"""list_stacks and count_stacks answer as Heat's do on the same database."""

from __future__ import annotations

import dataclasses
import datetime
import json
from pathlib import Path
from typing import Any

from keel_app.engine.service import stacks as service
from keel_app.models import Stack as StackRow
from keel_app.models import StackTag
from tests import oracle

HEAT_READER = Path(__file__).with_name("heat_reader.py")
TEMPLATE = {"heat_template_version": "2018-08-31", "resources": {}}
ENVIRONMENT = {
    "parameters": {},
    "parameter_defaults": {},
    "resource_registry": {},
    "event_sinks": [],
    "encrypted_param_names": [],
}
LISTINGS: list[dict[str, Any]] = [
    {},
    {"sort_keys": ["stack_name"], "sort_dir": "asc"},
    {"sort_keys": "stack_status", "sort_dir": "desc"},
    {"filters": {"stack_status": "CREATE_FAILED"}},
    {"filters": {"stack_status": ["COMPLETE", "FAILED"]}},
    {"filters": {"stack_name": ["alpha", "gamma"]}},
    {"filters": {"status": "COMPLETE"}},
    {"tags": ["red", "blue"]},
    {"tags_any": ["red", "blue"]},
    {"not_tags": ["red", "blue"]},
    {"not_tags_any": ["blue"]},
    {"limit": 2},
    {"limit": 2, "sort_keys": ["stack_name"], "sort_dir": "asc"},
    {"show_hidden": True},
    {"show_nested": True},
    {"show_deleted": True},
    {"tenant_safe": False},
]
COUNTS: list[dict[str, Any]] = [
    {},
    {"show_hidden": True},
    {"tags_any": ["red"]},
    {"filters": {"status": "FAILED"}},
    {"show_nested": True, "show_deleted": True},
    {"tenant_safe": False},
]


def _stack(context, settings, database, name: str, created: datetime.datetime, **row: Any) -> str:
    stack = service.parse_and_validate_stack(
        context, settings, database, name, TEMPLATE, json.loads(json.dumps(ENVIRONMENT)), {}, {}
    )
    stack.store()
    with database.transaction() as session:
        stored = session.get(StackRow, stack.id)
        stored.created_at = created
        for column, value in row.items():
            setattr(stored, column, value)
    return str(stack.id)


def test_listings_and_counts_answer_as_heat(context, settings, database) -> None:
    start = datetime.datetime(2026, 1, 1)
    at = [start + datetime.timedelta(minutes=minutes) for minutes in range(7)]
    ids = {
        "alpha": _stack(context, settings, database, "alpha", at[0], status="COMPLETE"),
        "beta": _stack(context, settings, database, "beta", at[1], status="FAILED"),
        "gamma": _stack(context, settings, database, "gamma", at[2], status="COMPLETE"),
        "delta": _stack(context, settings, database, "delta", at[3], status="FAILED"),
    }
    _stack(context, settings, database, "alpha-child", at[4], owner_id=ids["alpha"])
    _stack(context, settings, database, "gone", at[5], deleted_at=at[6])
    other = dataclasses.replace(context, project_id="project-b")
    _stack(other, settings, database, "elsewhere", at[6])
    with database.transaction() as session:
        session.add_all(
            [
                StackTag(stack_id=ids["alpha"], tag="red"),
                StackTag(stack_id=ids["beta"], tag="red"),
                StackTag(stack_id=ids["beta"], tag="blue"),
                StackTag(stack_id=ids["delta"], tag="secret"),
            ]
        )
    hiding = dataclasses.replace(settings, hidden_stack_tags=("secret",))
    listings = [
        *LISTINGS,
        {"marker": ids["gamma"]},
        {"marker": ids["beta"], "limit": 1, "sort_keys": ["stack_name"], "sort_dir": "asc"},
        {"marker": ids["alpha"], "sort_keys": ["stack_status", "stack_name"]},
    ]

    ours = {
        "listings": [
            service.list_stacks(context, hiding, database, None, **arguments)
            for arguments in listings
        ],
        "counts": [
            service.count_stacks(context, hiding, database, None, **arguments)
            for arguments in COUNTS
        ],
    }

    request = {
        "url": database.url.render_as_string(hide_password=False),
        "project": "project-a",
        "identity": None,
        "listings": listings,
        "counts": COUNTS,
        "hidden_stack_tags": ["secret"],
    }
    heat = oracle.run_json(HEAT_READER.read_text(), json.dumps(request))
    assert json.loads(json.dumps(ours)) == heat
