"""A stack and a new version of it with one resource in each category of an update
preview: unchanged, updated in place, replaced (by a new type or by a property that
cannot change in place), added and deleted."""

from __future__ import annotations

from typing import Any

BEFORE: dict[str, Any] = {
    "heat_template_version": "2018-08-31",
    "resources": {
        "keep": {"type": "OS::Heat::Value", "properties": {"value": "same"}},
        "change": {"type": "OS::Heat::Value", "properties": {"value": "old"}},
        "swap": {"type": "OS::Heat::None"},
        "rebuild": {
            "type": "OS::Heat::TestResource",
            "properties": {"value": "a", "update_replace": True},
        },
        "gone": {"type": "OS::Heat::None"},
    },
}
AFTER: dict[str, Any] = {
    "heat_template_version": "2018-08-31",
    "resources": {
        "keep": {"type": "OS::Heat::Value", "properties": {"value": "same"}},
        "change": {"type": "OS::Heat::Value", "properties": {"value": "new"}},
        "swap": {"type": "OS::Heat::Value", "properties": {"value": "v"}},
        "rebuild": {
            "type": "OS::Heat::TestResource",
            "properties": {"value": "b", "update_replace": True},
        },
        "added": {"type": "OS::Heat::None"},
    },
}
EMPTY_ENVIRONMENT: dict[str, Any] = {
    "parameters": {},
    "parameter_defaults": {},
    "resource_registry": {},
    "event_sinks": [],
    "encrypted_param_names": [],
}
