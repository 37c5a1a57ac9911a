"""How the engine reaches each cloud service: heat.conf's [clients] and [clients_<name>].

Every option of ``[clients_<name>]`` left unset falls back to ``[clients]``, as in Heat.
The endpoint interface accepts Heat's v2 spellings (``publicURL``) as well as the v3
names; both select the same catalog entries. The region is the caller's (its context's
``region_name``) else ``region_name_for_services``; the service types listed in
``shared_services_types`` come from ``region_name_for_shared_services`` when that is set.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from keel_app.clients import lookup_cache
from keel_app.clients.lookup_cache import LookupCaches
from keel_app.common.opts.clients import SERVICES


@dataclass(frozen=True)
class ServiceConnection:
    """One service's endpoint interface and TLS settings."""

    interface: str = "public"
    verify: bool | str = True
    cert: str | tuple[str, str] | None = None


@dataclass(frozen=True)
class ClientsSettings:
    services: dict[str, ServiceConnection] = field(default_factory=dict)
    region_name_for_services: str | None = None
    region_name_for_shared_services: str | None = None
    shared_services_types: tuple[str, ...] = ("image", "volumev3")
    # [DEFAULT] client_retry_limit: connection failures retried by each client.
    connect_retries: int = 2
    # [DEFAULT] max_nova_api_microversion: the one microversion of every Nova call, in
    # place of Nova's highest (None).
    max_nova_api_microversion: str | None = None
    # Heat's caches of constraint checks, name look-ups and service extensions.
    caches: LookupCaches = field(default_factory=LookupCaches, compare=False)

    def connection(self, name: str) -> ServiceConnection:
        return self.services.get(name, ServiceConnection())

    def region_for(self, context_region: str | None, service_types: tuple[str, ...]) -> str | None:
        """The region whose endpoints serve ``service_types`` for this caller."""
        if self.region_name_for_shared_services and set(service_types) & set(
            self.shared_services_types
        ):
            return self.region_name_for_shared_services
        return context_region or self.region_name_for_services


def interface_name(endpoint_type: str) -> str:
    """``publicURL`` -> ``public``: the v3 interface a v2 endpoint type names."""
    return endpoint_type[: -len("URL")] if endpoint_type.endswith("URL") else endpoint_type


def _service_connection(conf: Any, name: str) -> ServiceConnection:
    def option(key: str) -> Any:
        value = conf[f"clients_{name}"][key]
        return conf.clients[key] if value is None else value

    cert_file, key_file = option("cert_file"), option("key_file")
    return ServiceConnection(
        interface=interface_name(option("endpoint_type")),
        verify=False if option("insecure") else option("ca_file") or True,
        cert=(cert_file, key_file) if cert_file and key_file else cert_file,
    )


def from_conf(conf: Any) -> ClientsSettings:
    return ClientsSettings(
        services={name: _service_connection(conf, name) for name in SERVICES},
        region_name_for_services=conf.region_name_for_services,
        region_name_for_shared_services=conf.region_name_for_shared_services,
        shared_services_types=tuple(conf.shared_services_types or ()),
        connect_retries=max(conf.client_retry_limit, 0),
        max_nova_api_microversion=conf.max_nova_api_microversion or None,
        caches=lookup_cache.from_conf(conf),
    )
