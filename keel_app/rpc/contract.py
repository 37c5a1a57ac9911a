"""Heat 27.0.1's engine RPC API (topic ``engine``, version 1.36) as data: for each method,
the arguments its ``EngineClient`` method takes, their defaults, and the version it asks
for (spec section 1.2).

The client sends every argument, defaults included, so a server always receives the
full set of names listed here. Which of these methods OpenKeel serves is decided by
``keel_app.rpc.methods``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

ENGINE_API_VERSION = "1.36"


@dataclass(frozen=True)
class RpcSignature:
    """One method of Heat's ``EngineClient``."""

    version: str = "1.0"
    required: tuple[str, ...] = ()
    # Optional arguments and their defaults, in the order of Heat's signature.
    optional: Mapping[str, Any] = field(default_factory=dict)
    # Arguments only Heat's engine passes, through its ``_<method>`` variant (nested
    # stacks); the public method sends their defaults.
    internal: Mapping[str, Any] = field(default_factory=dict)
    # Heat's client sends ``value or <this>`` for these arguments.
    or_values: Mapping[str, Any] = field(default_factory=dict)
    # The client method takes ``cast=False``; True sends without waiting for a reply.
    castable: bool = False
    # An argument that is also the call's reply timeout.
    timeout_argument: str | None = None

    @property
    def arguments(self) -> tuple[str, ...]:
        """Every name the message carries."""
        return (*self.required, *self.optional, *self.internal)


_NESTING = {
    "owner_id": None,
    "nested_depth": 0,
    "user_creds_id": None,
    "stack_user_project_id": None,
    "parent_resource_name": None,
    "template_id": None,
}
_STACK_INPUTS = ("template", "params", "files", "args")
_ENVIRONMENT_FILES = {"environment_files": None, "files_container": None}
_STACK = ("stack_identity",)
_TAG_FILTERS = {"tags": None, "tags_any": None, "not_tags": None, "not_tags_any": None}
_SHOW = {"show_deleted": False, "show_nested": False, "show_hidden": False}

