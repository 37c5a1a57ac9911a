"""[keystone_authtoken]: keystonemiddleware's token validation, as heat.conf configures it.

The names and defaults are keystonemiddleware's, plus the options of the keystoneauth1
``password`` plugin that a heat.conf sets for the service user (``auth_type = password``).
"""

from oslo_config import cfg

from keel_app.common.opts import keystoneauth

AUTH_TOKEN_OPTS = [
    cfg.StrOpt(
        "www_authenticate_uri",
        help="Public Keystone endpoint announced to clients in WWW-Authenticate.",
    ),
    cfg.StrOpt("auth_version", help="Identity API version used to validate tokens."),
    cfg.StrOpt(
        "interface",
        default="internal",
        help="Catalog interface of the identity endpoint used for validation.",
    ),
    cfg.BoolOpt(
        "delay_auth_decision",
        default=False,
        help="Pass unauthenticated requests on, marked, instead of rejecting them.",
    ),
    cfg.IntOpt("http_connect_timeout", help="Seconds to wait for the identity server."),
    cfg.IntOpt(
        "http_request_max_retries",
        default=3,
        help="Attempts to reach the identity server for one token.",
    ),
    cfg.StrOpt("cache", help="WSGI environment key of a cache to use instead of memcached."),
    cfg.StrOpt("certfile", help="Client certificate for the identity server."),
    cfg.StrOpt("keyfile", help="Client key for the identity server."),
    cfg.StrOpt("cafile", help="CA bundle to verify the identity server."),
    cfg.BoolOpt("insecure", default=False, help="Skip the identity server's certificate check."),
    cfg.StrOpt("region_name", help="Region of the identity endpoint."),
    cfg.ListOpt(
        "memcached_servers",
        deprecated_name="memcache_servers",
        help="memcached servers (host:port) caching validated tokens.",
    ),
    cfg.IntOpt(
        "token_cache_time",
        default=300,
        help="Seconds a validated token stays cached; -1 disables the cache.",
    ),
    cfg.StrOpt(
        "memcache_security_strategy",
        default="None",
        choices=("None", "MAC", "ENCRYPT"),
        ignore_case=True,
        help="Protection of cached tokens: authenticated (MAC) or encrypted.",
    ),
    cfg.StrOpt(
        "memcache_secret_key",
        secret=True,
        help="Key for memcache_security_strategy.",
    ),
    cfg.BoolOpt("memcache_tls_enabled", default=False, help="Use TLS to reach memcached."),
    cfg.StrOpt("memcache_tls_cafile", help="CA bundle for memcached TLS."),
    cfg.StrOpt("memcache_tls_certfile", help="Client certificate for memcached TLS."),
    cfg.StrOpt("memcache_tls_keyfile", help="Client key for memcached TLS."),
    cfg.StrOpt("memcache_tls_allowed_ciphers", help="Ciphers allowed for memcached TLS."),
    cfg.IntOpt(
        "memcache_pool_dead_retry",
        default=5 * 60,
        help="Seconds a dead memcached server is left alone.",
    ),
    cfg.IntOpt("memcache_pool_maxsize", default=10, help="Connections per memcached server."),
    cfg.IntOpt(
        "memcache_pool_socket_timeout",
        default=3,
        help="Seconds a memcached call may take.",
    ),
    cfg.IntOpt(
        "memcache_pool_unused_timeout",
        default=60,
        help="Seconds an idle memcached connection is kept.",
    ),
    cfg.IntOpt(
        "memcache_pool_conn_get_timeout",
        default=10,
        help="Seconds to wait for a free memcached connection.",
    ),
    cfg.BoolOpt(
        "memcache_use_advanced_pool",
        default=True,
        help="Use the pooled memcached client.",
    ),
    cfg.BoolOpt(
        "include_service_catalog",
        default=True,
        help="Ask for the service catalog and pass it on in X-Service-Catalog.",
    ),
    cfg.StrOpt(
        "enforce_token_bind",
        default="permissive",
        help="Token bind check: disabled, permissive, strict, required or a bind type.",
    ),
    cfg.ListOpt(
        "service_token_roles",
        default=["service"],
        help="Roles of which a service token must hold one.",
    ),
    cfg.BoolOpt(
        "service_token_roles_required",
        default=True,
        help="Reject service tokens lacking service_token_roles.",
    ),
    cfg.StrOpt("service_type", help="Catalog type of this service, for access rules."),
    cfg.BoolOpt("memcache_sasl_enabled", default=False, help="Authenticate to memcached."),
    cfg.StrOpt("memcache_username", help="User name for memcached SASL."),
    cfg.StrOpt("memcache_password", secret=True, help="Password for memcached SASL."),
]

GROUPS = [
    (
        "keystone_authtoken",
        AUTH_TOKEN_OPTS + keystoneauth.auth_common_opts() + keystoneauth.password_plugin_opts(),
    ),
]
