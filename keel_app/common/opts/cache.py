"""[cache] with oslo.cache's names and defaults, and Heat's three cache regions.

Each region caches one kind of call to other services and only takes effect when
[cache] enabled is true.
"""

from oslo_config import cfg

BACKENDS = [
    "oslo_cache.memcache_pool",
    "oslo_cache.dict",
    "oslo_cache.etcd3gw",
    "dogpile.cache.pymemcache",
    "dogpile.cache.memcached",
    "dogpile.cache.pylibmc",
    "dogpile.cache.bmemcached",
    "dogpile.cache.dbm",
    "dogpile.cache.redis",
    "dogpile.cache.redis_sentinel",
    "dogpile.cache.memory",
    "dogpile.cache.memory_pickle",
    "dogpile.cache.null",
]

GENERAL_OPTS = [
    cfg.StrOpt("config_prefix", default="cache.oslo", help="Prefix of the region's settings."),
    cfg.IntOpt("expiration_time", default=600, min=1, help="Seconds a cached value lives."),
    cfg.IntOpt(
        "backend_expiration_time",
        min=1,
        help="Seconds the backend itself keeps a value; at least expiration_time.",
    ),
    cfg.StrOpt("backend", default="dogpile.cache.null", choices=BACKENDS, help="Cache backend."),
    cfg.MultiStrOpt(
        "backend_argument",
        default=[],
        secret=True,
        help="Backend argument as name:value; may be repeated.",
    ),
    cfg.ListOpt("proxies", default=[], help="dogpile.cache proxy classes to apply."),
    cfg.BoolOpt("enabled", default=False, help="Turn caching on."),
    cfg.BoolOpt("debug_cache_backend", default=False, help="Log every cache call."),
]

MEMCACHE_OPTS = [
    cfg.ListOpt(
        "memcache_servers",
        default=["localhost:11211"],
        help="memcached servers as host:port.",
    ),
    cfg.IntOpt(
        "memcache_dead_retry",
        default=5 * 60,
        help="Seconds a dead memcached server is left alone.",
    ),
    cfg.IntOpt("memcache_pool_maxsize", default=10, help="Connections per memcached server."),
    cfg.IntOpt(
        "memcache_pool_unused_timeout",
        default=60,
        help="Seconds an idle memcached connection is kept.",
    ),
    cfg.IntOpt(
        "memcache_pool_connection_get_timeout",
        default=10,
        help="Seconds to wait for a free memcached connection.",
    ),
    cfg.BoolOpt(
        "memcache_pool_flush_on_reconnect",
        default=False,
        help="Flush memcached when a connection is re-established.",
    ),
    cfg.BoolOpt("memcache_sasl_enabled", default=False, help="Authenticate to memcached."),
]

REDIS_OPTS = [
    cfg.StrOpt("redis_server", default="localhost:6379", help="Redis server as host:port."),
    cfg.IntOpt("redis_db", default=0, min=0, help="Redis database number."),
    cfg.ListOpt(
        "redis_sentinels",
        default=["localhost:26379"],
        help="Redis Sentinel servers as host:port.",
    ),
    cfg.StrOpt(
        "redis_sentinel_service_name",
        default="mymaster",
        help="Service name watched by Redis Sentinel.",
    ),
]

CONNECTION_OPTS = [
    cfg.StrOpt(
        "username",
        deprecated_opts=[
            cfg.DeprecatedOpt("memcache_username", group="cache"),
            cfg.DeprecatedOpt("redis_username", group="cache"),
        ],
        help="User name for the cache server.",
    ),
    cfg.StrOpt(
        "password",
        secret=True,
        deprecated_opts=[
            cfg.DeprecatedOpt("memcache_password", group="cache"),
            cfg.DeprecatedOpt("redis_password", group="cache"),
        ],
        help="Password for the cache server.",
    ),
    cfg.BoolOpt("tls_enabled", default=False, help="Reach the cache server over TLS."),
    cfg.StrOpt("tls_cafile", help="CA bundle for TLS."),
    cfg.StrOpt("tls_certfile", help="Client certificate for TLS."),
    cfg.StrOpt("tls_keyfile", help="Client key for TLS."),
    cfg.StrOpt("tls_allowed_ciphers", help="Ciphers allowed for TLS."),
    cfg.FloatOpt(
        "socket_timeout",
        default=1.0,
        deprecated_opts=[
            cfg.DeprecatedOpt("memcache_socket_timeout", group="cache"),
            cfg.DeprecatedOpt("redis_socket_timeout", group="cache"),
        ],
        help="Seconds a call to the cache server may take.",
    ),
    cfg.BoolOpt("enable_socket_keepalive", default=False, help="Use TCP keepalive."),
    cfg.IntOpt(
        "socket_keepalive_idle",
        default=1,
        min=0,
        help="Idle seconds before keepalive probes.",
    ),
    cfg.IntOpt(
        "socket_keepalive_interval",
        default=1,
        min=0,
        help="Seconds between keepalive probes.",
    ),
    cfg.IntOpt(
        "socket_keepalive_count",
        default=1,
        min=0,
        help="Unanswered probes before the connection is dropped.",
    ),
    cfg.BoolOpt("enable_retry_client", default=False, help="Retry failed cache calls."),
    cfg.IntOpt("retry_attempts", min=1, default=2, help="Attempts of a failed cache call."),
    cfg.FloatOpt("retry_delay", default=0, help="Seconds between attempts."),
    cfg.IntOpt(
        "hashclient_retry_attempts",
        min=1,
        default=2,
        help="Attempts on one memcached node before it is marked dead.",
    ),
    cfg.FloatOpt(
        "hashclient_retry_timeout",
        deprecated_name="hashclient_retry_delay",
        default=1,
        help="Seconds between attempts on one memcached node.",
    ),
    cfg.FloatOpt(
        "hashclient_dead_timeout",
        deprecated_name="dead_timeout",
        default=60,
        help="Seconds before a dead memcached node is tried again.",
    ),
]


def region_opts(*, expiration_time: int, subject: str) -> list[cfg.Opt]:
    """The two options of one of Heat's cache regions."""
    return [
        cfg.IntOpt(
            "expiration_time",
            default=expiration_time,
            help=f"Seconds {subject} stay cached.",
        ),
        cfg.BoolOpt("caching", default=True, help=f"Cache {subject} (needs [cache] enabled)."),
    ]


GROUPS = [
    ("cache", GENERAL_OPTS + MEMCACHE_OPTS + REDIS_OPTS + CONNECTION_OPTS),
    (
        "constraint_validation_cache",
        region_opts(expiration_time=60, subject="property constraint checks"),
    ),
    (
        "service_extension_cache",
        region_opts(expiration_time=3600, subject="the extensions of other services"),
    ),
    (
        "resource_finder_cache",
        region_opts(expiration_time=3600, subject="lookups of resources by name or ID"),
    ),
]
