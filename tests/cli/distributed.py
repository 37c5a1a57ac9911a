"""OpenKeel's distributed form behind the tests' Keystone, for clients that log in.

``keel-api`` (the Keystone flavor) and one ``keel-worker`` share a heat.conf made from
the Keystone fixture's sections, a fresh MariaDB database and a private RabbitMQ vhost.
The API's address is put in Keystone's catalog under a region of its own, so a client
that logs in finds it as it finds Heat in a cloud.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path

from keel_app.web.spare_ports import free_port
from tests import databases, fleet
from tests.keystone import (
    ADMIN,
    ADMIN_PASSWORD,
    ALICE,
    HEAT_SERVICE_PASSWORD,
    USER_PASSWORD,
    Keystone,
)
from tests.models.api.factories import migrated_database

HOST = "127.0.0.1"
Credentials = dict[str, str]


def write_conf(
    directory: Path,
    keystone: Keystone,
    database_url: str,
    vhost_url: str,
    defaults: str,
    authtoken: str = "",
) -> Path:
    api_port, cfn_port = free_port(HOST), free_port(HOST)
    # The catalog's Heat endpoints name other ports: the URLs handed to servers (signal
    # URLs, wait condition and metadata endpoints) are configured, as a deployment
    # outside the catalog configures them.
    own_defaults = (
        f"auth_encryption_key = {fleet.ENCRYPTION_KEY}\n"
        f"transport_url = rabbit://{vhost_url.partition('://')[2]}\n"
        "periodic_interval = 1\n"
        f"heat_waitcondition_server_url = http://{HOST}:{cfn_port}/v1/waitcondition\n"
        f"heat_metadata_server_url = http://{HOST}:{cfn_port}\n"
        # A caller's last line may come without its newline.
        + (f"{defaults.rstrip()}\n" if defaults.strip() else "")
    )
    text = keystone.heat_conf().replace("[DEFAULT]\n", f"[DEFAULT]\n{own_defaults}", 1)
    text = text.replace("[keystone_authtoken]\n", f"[keystone_authtoken]\n{authtoken}", 1)
    text += (
        f"\n[database]\nconnection = {database_url}\n"
        f"[heat_api]\nbind_host = {HOST}\nbind_port = {api_port}\n"
        f"[heat_api_cfn]\nbind_host = {HOST}\nbind_port = {cfn_port}\n"
        f"[clients_heat]\nurl = http://{HOST}:{api_port}/v1/%(tenant_id)s\n"
        # The CFN API checks EC2 signatures with Keystone as the service user.
        f"[ec2authtoken]\nauth_type = password\nauth_url = {keystone.url}\n"
        f"username = heat\npassword = {HEAT_SERVICE_PASSWORD}\nproject_name = service\n"
        "user_domain_name = Default\nproject_domain_name = Default\n"
        f"endpoint_override = {keystone.url}\n"
    )
    path = directory / "heat.conf"
    path.write_text(text)
    return path


def api_port(conf_path: Path, section_name: str = "heat_api") -> int:
    text = conf_path.read_text()
    section = text[text.index(f"[{section_name}]") :]
    return int(section.split("bind_port = ", 1)[1].split("\n", 1)[0])


def cfn_port(conf_path: Path) -> int:
    return api_port(conf_path, "heat_api_cfn")


def register_endpoint(keystone: Keystone, url: str) -> str:
    """A region of its own whose orchestration endpoint is ``url``; the region's id."""
    token = keystone.token(ADMIN)
    region = f"keel-cli-{uuid.uuid4().hex[:8]}"
    status, _ = keystone.request("POST", "/regions", token, {"region": {"id": region}})
    assert status == 201, status
    status, services = keystone.request("GET", "/services?type=orchestration", token)
    assert status == 200 and services is not None
    endpoint = {
        "service_id": services["services"][0]["id"],
        "interface": "public",
        "region_id": region,
        "url": url,
    }
    status, _ = keystone.request("POST", "/endpoints", token, {"endpoint": endpoint})
    assert status == 201, status
    return region


