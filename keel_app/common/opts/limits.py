"""Engine limits, retries and timeouts: the [DEFAULT] quotas of heat.conf, and [yaql]."""

from oslo_config import cfg

QUOTA_OPTS = [
    cfg.IntOpt(
        "max_resources_per_stack",
        default=1000,
        help="Resources allowed in one top-level stack, nested stacks included; -1: no limit.",
    ),
    cfg.IntOpt(
        "max_stacks_per_tenant",
        default=512,
        help="Stacks a project may have at once; -1: no limit.",
    ),
    cfg.IntOpt(
        "max_software_configs_per_tenant",
        default=4096,
        help="Software configs a project may have at once; -1: no limit.",
    ),
    cfg.IntOpt(
        "max_software_deployments_per_tenant",
        default=4096,
        help="Software deployments a project may have at once; -1: no limit.",
    ),
    cfg.IntOpt(
        "max_snapshots_per_stack",
        default=32,
        help="Snapshots one stack may have at once; -1: no limit.",
    ),
    cfg.IntOpt("max_template_size", default=524288, help="Largest template accepted, in bytes."),
    cfg.IntOpt("max_nested_stack_depth", default=5, help="Deepest nesting of stacks allowed."),
    cfg.IntOpt(
        "max_events_per_stack",
        default=1000,
        help="Events kept per stack, roughly, before old ones are purged; 0: all.",
    ),
    cfg.IntOpt(
        "event_purge_batch_size",
        min=1,
        default=200,
        help="Events deleted at a time when a stack's events are purged.",
    ),
    cfg.IntOpt(
        "max_server_name_length",
        default=53,
        max=53,
        help="Longest server name passed to Nova (host names are at most 64 characters).",
    ),
    cfg.IntOpt(
        "max_interface_check_attempts",
        min=1,
        default=10,
        help="Polls for an interface to be attached or detached.",
    ),
    cfg.StrOpt(
        "max_nova_api_microversion",
        regex=r"^2\.\d+$",
        help="Highest Nova microversion the client plugin may use.",
    ),
    cfg.StrOpt(
        "max_cinder_api_microversion",
        regex=r"^3\.\d+$",
        help="Highest Cinder microversion the client plugin may use.",
    ),
    cfg.StrOpt(
        "max_ironic_api_microversion",
        regex=r"^1\.\d+$",
        help="Highest Ironic microversion the client plugin may use.",
    ),
]

RETRY_AND_TIMEOUT_OPTS = [
    cfg.IntOpt(
        "action_retry_limit",
        default=5,
        help="Times a failed resource is retried to reach a good state; 0: never.",
    ),
    cfg.IntOpt(
        "client_retry_limit",
        default=2,
        help="Times a client call is retried on a known transient error; 0: never.",
    ),
    cfg.IntOpt(
        "stack_action_timeout",
        default=3600,
        help="Seconds a stack action (create, update...) may take.",
    ),
    cfg.IntOpt(
        "error_wait_time",
        default=240,
        help="Seconds that running work may go on after an error before it is cancelled.",
    ),
    cfg.IntOpt(
        "engine_life_check_timeout",
        default=2,
        help="Seconds to wait for an engine to answer the liveness check of a stack lock.",
    ),
    cfg.FloatOpt(
        "template_fetch_timeout",
        default=60,
        min=0,
        help="Seconds allowed to download a template.",
    ),
    cfg.FloatOpt(
        "metadata_put_timeout",
        default=60,
        min=0,
        help="Seconds allowed to update a software deployment's metadata.",
    ),
]

YAQL_OPTS = [
    cfg.IntOpt(
        "limit_iterators",
        default=200,
        help="Most elements a yaql expression may produce from a collection.",
    ),
    cfg.IntOpt(
        "memory_quota",
        default=10000,
        help="Most memory, in bytes, a yaql expression may use.",
    ),
]

GROUPS = [
    ("DEFAULT", QUOTA_OPTS + RETRY_AND_TIMEOUT_OPTS),
    ("yaql", YAQL_OPTS),
]
