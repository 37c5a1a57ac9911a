"""The heat.conf values the engine acts on, handed in as one frozen value.

The engine reads no configuration: the edges build ``EngineSettings`` from heat.conf
(``from_conf``, which only reads attributes, so it needs no oslo import here) and
pass it to every service function. The defaults are Heat 27.0.1's.
"""

from __future__ import annotations

import socket
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from keel_app.clients.heat_endpoints import HeatEndpointSettings
from keel_app.clients.heat_endpoints import from_conf as heat_endpoint_settings
from keel_app.clients.keystone import from_conf as keystone_settings
from keel_app.clients.service_settings import ClientsSettings
from keel_app.clients.service_settings import from_conf as clients_settings
from keel_app.clients.stack_domain_users import from_conf as stack_domain_settings
from keel_app.engine.template import TemplateLimits


@dataclass(frozen=True)
class EngineSettings:
    max_resources_per_stack: int = 1000
    max_stacks_per_tenant: int = 512
    max_software_configs_per_tenant: int = 4096
    max_software_deployments_per_tenant: int = 4096
    max_nested_stack_depth: int = 5
    max_template_size: int = 524288
    max_json_body_size: int = 1048576
    max_events_per_stack: int = 1000
    max_snapshots_per_stack: int = 32
    event_purge_batch_size: int = 200
    action_retry_limit: int = 5
    stack_action_timeout: int = 3600
    convergence_engine: bool = True
    encrypt_parameters_and_properties: bool = False
    auth_encryption_key: str = "notgood but just long enough i t"
    hidden_stack_tags: tuple[str, ...] = ()
    enable_stack_abandon: bool = False
    enable_stack_adopt: bool = False
    heat_revision: str = "unknown"
    # How to reach Keystone (``keel_app.clients.keystone.KeystoneSettings``); None when
    # heat.conf has no [trustee] plugin, as in the embedded default.
    keystone: Any = None
    # The stack-user domain (``keel_app.clients.stack_domain_users.StackDomainSettings``);
    # None without Keystone, and then no resource gets a user of its own.
    stack_domain: Any = None
    # Where Heat's own APIs are, for the URLs handed to servers.
    heat_endpoints: HeatEndpointSettings = field(default_factory=HeatEndpointSettings)
    # How each cloud service is reached ([clients], [clients_<name>], the regions).
    clients: ClientsSettings = field(default_factory=ClientsSettings)
    # Heat's resource type policy (``resource_types:<type>`` rules, OS::Keystone::* for
    # admins only ...): (context, type name) -> None when the caller may use the type,
    # else the action Heat's Forbidden names. None, without heat.conf: every type.
    resource_type_policy: Callable[[Any, str], str | None] | None = None
    # What resources do where the template does not say ([DEFAULT] and [volumes]).
    default_deployment_signal_transport: str = "CFN_SIGNAL"
    default_software_config_transport: str = "POLL_SERVER_CFN"
    default_user_data_format: str = "HEAT_CFNTOOLS"
    # The Keystone interface whose URL servers are handed; "": the authtoken's auth URI.
    server_keystone_endpoint_type: str = ""
    stack_scheduler_hints: bool = False
    max_server_name_length: int = 53
    metadata_put_timeout: float = 60.0
    volume_backups_enabled: bool = True
    host: str = field(default_factory=socket.gethostname)
    # Each engine process has its own id, written into the locks it takes.
    engine_id: str = field(default_factory=lambda: str(uuid.uuid4()))

    @property
    def template_limits(self) -> TemplateLimits:
        return TemplateLimits(
            max_template_size=self.max_template_size,
            max_resources_per_stack=self.max_resources_per_stack,
            max_nested_stack_depth=self.max_nested_stack_depth,
            max_json_body_size=self.max_json_body_size,
        )


def from_conf(
    conf: Any,
    engine_id: str | None = None,
    resource_type_policy: Callable[[Any, str], str | None] | None = None,
) -> EngineSettings:
    """Settings from a parsed heat.conf ``ConfigOpts`` (or anything with those attributes);
    the resource type policy is built by the edge that has the policy enforcer."""
    values: dict[str, Any] = {
        "max_resources_per_stack": conf.max_resources_per_stack,
        "max_stacks_per_tenant": conf.max_stacks_per_tenant,
        "max_software_configs_per_tenant": conf.max_software_configs_per_tenant,
        "max_software_deployments_per_tenant": conf.max_software_deployments_per_tenant,
        "max_nested_stack_depth": conf.max_nested_stack_depth,
        "max_template_size": conf.max_template_size,
        "max_json_body_size": conf.max_json_body_size,
        "max_events_per_stack": conf.max_events_per_stack,
        "max_snapshots_per_stack": conf.max_snapshots_per_stack,
        "event_purge_batch_size": conf.event_purge_batch_size,
        "action_retry_limit": conf.action_retry_limit,
        "stack_action_timeout": conf.stack_action_timeout,
        "convergence_engine": conf.convergence_engine,
        "encrypt_parameters_and_properties": conf.encrypt_parameters_and_properties,
        "auth_encryption_key": conf.auth_encryption_key,
        "hidden_stack_tags": tuple(conf.hidden_stack_tags),
        "enable_stack_abandon": conf.enable_stack_abandon,
        "enable_stack_adopt": conf.enable_stack_adopt,
        "default_deployment_signal_transport": conf.default_deployment_signal_transport,
        "default_software_config_transport": conf.default_software_config_transport,
        "default_user_data_format": conf.default_user_data_format,
        "server_keystone_endpoint_type": conf.server_keystone_endpoint_type,
        "stack_scheduler_hints": conf.stack_scheduler_hints,
        "max_server_name_length": conf.max_server_name_length,
        "metadata_put_timeout": conf.metadata_put_timeout,
        "volume_backups_enabled": conf.volumes.backups_enabled,
        "host": conf.host,
        "heat_revision": conf.revision.heat_revision,
        "keystone": keystone_settings(conf),
        "stack_domain": stack_domain_settings(conf),
        "heat_endpoints": heat_endpoint_settings(conf),
        "clients": clients_settings(conf),
    }
    if engine_id is not None:
        values["engine_id"] = engine_id
    if resource_type_policy is not None:
        values["resource_type_policy"] = resource_type_policy
    return EngineSettings(**values)
