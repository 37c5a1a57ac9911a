"""The stack most service tests create: two values in a chain and a resource after them."""

from __future__ import annotations

from typing import Any

TEMPLATE: dict[str, Any] = {
    "heat_template_version": "2018-08-31",
    "description": "values in a chain",
    "parameters": {"greeting": {"type": "string", "default": "hi"}},
    "resources": {
        "first": {"type": "OS::Heat::Value", "properties": {"value": {"get_param": "greeting"}}},
        "second": {
            "type": "OS::Heat::Value",
            "properties": {
                "value": {
                    "str_replace": {
                        "template": "X-y",
                        "params": {"y": {"get_attr": ["first", "value"]}},
                    }
                }
            },
        },
        "last": {"type": "OS::Heat::None", "depends_on": ["second"]},
    },
    "outputs": {
        "joined": {"value": {"get_attr": ["second", "value"]}, "description": "both"},
        "last_id": {"value": {"get_resource": "last"}},
    },
}
ENVIRONMENT = {
    "parameters": {"greeting": "hello"},
    "parameter_defaults": {},
    "resource_registry": {},
    "event_sinks": [],
    "encrypted_param_names": [],
}
