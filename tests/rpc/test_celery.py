"""EngineClient over the Celery transport, served by a real Celery worker (a thread of
this process) on RabbitMQ with its replies in Redis: the same answers and errors as the
local transport, and oslo's timeout when nobody serves the queue."""

from __future__ import annotations

import copy
import json
import re
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from celery.contrib.testing.worker import start_worker
from celery.signals import before_task_publish

from keel_app.common import exception
from keel_app.common.exception_wire import MessagingTimeout
from keel_app.engine.dispatch import LocalQueue
from keel_app.engine.settings import EngineSettings
from keel_app.models.database import Database
from keel_app.rpc.client import EngineClient
from keel_app.tasks import context_wire, runtime
from keel_app.tasks.app import app
from keel_app.tasks.engine_rpc import engine_client
from tests.rpc.conftest import create_web_stack

# Queues of this test session only: no message of another run (or agent) reaches them.
SESSION = uuid.uuid4().hex[:10]
SERVED_QUEUE = f"engine.rpc-test-{SESSION}"
IDLE_QUEUE = f"engine.rpc-test-idle-{SESSION}"


def _delete_queues(*names: str) -> None:
    with app.connection_for_write() as connection:
        for name in names:
            connection.default_channel.queue_delete(name)


@pytest.fixture(scope="module")
def celery_worker() -> Iterator[Any]:
    try:
        with start_worker(
            app,
            pool="solo",
            queues=[SERVED_QUEUE],
            perform_ping_check=False,
            shutdown_timeout=30,
        ) as worker:
            yield worker
    finally:
        _delete_queues(SERVED_QUEUE, IDLE_QUEUE)


@pytest.fixture
def worker_runtime(
    celery_worker: Any, settings: EngineSettings, database: Database, queue: LocalQueue
) -> Iterator[runtime.WorkerRuntime]:
    """What the worker's tasks run with: this test's database, the in-process queue."""
    installed = runtime.WorkerRuntime(None, database, settings, queue)
    runtime.install(installed)
    yield installed
    runtime.install(None)


@pytest.fixture
def celery_client(worker_runtime: runtime.WorkerRuntime, settings: EngineSettings) -> EngineClient:
    return engine_client(settings.auth_encryption_key, queue=SERVED_QUEUE, timeout=30)


def test_create_show_and_list_over_celery(celery_client, local_client, context, queue) -> None:
    identity = create_web_stack(celery_client, context)
    queue.run_until_idle()

    (shown,) = celery_client.show_stack(context, identity)
    assert (shown["stack_name"], shown["stack_action"], shown["stack_status"]) == (
        "web",
        "CREATE",
        "COMPLETE",
    )
    listed = celery_client.list_stacks(context)
    assert [stack["stack_identity"] for stack in listed] == [identity]
    # Both transports answer the same values.
    assert [shown] == local_client.show_stack(context, identity)
    assert celery_client.list_stacks(context) == local_client.list_stacks(context)


def test_context_reaches_the_engine(celery_client, local_client, context, queue) -> None:
    create_web_stack(local_client, context)
    other = copy.copy(context)
    other.project_id = "project-b"

    assert celery_client.count_stacks(context) == 1
    assert celery_client.count_stacks(other) == 0


def test_heat_error_over_celery(celery_client, context, identity) -> None:
    missing = {**identity, "stack_name": "nosuch"}

    with pytest.raises(exception.EntityNotFound) as raised:
        celery_client.show_stack(context, missing)

    assert type(raised.value) is exception.EntityNotFound
    assert str(raised.value) == "The Stack (nosuch) could not be found."
    with pytest.raises(exception.StackExists, match=r"^The Stack \(web\) already exists\.$"):
        create_web_stack(celery_client, context)


def test_timeout_when_no_worker_serves_the_queue(celery_worker, settings, context) -> None:
    client = engine_client(settings.auth_encryption_key, queue=IDLE_QUEUE, timeout=1)
    started = time.monotonic()

    with pytest.raises(MessagingTimeout) as raised:
        client.get_revision(context)

    assert 1 <= time.monotonic() - started < 10
    assert re.fullmatch(
        r"Timed out waiting for a reply to message ID [0-9a-f-]{36}", str(raised.value)
    )


def test_timeout_defaults_to_the_apps_rpc_response_timeout(celery_worker, settings, context):
    previous = app.conf.get("keel_rpc_response_timeout")
    app.conf.keel_rpc_response_timeout = 1
    try:
        client = engine_client(settings.auth_encryption_key, queue=IDLE_QUEUE)
        with pytest.raises(MessagingTimeout):
            client.get_revision(context)
    finally:
        app.conf.keel_rpc_response_timeout = previous


def test_message_carries_no_clear_text_credentials(celery_client, context) -> None:
    published: list[Any] = []

    def capture(body: Any = None, **_: Any) -> None:
        published.append(body)

    before_task_publish.connect(capture)
    try:
        assert celery_client.get_revision(context) == "unknown"
    finally:
        before_task_publish.disconnect(capture)

    (body,) = published
    _args, kwargs, _embed = body
    assert (kwargs["method"], kwargs["arguments"], kwargs["version"]) == ("get_revision", {}, "1.0")
    assert kwargs["context"]["password"] is None
    assert kwargs["context"][context_wire.SEALED_KEY]
    assert context.password not in json.dumps(body)


def test_context_sealed_with_another_key_is_refused(worker_runtime, context) -> None:
    client = engine_client("another key, also 32 characters.", queue=SERVED_QUEUE, timeout=30)

    with pytest.raises(exception.InvalidEncryptionKey) as raised:
        client.get_revision(context)

    assert str(raised.value) == (
        "Can not decrypt data with the auth_encryption_key in heat config."
    )
