"""Heat 27.0.1's registered policy defaults: rule name, check string, scope types and
the deprecated rule each replaces, so that an operator's policy file means here what it
means to Heat (``oslo_policy`` overrides by these names)."""

from __future__ import annotations

from dataclasses import dataclass

# The check string several read-only rules share.
READER_OR_STACK_USER = (
    "(role:reader and project_id:%(project_id)s)"
    " or (role:heat_stack_user and project_id:%(project_id)s)"
)


@dataclass(frozen=True)
class PolicyDefault:
    name: str
    check_str: str
    scope_types: tuple[str, ...] = ()
    # The rule name and check string this default replaced, honoured until the
    # operator turns on ``[oslo_policy] enforce_new_defaults``.
    deprecated_check_str: str | None = None
    deprecated_since: str | None = None


DEFAULTS: tuple[PolicyDefault, ...] = (
    PolicyDefault("context_is_admin", "(role:admin and is_admin_project:True)"),
    PolicyDefault("project_admin", "role:admin"),
    PolicyDefault("deny_stack_user", "not role:heat_stack_user"),
    PolicyDefault("deny_everybody", "!"),
    PolicyDefault("allow_everybody", ""),
    PolicyDefault(
        "actions:action",
        "role:member and project_id:%(project_id)s",
        scope_types=("project",),
        deprecated_check_str="rule:deny_stack_user",
        deprecated_since="W",
    ),
    PolicyDefault(
        "actions:snapshot",
        "role:member and project_id:%(project_id)s",
        scope_types=("project",),
        deprecated_check_str="rule:deny_stack_user",
        deprecated_since="W",
    ),
    PolicyDefault(
        "actions:suspend",
        "role:member and project_id:%(project_id)s",
        scope_types=("project",),
        deprecated_check_str="rule:deny_stack_user",
        deprecated_since="W",
    ),
    PolicyDefault(
        "actions:resume",
        "role:member and project_id:%(project_id)s",
        scope_types=("project",),
        deprecated_check_str="rule:deny_stack_user",
        deprecated_since="W",
    ),
    PolicyDefault(
        "actions:check",
        "role:reader and project_id:%(project_id)s",
        scope_types=("project",),
        deprecated_check_str="rule:deny_stack_user",
        deprecated_since="W",
    ),
    PolicyDefault(
        "actions:cancel_update",
        "role:member and project_id:%(project_id)s",
        scope_types=("project",),
        deprecated_check_str="rule:deny_stack_user",
        deprecated_since="W",
    ),
    PolicyDefault(
        "actions:cancel_without_rollback",
        "role:member and project_id:%(project_id)s",
        scope_types=("project",),
        deprecated_check_str="rule:deny_stack_user",
        deprecated_since="W",
    ),
    PolicyDefault(
        "build_info:build_info",
        "role:reader and project_id:%(project_id)s",
        scope_types=("project",),
        deprecated_check_str="rule:deny_stack_user",
        deprecated_since="W",
    ),
    PolicyDefault(
        "cloudformation:ListStacks",
        "role:reader and project_id:%(project_id)s",
        scope_types=("project",),
        deprecated_check_str="rule:deny_stack_user",
        deprecated_since="W",
    ),
    PolicyDefault(
        "cloudformation:CreateStack",
        "role:member and project_id:%(project_id)s",
        scope_types=("project",),
        deprecated_check_str="rule:deny_stack_user",
        deprecated_since="W",
    ),
    PolicyDefault(
        "cloudformation:DescribeStacks",
        "role:reader and project_id:%(project_id)s",
        scope_types=("project",),
        deprecated_check_str="rule:deny_stack_user",
        deprecated_since="W",
    ),
    PolicyDefault(
        "cloudformation:DeleteStack",
        "role:member and project_id:%(project_id)s",
        scope_types=("project",),
        deprecated_check_str="rule:deny_stack_user",
        deprecated_since="W",
    ),
    PolicyDefault(
        "cloudformation:UpdateStack",
        "role:member and project_id:%(project_id)s",
        scope_types=("project",),
        deprecated_check_str="rule:deny_stack_user",
        deprecated_since="W",
    ),
    PolicyDefault(
        "cloudformation:CancelUpdateStack",
        "role:member and project_id:%(project_id)s",
        scope_types=("project",),
        deprecated_check_str="rule:deny_stack_user",
        deprecated_since="W",
    ),
    PolicyDefault(
        "cloudformation:DescribeStackEvents",
        "role:reader and project_id:%(project_id)s",
        scope_types=("project",),
        deprecated_check_str="rule:deny_stack_user",
        deprecated_since="W",
    ),
    PolicyDefault(
        "cloudformation:ValidateTemplate",
        "role:reader and project_id:%(project_id)s",
        scope_types=("project",),
        deprecated_check_str="rule:deny_stack_user",
        deprecated_since="W",
    ),
    PolicyDefault(
        "cloudformation:GetTemplate",
        "role:reader and project_id:%(project_id)s",
        scope_types=("project",),
        deprecated_check_str="rule:deny_stack_user",
        deprecated_since="W",
    ),
    PolicyDefault(
        "cloudformation:EstimateTemplateCost",
        "role:reader and project_id:%(project_id)s",
        scope_types=("project",),
        deprecated_check_str="rule:deny_stack_user",
        deprecated_since="W",
    ),
    PolicyDefault(
        "cloudformation:DescribeStackResource",
        READER_OR_STACK_USER,
        scope_types=("project",),
        deprecated_check_str="rule:allow_everybody",
        deprecated_since="W",
    ),
    PolicyDefault(
        "cloudformation:DescribeStackResources",
        "role:reader and project_id:%(project_id)s",
        scope_types=("project",),
        deprecated_check_str="rule:deny_stack_user",
        deprecated_since="W",
    ),
    PolicyDefault(
        "cloudformation:ListStackResources",
        "role:reader and project_id:%(project_id)s",
        scope_types=("project",),
        deprecated_check_str="rule:deny_stack_user",
        deprecated_since="W",
    ),
    PolicyDefault(
        "events:index",
        "role:reader and project_id:%(project_id)s",
        scope_types=("project",),
        deprecated_check_str="rule:deny_stack_user",
        deprecated_since="W",
    ),
    PolicyDefault(
        "events:show",
        "role:reader and project_id:%(project_id)s",
        scope_types=("project",),
        deprecated_check_str="rule:deny_stack_user",
        deprecated_since="W",
    ),
    PolicyDefault(
        "resource:index",
        "role:reader and project_id:%(project_id)s",
        scope_types=("project",),
        deprecated_check_str="rule:deny_stack_user",
        deprecated_since="W",
    ),
    PolicyDefault(
        "resource:metadata",
        READER_OR_STACK_USER,
        scope_types=("project",),
        deprecated_check_str="rule:allow_everybody",
        deprecated_since="W",
    ),
    PolicyDefault(
        "resource:signal",
        READER_OR_STACK_USER,
        scope_types=("project",),
        deprecated_check_str="rule:allow_everybody",
        deprecated_since="W",
    ),
    PolicyDefault(
        "resource:mark_unhealthy",
        "role:member and project_id:%(project_id)s",
        scope_types=("project",),
        deprecated_check_str="rule:deny_stack_user",
        deprecated_since="W",
    ),
    PolicyDefault(
        "resource:show",
        "role:reader and project_id:%(project_id)s",
        scope_types=("project",),
        deprecated_check_str="rule:deny_stack_user",
        deprecated_since="W",
    ),
    PolicyDefault(
        "resource_types:OS::Nova::Flavor", "rule:project_admin", scope_types=("project",)
    ),
    PolicyDefault(
        "resource_types:OS::Cinder::EncryptedVolumeType",
        "rule:project_admin",
        scope_types=("project",),
    ),
    PolicyDefault(
        "resource_types:OS::Cinder::VolumeType", "rule:project_admin", scope_types=("project",)
    ),
    PolicyDefault(
        "resource_types:OS::Cinder::Quota", "rule:project_admin", scope_types=("project",)
    ),
    PolicyDefault(
        "resource_types:OS::Neutron::Quota", "rule:project_admin", scope_types=("project",)
    ),
    PolicyDefault("resource_types:OS::Nova::Quota", "rule:project_admin", scope_types=("project",)),
    PolicyDefault(
        "resource_types:OS::Octavia::Quota", "rule:project_admin", scope_types=("project",)
    ),
    PolicyDefault(
        "resource_types:OS::Manila::ShareType", "rule:project_admin", scope_types=("project",)
    ),
    PolicyDefault(
        "resource_types:OS::Neutron::ProviderNet", "rule:project_admin", scope_types=("project",)
    ),
    PolicyDefault(
        "resource_types:OS::Neutron::QoSPolicy", "rule:project_admin", scope_types=("project",)
    ),
    PolicyDefault(
        "resource_types:OS::Neutron::QoSBandwidthLimitRule",
        "rule:project_admin",
        scope_types=("project",),
    ),
    PolicyDefault(
        "resource_types:OS::Neutron::QoSDscpMarkingRule",
        "rule:project_admin",
        scope_types=("project",),
    ),
    PolicyDefault(
        "resource_types:OS::Neutron::QoSMinimumBandwidthRule",
        "rule:project_admin",
        scope_types=("project",),
    ),
    PolicyDefault(
        "resource_types:OS::Neutron::QoSMinimumPacketRateRule",
        "rule:project_admin",
        scope_types=("project",),
    ),
    PolicyDefault(
        "resource_types:OS::Neutron::Segment", "rule:project_admin", scope_types=("project",)
    ),
    PolicyDefault(
        "resource_types:OS::Nova::HostAggregate", "rule:project_admin", scope_types=("project",)
    ),
    PolicyDefault(
        "resource_types:OS::Cinder::QoSSpecs", "rule:project_admin", scope_types=("project",)
    ),
    PolicyDefault(
        "resource_types:OS::Cinder::QoSAssociation", "rule:project_admin", scope_types=("project",)
    ),
    PolicyDefault("resource_types:OS::Keystone::*", "rule:project_admin", scope_types=("project",)),
    PolicyDefault(
        "resource_types:OS::Blazar::Host", "rule:project_admin", scope_types=("project",)
    ),
    PolicyDefault(
        "resource_types:OS::Octavia::Flavor", "rule:project_admin", scope_types=("project",)
    ),
    PolicyDefault(
        "resource_types:OS::Octavia::FlavorProfile", "rule:project_admin", scope_types=("project",)
    ),
    PolicyDefault(
        "resource_types:OS::Octavia::AvailabilityZone",
        "rule:project_admin",
        scope_types=("project",),
    ),
    PolicyDefault(
        "resource_types:OS::Octavia::AvailabilityZoneProfile",
        "rule:project_admin",
        scope_types=("project",),
    ),
    PolicyDefault(
        "service:index",
        "role:admin and project_id:%(project_id)s",
        scope_types=("project",),
        deprecated_check_str="rule:context_is_admin",
        deprecated_since="W",
    ),
    PolicyDefault("software_configs:global_index", "rule:deny_everybody"),
    PolicyDefault(
        "software_configs:index",
        "role:reader and project_id:%(project_id)s",
        scope_types=("project",),
        deprecated_check_str="rule:deny_stack_user",
        deprecated_since="W",
    ),
    PolicyDefault(
        "software_configs:create",
        "role:member and project_id:%(project_id)s",
        scope_types=("project",),
        deprecated_check_str="rule:deny_stack_user",
        deprecated_since="W",
    ),
    PolicyDefault(
        "software_configs:show",
        "role:reader and project_id:%(project_id)s",
        scope_types=("project",),
        deprecated_check_str="rule:deny_stack_user",
        deprecated_since="W",
    ),
    PolicyDefault(
        "software_configs:delete",
        "role:member and project_id:%(project_id)s",
        scope_types=("project",),
        deprecated_check_str="rule:deny_stack_user",
        deprecated_since="W",
    ),
    PolicyDefault(
        "software_deployments:index",
        "role:reader and project_id:%(project_id)s",
        scope_types=("project",),
        deprecated_check_str="rule:deny_stack_user",
        deprecated_since="W",
    ),
    PolicyDefault(
        "software_deployments:create",
        "role:member and project_id:%(project_id)s",
        scope_types=("project",),
        deprecated_check_str="rule:deny_stack_user",
        deprecated_since="W",
    ),
    PolicyDefault(
        "software_deployments:show",
        "role:reader and project_id:%(project_id)s",
        scope_types=("project",),
        deprecated_check_str="rule:deny_stack_user",
        deprecated_since="W",
    ),
    PolicyDefault(
        "software_deployments:update",
        "role:member and project_id:%(project_id)s",
        scope_types=("project",),
        deprecated_check_str="rule:deny_stack_user",
        deprecated_since="W",
    ),
    PolicyDefault(
        "software_deployments:delete",
        "role:member and project_id:%(project_id)s",
        scope_types=("project",),
        deprecated_check_str="rule:deny_stack_user",
        deprecated_since="W",
    ),
    PolicyDefault(
        "software_deployments:metadata",
        READER_OR_STACK_USER,
        scope_types=("project",),
    ),
    PolicyDefault(
        "stacks:abandon",
        "role:member and project_id:%(project_id)s",
        scope_types=("project",),
        deprecated_check_str="rule:deny_stack_user",
        deprecated_since="W",
    ),
    PolicyDefault(
        "stacks:create",
        "role:member and project_id:%(project_id)s",
        scope_types=("project",),
        deprecated_check_str="rule:deny_stack_user",
        deprecated_since="W",
    ),
    PolicyDefault(
        "stacks:delete",
        "role:member and project_id:%(project_id)s",
        scope_types=("project",),
        deprecated_check_str="rule:deny_stack_user",
        deprecated_since="W",
    ),
    PolicyDefault(
        "stacks:detail",
        "role:reader and project_id:%(project_id)s",
        scope_types=("project",),
        deprecated_check_str="rule:deny_stack_user",
        deprecated_since="W",
    ),
    PolicyDefault(
        "stacks:export",
        "role:member and project_id:%(project_id)s",
        scope_types=("project",),
        deprecated_check_str="rule:deny_stack_user",
        deprecated_since="W",
    ),
    PolicyDefault(
        "stacks:generate_template",
        "role:member and project_id:%(project_id)s",
        scope_types=("project",),
        deprecated_check_str="rule:deny_stack_user",
        deprecated_since="W",
    ),
    PolicyDefault("stacks:global_index", "rule:deny_everybody"),
    PolicyDefault(
        "stacks:index",
        "role:reader and project_id:%(project_id)s",
        scope_types=("project",),
        deprecated_check_str="rule:deny_stack_user",
        deprecated_since="W",
    ),
    PolicyDefault(
        "stacks:list_resource_types",
        "role:reader and project_id:%(project_id)s",
        scope_types=("project",),
        deprecated_check_str="rule:deny_stack_user",
        deprecated_since="W",
    ),
    PolicyDefault(
        "stacks:list_template_versions",
        "role:reader and project_id:%(project_id)s",
        scope_types=("project",),
        deprecated_check_str="rule:deny_stack_user",
        deprecated_since="W",
    ),
    PolicyDefault(
        "stacks:list_template_functions",
        "role:reader and project_id:%(project_id)s",
        scope_types=("project",),
        deprecated_check_str="rule:deny_stack_user",
        deprecated_since="W",
    ),
    PolicyDefault(
        "stacks:lookup",
        READER_OR_STACK_USER,
        scope_types=("project",),
        deprecated_check_str="rule:allow_everybody",
        deprecated_since="W",
    ),
    PolicyDefault(
        "stacks:preview",
        "role:reader and project_id:%(project_id)s",
        scope_types=("project",),
        deprecated_check_str="rule:deny_stack_user",
        deprecated_since="W",
    ),
    PolicyDefault(
        "stacks:resource_schema",
        "role:reader and project_id:%(project_id)s",
        scope_types=("project",),
        deprecated_check_str="rule:deny_stack_user",
        deprecated_since="W",
    ),
    PolicyDefault(
        "stacks:show",
        "role:reader and project_id:%(project_id)s",
        scope_types=("project",),
        deprecated_check_str="rule:deny_stack_user",
        deprecated_since="W",
    ),
    PolicyDefault(
        "stacks:template",
        "role:reader and project_id:%(project_id)s",
        scope_types=("project",),
        deprecated_check_str="rule:deny_stack_user",
        deprecated_since="W",
    ),
    PolicyDefault(
        "stacks:environment",
        "role:reader and project_id:%(project_id)s",
        scope_types=("project",),
        deprecated_check_str="rule:deny_stack_user",
        deprecated_since="W",
    ),
    PolicyDefault(
        "stacks:files",
        "role:reader and project_id:%(project_id)s",
        scope_types=("project",),
        deprecated_check_str="rule:deny_stack_user",
        deprecated_since="W",
    ),
    PolicyDefault(
        "stacks:update",
        "role:member and project_id:%(project_id)s",
        scope_types=("project",),
        deprecated_check_str="rule:deny_stack_user",
        deprecated_since="W",
    ),
    PolicyDefault(
        "stacks:update_patch",
        "role:member and project_id:%(project_id)s",
        scope_types=("project",),
        deprecated_check_str="rule:deny_stack_user",
        deprecated_since="W",
    ),
    PolicyDefault("stacks:update_no_change", "rule:stacks:update_patch", scope_types=("project",)),
    PolicyDefault(
        "stacks:preview_update",
        "role:member and project_id:%(project_id)s",
        scope_types=("project",),
        deprecated_check_str="rule:deny_stack_user",
        deprecated_since="W",
    ),
    PolicyDefault(
        "stacks:preview_update_patch",
        "role:member and project_id:%(project_id)s",
        scope_types=("project",),
        deprecated_check_str="rule:deny_stack_user",
        deprecated_since="W",
    ),
    PolicyDefault(
        "stacks:validate_template",
        "role:member and project_id:%(project_id)s",
        scope_types=("project",),
        deprecated_check_str="rule:deny_stack_user",
        deprecated_since="W",
    ),
    PolicyDefault(
        "stacks:snapshot",
        "role:member and project_id:%(project_id)s",
        scope_types=("project",),
        deprecated_check_str="rule:deny_stack_user",
        deprecated_since="W",
    ),
    PolicyDefault(
        "stacks:show_snapshot",
        "role:reader and project_id:%(project_id)s",
        scope_types=("project",),
        deprecated_check_str="rule:deny_stack_user",
        deprecated_since="W",
    ),
    PolicyDefault(
        "stacks:delete_snapshot",
        "role:member and project_id:%(project_id)s",
        scope_types=("project",),
        deprecated_check_str="rule:deny_stack_user",
        deprecated_since="W",
    ),
    PolicyDefault(
        "stacks:list_snapshots",
        "role:reader and project_id:%(project_id)s",
        scope_types=("project",),
        deprecated_check_str="rule:deny_stack_user",
        deprecated_since="W",
    ),
    PolicyDefault(
        "stacks:restore_snapshot",
        "role:member and project_id:%(project_id)s",
        scope_types=("project",),
        deprecated_check_str="rule:deny_stack_user",
        deprecated_since="W",
    ),
    PolicyDefault(
        "stacks:list_outputs",
        "role:reader and project_id:%(project_id)s",
        scope_types=("project",),
        deprecated_check_str="rule:deny_stack_user",
        deprecated_since="W",
    ),
    PolicyDefault(
        "stacks:show_output",
        "role:reader and project_id:%(project_id)s",
        scope_types=("project",),
        deprecated_check_str="rule:deny_stack_user",
        deprecated_since="W",
    ),
)