HEAT_ENGINE_API: dict[str, RpcSignature] = {
    "identify_stack": RpcSignature(required=("stack_name",)),
    "list_stacks": RpcSignature(
        "1.33",
        optional={
            "limit": None,
            "marker": None,
            "sort_keys": None,
            "sort_dir": None,
            "filters": None,
            **_SHOW,
            **_TAG_FILTERS,
        },
    ),
    "count_stacks": RpcSignature("1.33", optional={"filters": None, **_SHOW, **_TAG_FILTERS}),
    "show_stack": RpcSignature("1.20", _STACK, {"resolve_outputs": True}),
    "preview_stack": RpcSignature("1.36", ("stack_name", *_STACK_INPUTS), _ENVIRONMENT_FILES),
    "create_stack": RpcSignature(
        "1.36", ("stack_name", *_STACK_INPUTS), _ENVIRONMENT_FILES, internal=_NESTING
    ),
    "update_stack": RpcSignature(
        "1.36", (*_STACK, *_STACK_INPUTS), _ENVIRONMENT_FILES, internal={"template_id": None}
    ),
    "preview_update_stack": RpcSignature("1.36", (*_STACK, *_STACK_INPUTS), _ENVIRONMENT_FILES),
    "validate_template": RpcSignature(
        "1.36",
        ("template",),
        {
            "params": None,
            "files": None,
            **_ENVIRONMENT_FILES,
            "show_nested": False,
            "ignorable_errors": None,
        },
    ),
    "authenticated_to_backend": RpcSignature(),
    "get_template": RpcSignature(required=_STACK),
    "get_environment": RpcSignature("1.28", _STACK),
    "get_files": RpcSignature("1.32", _STACK),
    "delete_stack": RpcSignature(required=_STACK, castable=True),
    "abandon_stack": RpcSignature(required=_STACK),
    "list_resource_types": RpcSignature(
        "1.30",
        optional={
            "support_status": None,
            "type_name": None,
            "heat_version": None,
            "with_description": False,
        },
    ),
    "list_template_versions": RpcSignature("1.11"),
    "list_template_functions": RpcSignature(
        "1.35", ("template_version",), {"with_condition": False}
    ),
    "resource_schema": RpcSignature("1.30", ("type_name",), {"with_description": False}),
    "generate_template": RpcSignature("1.9", ("type_name",), {"template_type": "cfn"}),
    "list_events": RpcSignature(
        "1.31",
        _STACK,
        {
            "filters": None,
            "limit": None,
            "marker": None,
            "sort_keys": None,
            "sort_dir": None,
            "nested_depth": None,
        },
    ),
    "describe_stack_resource": RpcSignature(
        "1.2", (*_STACK, "resource_name"), {"with_attr": False}
    ),
    "find_physical_resource": RpcSignature(required=("physical_resource_id",)),
    "describe_stack_resources": RpcSignature(required=(*_STACK, "resource_name")),
    "list_stack_resources": RpcSignature(
        "1.25", _STACK, {"nested_depth": 0, "with_detail": False, "filters": None}
    ),
    "stack_suspend": RpcSignature(required=_STACK),
    "stack_resume": RpcSignature(required=_STACK),
    "stack_check": RpcSignature(required=_STACK),
    "stack_cancel_update": RpcSignature("1.14", _STACK, {"cancel_with_rollback": True}),
    "resource_signal": RpcSignature(
        "1.3", (*_STACK, "resource_name", "details"), {"sync_call": False}
    ),
    "resource_mark_unhealthy": RpcSignature(
        "1.26",
        (*_STACK, "resource_name", "mark_unhealthy"),
        {"resource_status_reason": None},
    ),
    "get_revision": RpcSignature(),
    "show_software_config": RpcSignature(required=("config_id",)),
    "list_software_configs": RpcSignature("1.33", optional={"limit": None, "marker": None}),
    "create_software_config": RpcSignature(
        required=("group", "name", "config"),
        optional={"inputs": None, "outputs": None, "options": None},
        or_values={"inputs": [], "outputs": [], "options": {}},
    ),
    "delete_software_config": RpcSignature(required=("config_id",)),
    "list_software_deployments": RpcSignature(optional={"server_id": None}),
    "metadata_software_deployments": RpcSignature(required=("server_id",)),
    "show_software_deployment": RpcSignature(required=("deployment_id",)),
    "check_software_deployment": RpcSignature(
        "1.27", ("deployment_id", "timeout"), timeout_argument="timeout"
    ),
    "create_software_deployment": RpcSignature(
        required=("server_id",),
        optional={
            "config_id": None,
            "input_values": None,
            "action": "INIT",
            "status": "COMPLETE",
            "status_reason": "",
            "stack_user_project_id": None,
            "deployment_id": None,
        },
        or_values={"input_values": {}},
    ),
    "update_software_deployment": RpcSignature(
        "1.5",
        ("deployment_id",),
        {
            "config_id": None,
            "input_values": None,
            "output_values": None,
            "action": None,
            "status": None,
            "status_reason": None,
            "updated_at": None,
        },
    ),
    "delete_software_deployment": RpcSignature(required=("deployment_id",)),
    "signal_software_deployment": RpcSignature(
        "1.6", ("deployment_id", "details"), {"updated_at": None}
    ),
    "stack_snapshot": RpcSignature(required=(*_STACK, "name")),
    "show_snapshot": RpcSignature(required=(*_STACK, "snapshot_id")),
    "delete_snapshot": RpcSignature(required=(*_STACK, "snapshot_id")),
    "stack_list_snapshots": RpcSignature(required=_STACK),
    "stack_restore": RpcSignature(required=(*_STACK, "snapshot_id")),
    "list_services": RpcSignature("1.4"),
    "list_outputs": RpcSignature("1.19", _STACK),
    "show_output": RpcSignature("1.19", (*_STACK, "output_key")),
    "export_stack": RpcSignature("1.22", _STACK),
    "migrate_convergence_1": RpcSignature("1.34", ("stack_id",)),
}
