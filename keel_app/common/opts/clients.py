"""How the engine reaches other OpenStack services: [clients] and [clients_<service>].

[clients] holds the defaults; a [clients_<service>] option left unset falls back to it,
which is why the per-service options have no defaults of their own.
"""

from oslo_config import cfg

SERVICES = (
    "aodh",
    "barbican",
    "cinder",
    "designate",
    "glance",
    "heat",
    "keystone",
    "magnum",
    "manila",
    "mistral",
    "neutron",
    "nova",
    "octavia",
    "swift",
    "trove",
    "zaqar",
)

ENDPOINT_TYPES = ["publicURL", "internalURL", "adminURL", "public", "internal", "admin"]

REGION_OPTS = [
    cfg.StrOpt("region_name_for_services", help="Region whose endpoints the engine uses."),
    cfg.StrOpt(
        "region_name_for_shared_services",
        help="Region of the services listed in shared_services_types.",
    ),
    cfg.ListOpt(
        "shared_services_types",
        default=["image", "volumev3"],
        help="Service types taken from region_name_for_shared_services, when that is set.",
    ),
]


def connection_opts(*, with_defaults: bool) -> list[cfg.Opt]:
    """Endpoint interface and TLS settings, for [clients] or for one service."""
    return [
        cfg.StrOpt(
            "endpoint_type",
            default="public" if with_defaults else None,
            choices=ENDPOINT_TYPES,
            help="Catalog interface used to reach the service.",
        ),
        cfg.StrOpt("ca_file", help="CA bundle to verify the service."),
        cfg.StrOpt("cert_file", help="PEM client certificate chain."),
        cfg.StrOpt("key_file", help="PEM client private key."),
        cfg.BoolOpt(
            "insecure",
            default=False if with_defaults else None,
            help="Skip the service's certificate check.",
        ),
    ]


SERVICE_EXTRA_OPTS = {
    "heat": [
        cfg.URIOpt(
            "url",
            schemes=["http", "https"],
            help="Heat endpoint, e.g. http://127.0.0.1:8004/v1/%(tenant_id)s.",
        ),
    ],
    "keystone": [
        cfg.URIOpt(
            "auth_uri",
            schemes=["http", "https"],
            help="Unversioned Keystone endpoint, e.g. http://127.0.0.1:5000.",
        ),
    ],
    "nova": [cfg.BoolOpt("http_log_debug", default=False, help="Log the client's requests.")],
    "cinder": [cfg.BoolOpt("http_log_debug", default=False, help="Log the client's requests.")],
}

GROUPS = [
    ("DEFAULT", REGION_OPTS),
    ("clients", connection_opts(with_defaults=True)),
] + [
    (
        f"clients_{service}",
        connection_opts(with_defaults=False) + SERVICE_EXTRA_OPTS.get(service, []),
    )
    for service in SERVICES
]
