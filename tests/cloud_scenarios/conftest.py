"""OpenKeel's distributed form (keel-api, a keel-worker, MariaDB, RabbitMQ) behind the test
cloud's Keystone, driven with python-heatclient as a project member, while the tests
look at what the real services hold with openstacksdk as the same member."""

from __future__ import annotations

import contextlib
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openstack
import openstack.connection
import pytest
from heatclient import client as heat_client
from heatclient.exc import HTTPNotFound
from keystoneauth1 import session as ks_session
from keystoneauth1.identity import v3

from tests.cli import distributed
from tests.cloud import Cloud
from tests.keystone import ADMIN, ALICE, USER_PASSWORD

STACK_TIMEOUT = 240.0
TERMINAL = ("COMPLETE", "FAILED")


@pytest.fixture(scope="module")
def heat(cloud: Cloud, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A python-heatclient of alice's, talking to keel-api (on MariaDB)."""
    with alice_heat(cloud, tmp_path_factory.mktemp("cloud-scenario"), "mysql") as client:
        yield client


@contextlib.contextmanager
def alice_heat(
    cloud: Cloud,
    directory: Path,
    backend: str,
    defaults: str = "",
    workers: int = 1,
    concurrency: int = 4,
) -> Iterator[Any]:
    """keel-api and ``workers`` keel-workers of ``concurrency`` threads on ``backend``
    (``defaults``: lines of heat.conf's [DEFAULT]), and alice's python-heatclient of it."""
    with distributed.behind_keystone(
        directory,
        cloud.keystone,
        defaults,
        backend=backend,
        workers=workers,
        concurrency=concurrency,
    ):
        port = distributed.api_port(directory / "heat.conf")
        auth = v3.Password(
            auth_url=cloud.auth_url,
            username=ALICE.user_name,
            password=USER_PASSWORD,
            project_name=ALICE.project_name,
            user_domain_id="default",
            project_domain_id="default",
        )
        session = ks_session.Session(auth=auth)
        project_id = cloud.project_id(ALICE)
        yield heat_client.Client(
            "1",
            session=session,
            endpoint_override=f"http://{distributed.HOST}:{port}/v1/{project_id}",
        )


@pytest.fixture(scope="module")
def admin(cloud: Cloud) -> Iterator[openstack.connection.Connection]:
    """openstacksdk as the cloud's admin, for what only an admin sees or makes."""
    connection = openstack.connect(**cloud.auth(ADMIN))
    yield connection
    connection.close()


@pytest.fixture(scope="module")
def member(cloud: Cloud) -> Iterator[openstack.connection.Connection]:
    """openstacksdk as alice: what the services hold for her project."""
    connection = openstack.connect(**cloud.auth(ALICE))
    yield connection
    connection.close()


def wait_for_stack(heat: Any, stack_id: str, action: str, timeout: float = STACK_TIMEOUT) -> Any:
    """The stack once its ``action`` is over (COMPLETE or FAILED)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            stack = heat.stacks.get(stack_id)
        except Exception as error:
            if action == "DELETE" and "404" in str(getattr(error, "code", "")) + str(error):
                return None
            raise
        if stack.stack_status in (f"{action}_{end}" for end in TERMINAL):
            return stack
        assert time.monotonic() < deadline, (stack.stack_status, stack.stack_status_reason)
        time.sleep(0.5)


def physical_ids(heat: Any, stack_id: str) -> dict[str, str]:
    return {
        resource.resource_name: resource.physical_resource_id
        for resource in heat.resources.list(stack_id)
    }


def unique(prefix: str) -> str:
    """A name no other test (nor another run on the same cloud) uses."""
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


def outputs(stack: Any) -> dict[str, Any]:
    return {output["output_key"]: output["output_value"] for output in stack.outputs}


def delete_stack(heat: Any, stack_id: str) -> None:
    heat.stacks.delete(stack_id)
    stack = wait_for_stack(heat, stack_id, "DELETE")
    assert stack is None or stack.stack_status == "DELETE_COMPLETE", stack.stack_status_reason


@contextlib.contextmanager
def stacks_deleted_after(heat: Any) -> Iterator[list[str]]:
    """A list for the ids of the stacks a test makes: each is deleted at the end,
    whatever became of it."""
    made: list[str] = []
    yield made
    for stack_id in made:
        try:
            heat.stacks.delete(stack_id)
        except HTTPNotFound:
            continue
        wait_for_stack(heat, stack_id, "DELETE")


@pytest.fixture
def stacks_left_behind(heat: Any) -> Iterator[None]:
    """Deletes the stacks a failed test left (what they made goes with them)."""
    before = {stack.id for stack in heat.stacks.list()}
    yield
    for stack in heat.stacks.list():
        if stack.id not in before and stack.stack_status != "DELETE_COMPLETE":
            with contextlib.suppress(HTTPNotFound):
                heat.stacks.delete(stack.id)
                wait_for_stack(heat, stack.id, "DELETE")
