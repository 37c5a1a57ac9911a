"""Stack, resource and event identifiers, in their dict, ARN and URL forms.

An identifier is a read-only mapping of four fields (tenant, stack_name, stack_id,
path) that is also readable as attributes. It travels in RPC messages as a plain
dict, appears in API URLs as ``<tenant>/stacks/<name>/<id><path>``, and in CFN
signal URLs as an ARN: ``arn:openstack:heat::<tenant>:stacks/<name>/<id><path>``.
Resources and events are stacks with a path: ``/resources/<name>`` and
``/resources/<name>/events/<id>``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any
from urllib.parse import quote, unquote, urlparse

ARN_PATH = re.compile(r"stacks/([^/]+)/([^/]+)(.*)")
# Where the ARN starts in the path of a signal URL, percent-encoded once.
ARN_URL_MARKER = re.compile("/arn%3Aopenstack%3Aheat%3A%3A", re.IGNORECASE)


class HeatIdentifier(Mapping[str, str]):
    FIELDS = (TENANT, STACK_NAME, STACK_ID, PATH) = ("tenant", "stack_name", "stack_id", "path")

    def __init__(self, tenant: str, stack_name: str, stack_id: Any, path: str = "") -> None:
        if path and not path.startswith("/"):
            path = "/" + path
        if "/" in stack_name:
            raise ValueError('Stack name may not contain "/"')
        self.identity = {
            self.TENANT: tenant,
            self.STACK_NAME: stack_name,
            self.STACK_ID: str(stack_id),
            self.PATH: path,
        }

    @classmethod
    def from_arn(cls, arn: str) -> HeatIdentifier:
        """Parse ``arn:openstack:heat:<region>:<tenant>:stacks/<name>/<id><path>``."""
        fields = arn.split(":")
        if len(fields) < 6 or fields[0].lower() != "arn":
            raise ValueError(f'"{arn}" is not a valid ARN')
        # Colons after the tenant belong to the stack part (an unquoted path may have them).
        match = ARN_PATH.match(":".join(fields[5:]))
        if fields[1] != "openstack" or fields[2] != "heat" or not match:
            raise ValueError(f'"{arn}" is not a valid Heat ARN')
        return cls(
            unquote(fields[4]),
            unquote(match.group(1)),
            unquote(match.group(2)),
            unquote(match.group(3)),
        )

    @classmethod
    def from_arn_url(cls, url: str) -> HeatIdentifier:
        """Parse a URL whose path ends in a percent-encoded ARN (a query string is ignored)."""
        parts = urlparse(url)
        if parts.scheme not in ("http", "https") or not parts.netloc or not parts.path:
            raise ValueError(f'"{url}" is not a valid URL')
        match = ARN_URL_MARKER.search(parts.path)
        if match is None:
            raise ValueError(f'"{url}" is not a valid ARN URL')
        return cls.from_arn(unquote(parts.path[match.start() + 1 :]))

    def arn(self) -> str:
        return f"arn:openstack:heat::{quote(self.tenant, '')}:{self._tenant_path()}"

    def arn_url_path(self) -> str:
        """The ARN percent-encoded once more, as the path of a signal URL."""
        return "/" + quote(self.arn())

    def url_path(self) -> str:
        """``<tenant>/stacks/<name>/<id><path>``, percent-encoded for the native API."""
        return f"{quote(self.tenant, '')}/{self._tenant_path()}"

    def stack_path(self) -> str:
        """``<name>/<id>``, each percent-encoded with its slashes."""
        return f"{quote(self.stack_name, '')}/{quote(self.stack_id, '')}"

    def _tenant_path(self) -> str:
        # The path keeps its slashes; names and ids inside it were checked for them.
        return f"stacks/{self.stack_path()}{quote(self.path.encode())}"

    def _path_components(self) -> list[str]:
        return self.path.lstrip("/").split("/")

    def __getattr__(self, name: str) -> Any:
        # Only reached for names that are not real attributes.
        if name not in self.FIELDS:
            raise AttributeError(f'Unknown attribute "{name}"')
        return self.identity[name]

    def __getitem__(self, key: str) -> str:
        if key not in self.FIELDS:
            raise KeyError(f'Unknown attribute "{key}"')
        return self.identity[key]

    def __len__(self) -> int:
        return len(self.FIELDS)

    def __contains__(self, key: object) -> bool:
        return key in self.FIELDS

    def __iter__(self) -> Iterator[str]:
        return iter(self.FIELDS)

    def __repr__(self) -> str:
        return repr(dict(self))


class ResourceIdentifier(HeatIdentifier):
    """A resource: its stack's identifier with ``/resources/<name>`` appended to the path."""

    RESOURCE_NAME = "resource_name"

    def __init__(
        self,
        tenant: str,
        stack_name: str,
        stack_id: Any,
        path: str,
        resource_name: str | None = None,
    ) -> None:
        if resource_name is not None:
            if "/" in resource_name:
                raise ValueError('Resource name may not contain "/"')
            path = "/".join([path.rstrip("/"), "resources", resource_name])
        super().__init__(tenant, stack_name, stack_id, path)

    def __getattr__(self, name: str) -> Any:
        if name == self.RESOURCE_NAME:
            return self._path_components()[-1]
        return super().__getattr__(name)

    def stack(self) -> HeatIdentifier:
        """The identifier of the stack that owns the resource."""
        return HeatIdentifier(
            self.tenant, self.stack_name, self.stack_id, "/".join(self._path_components()[:-2])
        )


class EventIdentifier(HeatIdentifier):
    """An event: its resource's identifier with ``/events/<id>`` appended to the path."""

    RESOURCE_NAME = ResourceIdentifier.RESOURCE_NAME
    EVENT_ID = "event_id"

    def __init__(
        self,
        tenant: str,
        stack_name: str,
        stack_id: Any,
        path: str,
        event_id: str | None = None,
    ) -> None:
        if event_id is not None:
            path = "/".join([path.rstrip("/"), "events", event_id])
        super().__init__(tenant, stack_name, stack_id, path)

    def __getattr__(self, name: str) -> Any:
        if name == self.RESOURCE_NAME:
            return getattr(self.resource(), name)
        if name == self.EVENT_ID:
            return self._path_components()[-1]
        return super().__getattr__(name)

    def resource(self) -> ResourceIdentifier:
        """The identifier of the resource the event happened to."""
        return ResourceIdentifier(
            self.tenant, self.stack_name, self.stack_id, "/".join(self._path_components()[:-2])
        )

    def stack(self) -> HeatIdentifier:
        """The identifier of the stack the event's resource belongs to."""
        return self.resource().stack()
