"""Heat's look-up caches with real backends: a custom constraint's successful check is
remembered in memcached or Redis for [constraint_validation_cache] expiration_time, a
failed one is asked again, and nothing is cached unless [cache] enabled says so."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis

from keel_app.clients.engine_clients import OpenStackClients
from keel_app.common import config
from keel_app.common.context import RequestContext
from keel_app.engine.constraints.builtin.service import KeystoneProject
from keel_app.engine.settings import from_conf
from tests.keystone import ADMIN, Keystone

REDIS_DB = 7
BACKENDS = {
    "memcached": "backend = dogpile.cache.memcached\nmemcache_servers = 127.0.0.1:11211\n",
    "redis": (
        f"backend = dogpile.cache.redis\nbackend_argument = url:redis://127.0.0.1:6379/{REDIS_DB}\n"
    ),
}


# Every client a test made, whose cache connections are closed after it.
MADE: list[OpenStackClients] = []


@pytest.fixture(autouse=True)
def closed_cache_connections() -> Iterator[None]:
    yield
    while MADE:
        caches = MADE.pop().lookup_caches
        region = caches.constraint_validation.region
        if region is None:
            continue
        backend = region.backend
        if hasattr(backend, "client"):  # memcached: this thread's client
            backend.client.disconnect_all()
        for name in ("writer_client", "reader_client"):  # Redis
            client = getattr(backend, name, None)
            if client is not None:
                client.connection_pool.disconnect()


def admin_clients(keystone: Keystone, tmp_path: Path, cache: str) -> OpenStackClients:
    path = tmp_path / "heat.conf"
    path.write_text(keystone.heat_conf() + f"\n[cache]\n{cache}")
    settings = from_conf(config.load(["--config-file", str(path)]))
    token, body = keystone.issue(ADMIN)
    context = RequestContext(
        auth_token=token,
        auth_token_info=body,
        project_id=keystone.project_id(ADMIN),
        auth_url=keystone.auth_url,
    )
    clients = OpenStackClients(context, settings)
    context.clients = clients  # type: ignore[attr-defined]
    MADE.append(clients)
    return clients


def make_project(keystone: Keystone, name: str) -> str:
    status, body = keystone.request(
        "POST", "/projects", keystone.token(ADMIN), {"project": {"name": name}}
    )
    assert status == 201 and body is not None
    return str(body["project"]["id"])


def delete_project(keystone: Keystone, project_id: str) -> None:
    token = keystone.token(ADMIN)
    keystone.request("PATCH", f"/projects/{project_id}", token, {"project": {"enabled": False}})
    assert keystone.request("DELETE", f"/projects/{project_id}", token)[0] == 204


@pytest.fixture(autouse=True)
def empty_redis_db() -> Any:
    client = redis.Redis(host="127.0.0.1", port=6379, db=REDIS_DB)
    client.flushdb()
    yield client
    client.flushdb()


@pytest.mark.parametrize("backend", sorted(BACKENDS))
def test_a_valid_value_is_remembered_for_the_expiration_time(
    keystone_service: Keystone, tmp_path: Path, backend: str
) -> None:
    clients = admin_clients(keystone_service, tmp_path, "enabled = true\n" + BACKENDS[backend])
    name = f"cached-{uuid.uuid4().hex[:8]}"
    project_id = make_project(keystone_service, name)

    assert KeystoneProject().validate(name, clients.context)
    delete_project(keystone_service, project_id)

    # Gone from Keystone, still valid from the cache, as in Heat.
    assert KeystoneProject().validate(name, clients.context)


def test_a_failed_check_is_not_remembered(keystone_service: Keystone, tmp_path: Path) -> None:
    clients = admin_clients(keystone_service, tmp_path, "enabled = true\n" + BACKENDS["redis"])
    name = f"later-{uuid.uuid4().hex[:8]}"
    constraint = KeystoneProject()

    assert not constraint.validate(name, clients.context)
    assert constraint.error(name) == (
        f"Error validating value '{name}': The KeystoneProject ({name}) could not be found."
    )
    project_id = make_project(keystone_service, name)
    try:
        assert KeystoneProject().validate(name, clients.context)
    finally:
        delete_project(keystone_service, project_id)


def test_the_redis_backend_holds_the_checks(
    keystone_service: Keystone, tmp_path: Path, empty_redis_db: Any
) -> None:
    clients = admin_clients(keystone_service, tmp_path, "enabled = true\n" + BACKENDS["redis"])

    assert KeystoneProject().validate("admin", clients.context)

    assert len(empty_redis_db.keys()) == 1


def test_nothing_is_cached_unless_caching_is_enabled(
    keystone_service: Keystone, tmp_path: Path, empty_redis_db: Any
) -> None:
    clients = admin_clients(keystone_service, tmp_path, BACKENDS["redis"])
    name = f"uncached-{uuid.uuid4().hex[:8]}"
    project_id = make_project(keystone_service, name)

    assert KeystoneProject().validate(name, clients.context)
    delete_project(keystone_service, project_id)

    assert not KeystoneProject().validate(name, clients.context)
    assert empty_redis_db.keys() == []
