"""Builders for the keystoneauth1 options that several heat.conf sections share.

keystoneauth1 registers these at run time, once ``auth_type`` names a plugin; heat.conf
sets them under [trustee], [keystone_authtoken] and [ec2authtoken]. They are built here
with keystoneauth1's names and defaults (underscores: the form a config file uses), so
that OpenKeel reads them without importing keystoneauth1 at configuration time. Not a
family of its own: it has no ``GROUPS`` and is not listed in ``opts.MODULES``.
"""

from oslo_config import cfg, types


def auth_common_opts() -> list[cfg.Opt]:
    """``auth_type`` and ``auth_section``: which plugin, and where its options live."""
    return [
        cfg.StrOpt(
            "auth_type",
            deprecated_opts=[cfg.DeprecatedOpt("auth_plugin")],
            help="Authentication plugin to load, e.g. password.",
        ),
        cfg.StrOpt("auth_section", help="Section holding the plugin's options instead."),
    ]


def password_plugin_opts(*, generic: bool = True) -> list[cfg.Opt]:
    """The options of keystoneauth1's ``password`` plugin.

    ``generic=False`` gives the ``v3password`` plugin instead, which has no
    ``default_domain_*`` options and no ``tenant_*`` spellings.

    keystoneauth1 marks ``auth_url`` required, but only checks it when the plugin is
    loaded; a required option here would refuse every heat.conf without the section.
    """
    options = [
        cfg.StrOpt("auth_url", help="Identity service endpoint to authenticate against."),
        cfg.StrOpt("system_scope", help="System scope to request, e.g. all."),
        cfg.StrOpt("domain_id", help="Domain ID to scope to."),
        cfg.StrOpt("domain_name", help="Domain name to scope to."),
        cfg.StrOpt(
            "project_id",
            deprecated_opts=[cfg.DeprecatedOpt("tenant_id")] if generic else None,
            help="Project ID to scope to.",
        ),
        cfg.StrOpt(
            "project_name",
            deprecated_opts=[cfg.DeprecatedOpt("tenant_name")] if generic else None,
            help="Project name to scope to.",
        ),
        cfg.StrOpt("project_domain_id", help="Domain ID of the project."),
        cfg.StrOpt("project_domain_name", help="Domain name of the project."),
        cfg.StrOpt("trust_id", help="Trust to use as a trustee."),
    ]
    if generic:
        options += [
            cfg.StrOpt("default_domain_id", help="Domain ID used when none is given."),
            cfg.StrOpt("default_domain_name", help="Domain name used when none is given."),
        ]
    options += [
        cfg.StrOpt("user_id", help="User ID to log in as."),
        cfg.StrOpt(
            "username",
            deprecated_opts=[cfg.DeprecatedOpt("user_name")],
            help="User name to log in as.",
        ),
        cfg.StrOpt("user_domain_id", help="Domain ID of the user."),
        cfg.StrOpt("user_domain_name", help="Domain name of the user."),
        cfg.StrOpt("password", secret=True, help="The user's password."),
    ]
    return options


def session_opts() -> list[cfg.Opt]:
    """keystoneauth1's session options: TLS material and timeouts."""
    return [
        cfg.StrOpt("cafile", help="PEM CA bundle used to verify HTTPS peers."),
        cfg.StrOpt("certfile", help="PEM client certificate."),
        cfg.StrOpt("keyfile", help="PEM client key."),
        cfg.BoolOpt("insecure", default=False, help="Skip HTTPS certificate checks."),
        cfg.FloatOpt("timeout", help="HTTP request timeout in seconds."),
        cfg.BoolOpt("collect_timing", default=False, help="Record per-request timings."),
        cfg.BoolOpt(
            "split_loggers", default=False, help="Log requests and bodies to separate loggers."
        ),
        cfg.StrOpt("tls_ciphers", help="OpenSSL cipher list allowed for TLS."),
        cfg.StrOpt(
            "tls_min_version",
            choices=[None, "1.2", "1.3"],
            help="Lowest TLS version accepted; unset follows the system policy.",
        ),
    ]


def adapter_opts(*, service_type: str | None = None) -> list[cfg.Opt]:
    """keystoneauth1's adapter options: which endpoint of the catalog, and retries."""
    return [
        cfg.StrOpt(
            "service_type", default=service_type, help="Catalog service type of the endpoint."
        ),
        cfg.StrOpt("service_name", help="Catalog service name of the endpoint."),
        cfg.ListOpt("valid_interfaces", help="Endpoint interfaces to try, in order."),
        cfg.StrOpt("region_name", help="Region of the endpoint."),
        cfg.StrOpt("endpoint_override", help="Endpoint URL used instead of the catalog."),
        cfg.StrOpt("version", help="Lowest API version acceptable within its major version."),
        cfg.StrOpt("min_version", help="Lowest major API version acceptable."),
        cfg.StrOpt("max_version", help="Highest major API version acceptable."),
        cfg.IntOpt("connect_retries", help="Retries on connection errors."),
        cfg.FloatOpt("connect_retry_delay", help="Seconds between connection retries."),
        cfg.IntOpt("status_code_retries", help="Retries on retriable status codes."),
        cfg.FloatOpt("status_code_retry_delay", help="Seconds between status-code retries."),
        cfg.ListOpt(
            "retriable_status_codes",
            item_type=types.Integer(),
            help="HTTP status codes that are retried.",
        ),
        cfg.StrOpt(
            "interface",
            deprecated_for_removal=True,
            deprecated_reason="valid_interfaces takes a list of interfaces.",
            help="Endpoint interface; prefer valid_interfaces.",
        ),
    ]
