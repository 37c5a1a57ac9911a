"""The cloud ``keel template validate`` answers for: a caller whose catalog lists the
service types asked for, every one a resource type may need by default.

Heat's API finds out whether a resource type's service is there from the caller's
catalog, and for some types whether the service has an extension (Neutron's ``qos``,
Cinder's ``qos-specs`` ...). Offline, a listed service is taken to have every
extension; nothing else is asked of it: the validators that would look a value up in
the service (``nova.flavor`` ...) find no client, as without any cloud.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable
from typing import Any

from keel_app.common.context import RequestContext
from keel_app.common.exception import ClientNotAvailable
from keel_app.engine.resource.service_catalog import CLIENT_SERVICE_TYPES

# Every service type a resource type's client plugin looks for in the catalog.
SERVICE_TYPES: tuple[str, ...] = tuple(
    sorted({kind for kinds in CLIENT_SERVICE_TYPES.values() for kind in kinds})
)
OFFLINE_URL = "http://offline.invalid"


def parse_services(value: str) -> tuple[str, ...]:
    """``--services``' value: comma-separated service types; empty for none."""
    services = tuple(item.strip() for item in value.split(",") if item.strip())
    unknown = sorted(set(services) - set(SERVICE_TYPES))
    if unknown:
        raise argparse.ArgumentTypeError(
            f"unknown service type(s) {', '.join(unknown)}; known: {', '.join(SERVICE_TYPES)}"
        )
    return services


class _ExtensionsOnly:
    """A listed service's client plugin: it has every extension and answers nothing else."""

    def __init__(self, name: str) -> None:
        self._name = name

    def has_extension(self, extension: str) -> bool:
        return True

    def __getattr__(self, attribute: str) -> Any:
        raise ClientNotAvailable(client_name=self._name)


class OfflineClients:
    """``context.clients`` of the offline caller."""

    def client_plugin(self, name: str) -> _ExtensionsOnly:
        return _ExtensionsOnly(name)

    def client(self, name: str) -> Any:
        raise ClientNotAvailable(client_name=name)


def caller(services: Iterable[str] = SERVICE_TYPES) -> RequestContext:
    """A caller whose token's catalog has a public endpoint of each service type."""
    catalog = [
        {
            "type": kind,
            "name": kind,
            "endpoints": [{"interface": "public", "url": f"{OFFLINE_URL}/{kind}"}],
        }
        for kind in services
    ]
    context = RequestContext(auth_token_info={"token": {"catalog": catalog}})
    context.clients = OfflineClients()
    return context