def unregister_endpoint(keystone: Keystone, region: str) -> None:
    """Take a region ``register_endpoint`` made out of the catalog again: every token's
    catalog carries it, and a catalog grown too big is refused (Swift's header limit)."""
    token = keystone.token(ADMIN)
    status, found = keystone.request("GET", f"/endpoints?region_id={region}", token)
    for endpoint in (found or {}).get("endpoints", []) if status == 200 else []:
        keystone.request("DELETE", f"/endpoints/{endpoint['id']}", token)
    keystone.request("DELETE", f"/regions/{region}", token)


def login(keystone: Keystone, user: str, project: str, password: str, region: str) -> Credentials:
    return {
        "OS_AUTH_TYPE": "password",
        "OS_AUTH_URL": keystone.auth_url,
        "OS_IDENTITY_API_VERSION": "3",
        "OS_USERNAME": user,
        "OS_PASSWORD": password,
        "OS_PROJECT_NAME": project,
        "OS_USER_DOMAIN_ID": "default",
        "OS_PROJECT_DOMAIN_ID": "default",
        "OS_REGION_NAME": region,
        "OS_INTERFACE": "public",
    }


def wait_for_http(
    url: str, process: subprocess.Popen[bytes], log: Path, timeout: float = 60
) -> None:
    """Return once a server answers at ``url``; if ``process`` ends first or the time runs
    out, fail with the last lines of its ``log``, which say why."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            urllib.request.urlopen(url, timeout=5)
            return
        except urllib.error.HTTPError:
            return  # any answer: the server is up
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                tail = log.read_text(errors="replace").splitlines()[-20:]
                raise RuntimeError(
                    f"{' '.join(map(str, process.args[:3]))} (exit code {process.poll()})"
                    f" did not come up at"
                    f" {url}; the end of {log}:\n" + "\n".join(tail)
                ) from None
            time.sleep(0.2)


@contextlib.contextmanager
def behind_keystone(
    directory: Path,
    keystone: Keystone,
    defaults: str = "",
    authtoken: str = "",
    backend: str = "mysql",
    workers: int = 1,
    concurrency: int = 4,
) -> Iterator[tuple[Credentials, Credentials]]:
    """The deployment running; the credentials of a project member, and of the admin.
    ``defaults`` and ``authtoken`` are lines added to heat.conf's [DEFAULT] and
    [keystone_authtoken] sections; ``backend`` is the database's (mysql, sqlite...);
    ``workers`` keel-workers of ``concurrency`` threads each."""
    with (
        fleet.rabbit_vhost() as vhost_url,
        fleet.broker(vhost_url),
        databases.fresh_database(backend, directory) as database_url,
    ):
        migrated_database(database_url).dispose()
        conf_path = write_conf(directory, keystone, database_url, vhost_url, defaults, authtoken)
        workers_fleet = fleet.Fleet(conf_path, vhost_url, directory)
        workers_fleet.start(workers, concurrency)
        port = api_port(conf_path)
        with open(directory / "keel-api.log", "wb") as log:
            api = subprocess.Popen(
                [sys.executable, "-m", "keel_app.cli.api", "--config-file", str(conf_path)],
                env={**os.environ, "KEEL_BROKER_URL": vhost_url, "PYTHONWARNINGS": "ignore"},
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        region = None
        try:
            wait_for_http(f"http://{HOST}:{port}/", api, directory / "keel-api.log")
            region = register_endpoint(keystone, f"http://{HOST}:{port}/v1/%(project_id)s")
            member = login(keystone, ALICE.user_name, ALICE.project_name, USER_PASSWORD, region)
            admin = login(keystone, ADMIN.user_name, ADMIN.project_name, ADMIN_PASSWORD, region)
            yield member, admin
        finally:
            if region is not None:
                unregister_endpoint(keystone, region)
            api.terminate()
            api.wait(timeout=30)
            workers_fleet.stop()
