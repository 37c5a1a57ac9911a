"""[oslo_messaging_rabbit]: RabbitMQ settings with oslo.messaging's names and defaults.

keel-bridge speaks to the same brokers as Heat's services, so an operator's RabbitMQ
section (TLS, quorum queues, heartbeats...) applies to it unchanged.
"""

from oslo_config import cfg

CONNECTION_OPTS = [
    cfg.IntOpt("rpc_conn_pool_size", default=30, min=1, help="Largest connection pool."),
    cfg.IntOpt("conn_pool_min_size", default=2, help="Connections the pool keeps at least."),
    cfg.IntOpt("conn_pool_ttl", default=1200, help="Seconds an idle pooled connection lives."),
    cfg.BoolOpt("ssl", default=False, help="Connect with TLS."),
    cfg.StrOpt("ssl_version", default="", help="TLS protocol version, e.g. TLSv1_2."),
    cfg.StrOpt("ssl_key_file", default="", help="TLS client key."),
    cfg.StrOpt("ssl_cert_file", default="", help="TLS client certificate."),
    cfg.StrOpt("ssl_ca_file", default="", help="CA bundle to verify the broker."),
    cfg.BoolOpt(
        "ssl_enforce_hostname_verification",
        default=True,
        deprecated_for_removal=True,
        deprecated_reason="Host names are always verified.",
        help="Check the broker's host name against its certificate.",
    ),
    cfg.BoolOpt(
        "ssl_enforce_fips_mode",
        default=False,
        deprecated_for_removal=True,
        deprecated_reason="OpenSSL 3 has no FIPS_mode_set; the option does nothing.",
        help="Require OpenSSL's FIPS mode.",
    ),
    cfg.FloatOpt(
        "kombu_reconnect_delay",
        default=1.0,
        min=0.0,
        max=4.5,
        help="Seconds to wait before reconnecting after a consumer cancel notification.",
    ),
    cfg.FloatOpt(
        "kombu_reconnect_splay",
        default=0.0,
        min=0.0,
        help="Random extra seconds added to kombu_reconnect_delay.",
    ),
    cfg.StrOpt("kombu_compression", help="Compression of sent messages, e.g. gzip or bz2."),
    cfg.IntOpt(
        "kombu_missing_consumer_retry_timeout",
        deprecated_name="kombu_reconnect_timeout",
        default=60,
        help="Seconds to wait for the consumer of a reply before giving up.",
    ),
    cfg.StrOpt(
        "kombu_failover_strategy",
        choices=("round-robin", "shuffle"),
        default="round-robin",
        help="Order in which the brokers of transport_url are tried.",
    ),
    cfg.StrOpt(
        "rabbit_login_method",
        choices=("PLAIN", "AMQPLAIN", "EXTERNAL", "RABBIT-CR-DEMO"),
        default="AMQPLAIN",
        help="AMQP login method.",
    ),
    cfg.IntOpt(
        "rabbit_retry_interval",
        min=1,
        default=1,
        help="Seconds between connection attempts.",
    ),
    cfg.IntOpt(
        "rabbit_retry_backoff",
        default=2,
        min=0,
        help="Seconds added to the interval after each failed attempt.",
    ),
    cfg.IntOpt(
        "rabbit_interval_max",
        default=30,
        min=1,
        help="Longest interval between connection attempts.",
    ),
    cfg.IntOpt(
        "heartbeat_timeout_threshold",
        default=60,
        help="Seconds without a heartbeat before the connection is dropped; 0: no heartbeat.",
    ),
    cfg.IntOpt("heartbeat_rate", default=3, help="Heartbeat checks per timeout period."),
    cfg.BoolOpt(
        "direct_mandatory_flag",
        default=True,
        deprecated_for_removal=True,
        deprecated_reason="Replies are always sent with the mandatory flag.",
        help="Send direct replies with the AMQP mandatory flag.",
    ),
    cfg.BoolOpt(
        "enable_cancel_on_failover",
        default=False,
        help="Ask the broker to cancel consumers when their queue's node goes down.",
    ),
]

QUEUE_OPTS = [
    cfg.BoolOpt("amqp_durable_queues", default=False, help="Declare durable queues."),
    cfg.BoolOpt("amqp_auto_delete", default=False, help="Declare auto-deleted queues."),
    cfg.BoolOpt("rabbit_ha_queues", default=False, help="Declare classic mirrored queues."),
    cfg.BoolOpt("rabbit_quorum_queue", default=False, help="Declare quorum queues."),
    cfg.BoolOpt(
        "rabbit_transient_quorum_queue",
        default=False,
        help="Declare reply and fanout queues as quorum queues too.",
    ),
    cfg.IntOpt(
        "rabbit_quorum_delivery_limit",
        default=0,
        help="Redeliveries of a quorum-queue message before it is dropped; 0: no limit.",
    ),
    cfg.IntOpt(
        "rabbit_quorum_max_memory_length",
        default=0,
        help="Messages a quorum queue keeps in memory; 0: no limit.",
    ),
    cfg.IntOpt(
        "rabbit_quorum_max_memory_bytes",
        default=0,
        help="Bytes a quorum queue keeps in memory; 0: no limit.",
    ),
    cfg.IntOpt(
        "rabbit_transient_queues_ttl",
        min=0,
        default=1800,
        help="Seconds an unused reply or fanout queue lives.",
    ),
    cfg.IntOpt(
        "rabbit_qos_prefetch_count",
        default=0,
        help="Unacknowledged messages a consumer may hold; 0: no limit.",
    ),
    cfg.BoolOpt(
        "use_queue_manager",
        default=False,
        help="Name reply and fanout queues after the host and process.",
    ),
    cfg.BoolOpt(
        "rabbit_stream_fanout",
        default=False,
        help="Use one stream queue for fanout instead of a queue per consumer.",
    ),
]

GROUPS = [("oslo_messaging_rabbit", CONNECTION_OPTS + QUEUE_OPTS)]
