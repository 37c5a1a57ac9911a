"""Is a cloud service there? The Keystone catalog that came with the caller's token.

Heat asks each resource type's client plugin whether one of its service types has an
endpoint in the caller's catalog (keystoneauth's catalog look-up: the ``public``
interface by default, the context's region if it names one). OpenKeel's engine reads
the same catalog from the context's ``auth_token_info`` (a v3 token body, or a v2
``access`` body) without any network call. A context without a token body has an
empty catalog here; Heat would then ask Keystone for one, which an engine that works
offline cannot do, so every cloud service reads as absent.

``CLIENT_SERVICE_TYPES`` holds, per client plugin name, the service types Heat 27.0.1's
plugin declares; a requested type also matches its official name or alias in the
catalog, as keystoneauth's service-types rules say.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

CLIENT_SERVICE_TYPES: dict[str, tuple[str, ...]] = {
    "aodh": ("alarming",),
    "barbican": ("key-manager",),
    "blazar": ("reservation",),
    "cinder": ("volumev3",),
    "designate": ("dns",),
    "glance": ("image",),
    "heat": ("orchestration", "cloudformation"),
    "ironic": ("baremetal",),
    "keystone": ("identity",),
    "magnum": ("container-infra",),
    "manila": ("sharev2",),
    "mistral": ("workflowv2",),
    "neutron": ("network",),
    "nova": ("compute",),
    "octavia": ("load-balancer",),
    "openstack": ("network",),
    "swift": ("object-store",),
    "trove": ("database",),
    "zaqar": ("messaging",),
    "zun": ("container",),
}

# Catalog types that also answer for a requested type: the official name of an alias,
# or the aliases of an official name (from the OpenStack service-types authority).
MATCHING_CATALOG_TYPES: dict[str, tuple[str, ...]] = {
    "alarming": ("alarm",),
    "baremetal": ("bare-metal",),
    "container": ("application-container",),
    "container-infra": ("container-infrastructure-management",),
    "messaging": ("message",),
    "sharev2": ("shared-file-system",),
    "volumev3": ("block-storage",),
    "workflowv2": ("workflow",),
}

DEFAULT_INTERFACE = "public"


def catalog_from_token(token_info: Any) -> list[dict[str, Any]]:
    """The services of a token body, as (type, endpoints with interface/region/url)."""
    if not isinstance(token_info, Mapping):
        return []
    if "token" in token_info:
        return [_v3_service(service) for service in token_info["token"].get("catalog") or []]
    if "access" in token_info:
        services = token_info["access"].get("serviceCatalog") or []
        return [_v2_service(service) for service in services]
    return []


def _v3_service(service: Mapping[str, Any]) -> dict[str, Any]:
    endpoints = [
        {
            "interface": endpoint.get("interface"),
            "region": endpoint.get("region_id") or endpoint.get("region"),
            "url": endpoint.get("url"),
        }
        for endpoint in service.get("endpoints") or []
    ]
    return {"type": service.get("type"), "endpoints": endpoints}


def _v2_service(service: Mapping[str, Any]) -> dict[str, Any]:
    endpoints = []
    for endpoint in service.get("endpoints") or []:
        region = endpoint.get("region_id") or endpoint.get("region")
        for key, url in endpoint.items():
            if key.endswith("URL"):
                endpoints.append({"interface": key[: -len("URL")], "region": region, "url": url})
    return {"type": service.get("type"), "endpoints": endpoints}


def _type_matches(requested: str, found: Any) -> bool:
    return found == requested or found in MATCHING_CATALOG_TYPES.get(requested, ())


def endpoint_exists(
    catalog: Iterable[Mapping[str, Any]],
    service_type: str,
    interface: str = DEFAULT_INTERFACE,
    region_name: str | None = None,
) -> bool:
    """Whether the catalog has a usable endpoint of the type for the interface and region."""
    interface = interface[: -len("URL")] if interface.endswith("URL") else interface
    for service in catalog:
        if not _type_matches(service_type, service.get("type")):
            continue
        for endpoint in service.get("endpoints", []):
            if endpoint.get("interface") != interface:
                continue
            if region_name and endpoint.get("region") != region_name:
                continue
            if endpoint.get("url"):
                return True
    return False


def context_catalog(context: Any) -> list[dict[str, Any]]:
    return catalog_from_token(getattr(context, "auth_token_info", None))


def service_available(
    context: Any, client_name: str, interface: str = DEFAULT_INTERFACE
) -> tuple[bool, str | None]:
    """(available, reason) of a client plugin's service, Heat's reason wording included.

    The context's ``region_name`` selects the region, as Heat's client plugins do when
    ``region_name_for_services`` is not configured.
    """
    service_types = CLIENT_SERVICE_TYPES[client_name]
    catalog = context_catalog(context)
    region_name = getattr(context, "region_name", None)
    reason = None
    for service_type in service_types:
        if endpoint_exists(catalog, service_type, interface, region_name):
            return True, None
        reason = f"{client_name} {service_type} endpoint is not in service catalog."
    return False, reason
