"""Scenario: a stack deleted while a resource's create handler is still talking to its
service. The delete's node for the resource finds it locked and waits for the create's
step; the cancel then takes the lock from that step; when the handler goes on to record
what it made, the step finds its lock gone and must hand the resource to the delete."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest

from keel_app.engine.convergence import converge
from keel_app.engine.environment.global_environment import global_env
from keel_app.resources.heat.none import NoneResource
from tests.engine.convergence.harness import Engine

REMOTE = "Keel::Test::Remote"
# What the handler does while it "waits on its service": the test's delete.
DURING_CREATE: list[Any] = []


class Remote(NoneResource):
    """A type whose create reaches another service (its writes are not held back)."""

    acts_locally = False

    def handle_create(self) -> None:
        for step in DURING_CREATE:
            step()
        self.resource_id_set("made-remotely")

    def handle_delete(self) -> None:
        return None


@pytest.fixture(autouse=True)
def remote_type() -> Iterator[None]:
    registry = global_env().registry
    registry.register_class(REMOTE, Remote)
    DURING_CREATE.clear()
    yield
    registry._registry.pop(REMOTE)


def test_a_create_cancelled_in_its_handler_is_deleted_by_the_delete_that_cancelled_it(
    engine: Engine,
) -> None:
    template = {"heat_template_version": "2018-08-31", "resources": {"r": {"type": REMOTE}}}
    stack_id = engine.create(template, run=False)

    def delete_and_cancel() -> None:
        stack = engine.load(stack_id)
        # As the service's delete does: the new traversal, then the lock holders are told.
        engine.delete(stack_id, run=False)
        converge.cancel_workers(stack, engine.queue)
        # Other workers meanwhile: the delete's node for the resource, then the cancel.
        engine.queue.run_until_idle()

    def on_another_worker() -> None:
        worker = threading.Thread(target=delete_and_cancel)
        worker.start()
        worker.join()

    DURING_CREATE.append(on_another_worker)
    engine.queue.run_until_idle()

    assert engine.stack_row_deleted(stack_id) == ("DELETE", "COMPLETE")
    assert engine.resources(stack_id) == []
    reasons = [reason for name, _, _, reason in engine.events(stack_id) if name == "r"]
    assert "CREATE aborted (user triggered cancel)" in reasons
