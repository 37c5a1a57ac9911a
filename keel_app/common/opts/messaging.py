"""oslo.messaging as Heat configures it: the RPC transport and notifications."""

from oslo_config import cfg

TRANSPORT_OPTS = [
    cfg.StrOpt(
        "transport_url",
        default="rabbit://",
        secret=True,
        help="Messaging URL, e.g. rabbit://user:password@host:5672/vhost.",
    ),
    cfg.StrOpt(
        "control_exchange",
        # oslo.messaging's own default is "openstack"; Heat replaces it with its name.
        default="heat",
        help="Exchange that RPC topics live in.",
    ),
    cfg.IntOpt("rpc_response_timeout", default=60, help="Seconds to wait for an RPC reply."),
    cfg.IntOpt(
        "executor_thread_pool_size",
        default=64,
        deprecated_name="rpc_thread_pool_size",
        help="Threads that run incoming RPC calls.",
    ),
    cfg.BoolOpt(
        "rpc_ping_enabled",
        default=False,
        help="Answer the oslo_rpc_server_ping method.",
    ),
]

NOTIFIER_OPTS = [
    cfg.StrOpt(
        "default_notification_level",
        default="INFO",
        help="Priority of notifications sent without one.",
    ),
    cfg.StrOpt(
        "default_publisher_id",
        help="Publisher of notifications; unset: orchestration.<host>.",
    ),
]

NOTIFICATIONS_OPTS = [
    cfg.MultiStrOpt(
        "driver",
        default=[],
        help="Notification drivers, e.g. messagingv2; none: notifications are dropped.",
    ),
    cfg.StrOpt(
        "transport_url",
        secret=True,
        help="Messaging URL for notifications; unset: [DEFAULT] transport_url.",
    ),
    cfg.ListOpt("topics", default=["notifications"], help="Topics notifications are sent to."),
    cfg.IntOpt(
        "retry",
        default=-1,
        help="Retries of a notification that could not be sent; -1: forever.",
    ),
]

GROUPS = [
    ("DEFAULT", TRANSPORT_OPTS + NOTIFIER_OPTS),
    ("oslo_messaging_notifications", NOTIFICATIONS_OPTS),
]
