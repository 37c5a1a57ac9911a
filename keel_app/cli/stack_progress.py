"""How far a stack's current action has got, read off the API's resource documents.

The API folds a resource's action into its status (``CREATE_IN_PROGRESS``); a resource
counts as done once its status is a completed one of any action but INIT (an update
leaves untouched resources at ``CREATE_COMPLETE``), or, while the stack is being
deleted, once it is ``DELETE_COMPLETE``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

DONE, IN_PROGRESS, FAILED, PENDING = "done", "in progress", "failed", "pending"


@dataclass(frozen=True)
class ResourceState:
    """One resource as the API lists it, with the stack it belongs to."""

    stack_id: str
    name: str
    type: str
    status: str
    reason: str
    parent: str | None
    required_by: tuple[str, ...]

    @property
    def key(self) -> tuple[str, str]:
        return self.stack_id, self.name


def resource_states(documents: Iterable[Mapping[str, Any]]) -> list[ResourceState]:
    """The API's resource documents (``nested_depth`` included) as states."""
    return [
        ResourceState(
            stack_id=_stack_id(document),
            name=document["resource_name"],
            type=document["resource_type"],
            status=document["resource_status"],
            reason=document.get("resource_status_reason") or "",
            parent=document.get("parent_resource"),
            required_by=tuple(document.get("required_by") or ()),
        )
        for document in documents
    ]


def _stack_id(document: Mapping[str, Any]) -> str:
    for link in document.get("links", ()):
        if link.get("rel") == "stack":
            return str(link["href"]).rstrip("/").rsplit("/", 1)[-1]
    return ""


def classify(status: str, stack_action: str) -> str:
    """done, in progress, failed or pending, for a resource status during an action."""
    if status.endswith("_FAILED"):
        return FAILED
    if status.endswith("_IN_PROGRESS"):
        return IN_PROGRESS
    if stack_action == "DELETE":
        return DONE if status == "DELETE_COMPLETE" else PENDING
    if status.endswith("_COMPLETE") and not status.startswith("INIT"):
        return DONE
    return PENDING


@dataclass(frozen=True)
class Progress:
    """Counts of a stack's resources by how far they have got."""

    total: int
    done: int
    in_progress: int
    failed: int

    @property
    def pending(self) -> int:
        return self.total - self.done - self.in_progress - self.failed


def summarise(stack_status: str, resources: Iterable[ResourceState]) -> Progress:
    action = stack_status.split("_", 1)[0]
    counts = {DONE: 0, IN_PROGRESS: 0, FAILED: 0, PENDING: 0}
    for resource in resources:
        counts[classify(resource.status, action)] += 1
    return Progress(
        total=sum(counts.values()),
        done=counts[DONE],
        in_progress=counts[IN_PROGRESS],
        failed=counts[FAILED],
    )


def finished(stack_status: str) -> bool:
    return not stack_status.endswith("_IN_PROGRESS")


def exit_code(stack_status: str) -> int:
    """0 for a stack whose action completed, 1 for one that failed."""
    return 0 if stack_status.endswith("_COMPLETE") else 1
