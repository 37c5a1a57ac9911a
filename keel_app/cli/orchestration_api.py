"""A Heat-compatible orchestration endpoint, reached as the openstack CLI reaches it.

The credentials come from ``OS_*`` variables or a ``clouds.yaml`` cloud (``--os-cloud``,
``OS_CLOUD``), read by openstacksdk's own loader, so whatever works for
``openstack stack list`` works here, against OpenKeel or Heat alike. ``OS_AUTH_TYPE=none``
with ``OS_ENDPOINT`` reaches ``keel all-in-one``.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from keystoneauth1 import adapter, exceptions


class StackNotFound(LookupError):
    """The endpoint knows no stack of that name or id."""


@dataclass(frozen=True)
class StackPath:
    """Where one stack's documents live: ``stacks/<name>/<id>``."""

    name: str
    id: str

    def url(self, suffix: str = "") -> str:
        return f"/stacks/{quote(self.name, safe='')}/{self.id}{suffix}"


def add_stack_arguments(parser: argparse.ArgumentParser) -> None:
    """The stack to look at and where: what ``keel stack`` commands share."""
    parser.add_argument("stack", metavar="NAME", help="the stack's name or id")
    parser.add_argument(
        "--nested-depth", type=int, default=3, help="how deep into nested stacks to look"
    )
    parser.add_argument("--os-cloud", help="a cloud of clouds.yaml (default: OS_CLOUD)")


def connect(cloud: str | None = None) -> adapter.Adapter:
    """An adapter on the orchestration service of the cloud the environment names."""
    import openstack.config

    region = openstack.config.get_cloud_region(
        cloud=cloud, load_yaml_config=True, load_envvars=True
    )
    config = region.config
    endpoint = config.get("orchestration_endpoint_override") or (
        config.get("auth", {}).get("endpoint") if config.get("auth_type") == "none" else None
    )
    return adapter.Adapter(
        region.get_session(),
        service_type="orchestration",
        interface=config.get("interface"),
        region_name=config.get("region_name"),
        endpoint_override=endpoint,
    )


def find_stack(api: adapter.Adapter, name_or_id: str) -> tuple[StackPath, dict[str, Any]]:
    """The stack's path and its document (the API redirects a bare name to it)."""
    try:
        stack = api.get(f"/stacks/{quote(name_or_id, safe='')}").json()["stack"]
    except exceptions.NotFound:
        raise StackNotFound(name_or_id) from None
    return StackPath(stack["stack_name"], stack["id"]), stack


def show_stack(api: adapter.Adapter, path: StackPath) -> dict[str, Any]:
    """The stack's document; a deleted stack is still shown by its id."""
    try:
        return api.get(path.url()).json()["stack"]
    except exceptions.NotFound:
        raise StackNotFound(path.name) from None


def list_resources(api: adapter.Adapter, path: StackPath, nested_depth: int) -> list[dict]:
    """The stack's resources, and those of its nested stacks down to ``nested_depth``."""
    try:
        answer = api.get(path.url("/resources"), params={"nested_depth": nested_depth})
    except exceptions.NotFound:
        return []
    return list(answer.json()["resources"])


def latest_events(api: adapter.Adapter, path: StackPath, limit: int, nested_depth: int) -> list:
    """The newest events first, at most ``limit``."""
    params = {"sort_dir": "desc", "sort_keys": "event_time", "limit": limit}
    if nested_depth:
        params["nested_depth"] = nested_depth
    try:
        return list(api.get(path.url("/events"), params=params).json()["events"])
    except exceptions.NotFound:
        return []
