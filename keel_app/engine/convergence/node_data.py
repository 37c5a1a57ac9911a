"""What one graph node hands to the nodes after it: Heat's ``NodeData`` and its stored form."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any


class NodeData:
    """A resource as seen by the functions of resources that depend on it."""

    __slots__ = ("primary_key", "name", "uuid", "_reference_id", "_attributes", "action", "status")

    def __init__(
        self,
        primary_key: int | None,
        resource_name: str | None,
        uuid: str | None,
        reference_id: Any,
        attributes: Mapping[Any, Any],
        action: str | None,
        status: str | None,
    ) -> None:
        self.primary_key = primary_key
        self.name = resource_name
        self.uuid = uuid
        self._reference_id = reference_id
        # Keys are attribute names, or tuples (name, path...) for nested reads.
        self._attributes = dict(attributes)
        self.action = action
        self.status = status

    def reference_id(self) -> Any:
        return self._reference_id

    def attributes(self) -> dict[str, Any]:
        values = {key: value for key, value in self._attributes.items() if isinstance(key, str)}
        for value in values.values():
            if isinstance(value, Exception):
                raise value
        return values

    def attribute(self, attribute_name: Any) -> Any:
        value = self._attributes[attribute_name]
        if isinstance(value, Exception):
            raise value
        return value

    def attribute_names(self) -> Iterator[str]:
        for key in self._attributes:
            yield key if isinstance(key, str) else key[0]

    def as_dict(self) -> dict[str, Any]:
        """The form stored in sync points and sent in ``check_resource``.

        An attribute that failed to resolve cannot be sent on: its error is raised here,
        as in Heat, and fails the resource that produced it.
        """
        for value in self._attributes.values():
            if isinstance(value, Exception):
                raise value
        return {
            "id": self.primary_key,
            "name": self.name,
            "reference_id": self._reference_id,
            "attrs": dict(self._attributes),
            "status": self.status,
            "action": self.action,
            "uuid": self.uuid,
        }

    @classmethod
    def from_dict(cls, node_data: NodeData | Mapping[str, Any]) -> NodeData:
        if isinstance(node_data, cls):
            return node_data
        assert isinstance(node_data, Mapping)
        return cls(
            node_data.get("id"),
            node_data.get("name"),
            node_data.get("uuid"),
            node_data.get("reference_id"),
            node_data.get("attrs", {}),
            node_data.get("action"),
            node_data.get("status"),
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, NodeData):
            return NotImplemented
        return all(getattr(self, slot) == getattr(other, slot) for slot in self.__slots__)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"NodeData({self.as_dict()!r})"


def load_resources_data(data: Mapping[Any, Any]) -> dict[str, NodeData]:
    """The node data that met at a sync point, by resource name (None entries carry none)."""
    nodes = (NodeData.from_dict(value) for value in data.values() if value is not None)
    return {node.name: node for node in nodes if node.name is not None}
