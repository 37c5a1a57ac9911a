"""The API services: request limits, listening sockets, EC2 signatures and policy.

Heat 27 runs its APIs under a WSGI server only and no longer has [heat_api] or
[heat_api_cfn]; keel-api serves sockets itself, so it reads those sections with the
names and defaults they had in the last Heat releases that had them.
"""

from oslo_config import cfg

from keel_app.common.opts import keystoneauth

REQUEST_OPTS = [
    cfg.IntOpt(
        "max_json_body_size",
        default=1048576,
        help="Largest JSON request body accepted, in bytes; keep above max_template_size.",
    ),
]

PASTE_DEPLOY_OPTS = [
    cfg.StrOpt("flavor", help="Paste pipeline flavor appended to the application name."),
    cfg.StrOpt("api_paste_config", default="api-paste.ini", help="Paste configuration file."),
]


def listener_opts(*, port: int, workers: int) -> list[cfg.Opt]:
    """Socket and worker settings of one API service."""
    return [
        cfg.IPOpt(
            "bind_host",
            default="0.0.0.0",
            deprecated_group="DEFAULT",
            help="Address to listen on.",
        ),
        cfg.PortOpt(
            "bind_port",
            default=port,
            deprecated_group="DEFAULT",
            help="Port to listen on.",
        ),
        cfg.IntOpt(
            "backlog",
            default=4096,
            deprecated_group="DEFAULT",
            help="Pending connections the socket queues.",
        ),
        cfg.StrOpt(
            "cert_file",
            deprecated_group="DEFAULT",
            help="TLS certificate; with key_file, the API serves HTTPS.",
        ),
        cfg.StrOpt("key_file", deprecated_group="DEFAULT", help="TLS private key."),
        cfg.IntOpt(
            "workers",
            min=0,
            default=workers,
            deprecated_group="DEFAULT",
            help="Worker processes; 0: one per CPU.",
        ),
        cfg.IntOpt(
            "max_header_line",
            default=16384,
            help="Longest header line accepted; large Keystone tokens may need more.",
        ),
        cfg.IntOpt(
            "tcp_keepidle",
            default=600,
            help="Idle seconds before TCP keepalive probes start.",
        ),
    ]


EC2_AUTH_TOKEN_OPTS = [
    cfg.BoolOpt("multi_cloud", default=False, help="Validate signatures with several clouds."),
    cfg.ListOpt(
        "clouds",
        default=[],
        help="Cloud names when multi_cloud is on; each has an [ec2authtoken.<name>] section.",
    ),
]


def ec2_auth_token_opts() -> list[cfg.Opt]:
    """[ec2authtoken]: the service credentials that validate EC2 signatures with Keystone."""
    return (
        EC2_AUTH_TOKEN_OPTS
        + keystoneauth.auth_common_opts()
        + keystoneauth.password_plugin_opts(generic=False)
        + keystoneauth.session_opts()
        # Heat changes this default when it registers [ec2authtoken].
        + keystoneauth.adapter_opts(service_type="identity")
    )


POLICY_OPTS = [
    cfg.BoolOpt(
        "enforce_new_defaults",
        default=True,
        help="Use the current default rules instead of the deprecated ones.",
    ),
    cfg.StrOpt("policy_file", default="policy.yaml", help="File of policy rule overrides."),
    cfg.StrOpt(
        "policy_default_rule",
        default="default",
        help="Rule checked when the requested one does not exist.",
    ),
    cfg.MultiStrOpt(
        "policy_dirs",
        default=["policy.d"],
        help="Directories of further policy files, read in order.",
    ),
    cfg.StrOpt(
        "remote_content_type",
        choices=("application/x-www-form-urlencoded", "application/json"),
        default="application/x-www-form-urlencoded",
        help="Body format of HTTP policy checks.",
    ),
    cfg.BoolOpt(
        "remote_ssl_verify_server_crt",
        default=False,
        help="Verify the server of HTTPS policy checks.",
    ),
    cfg.StrOpt("remote_ssl_ca_crt_file", help="CA bundle for HTTPS policy checks."),
    cfg.StrOpt("remote_ssl_client_crt_file", help="Client certificate for HTTPS policy checks."),
    cfg.StrOpt("remote_ssl_client_key_file", help="Client key for HTTPS policy checks."),
    cfg.FloatOpt(
        "remote_timeout",
        default=60,
        min=0,
        help="Seconds an HTTP policy check may take.",
    ),
]

GROUPS = [
    ("DEFAULT", REQUEST_OPTS),
    ("paste_deploy", PASTE_DEPLOY_OPTS),
    ("heat_api", listener_opts(port=8004, workers=0)),
    ("heat_api_cfn", listener_opts(port=8000, workers=1)),
    ("ec2authtoken", ec2_auth_token_opts()),
    ("oslo_policy", POLICY_OPTS),
]
