"""A real OpenStack cloud on loopback for the resource plugins' tests.

Nova, Placement, Neutron, Cinder, Glance and Swift (2026.2 releases) are installed from
PyPI into a virtual environment of their own, created on first use and cached
(``$KEEL_CLOUD_VENV``, default ``/var/tmp/openkeel-cloud``). ``running(directory,
keystone)`` starts one cloud in ``directory`` against a given Keystone (tests/keystone.py):

- databases on MariaDB named with a prefix of the run's own, and a RabbitMQ vhost;
- the service users and the catalog (compute, placement, network, volumev3,
  block-storage, image, object-store) in region RegionOne;
- placement, nova-api, neutron, cinder-api and glance-api as WSGI apps under gunicorn;
  nova-conductor, nova-scheduler and nova-compute on the fake virt driver; cinder-scheduler,
  cinder-volume on a driver of ours that keeps volumes as files
  (tests/cloud_volume_driver.py) and cinder-backup with the POSIX backup driver; a
  one-replica Swift (account, container, object servers, and a proxy with Keystone auth
  and tempurl);
- ports bound by a mechanism driver of ours (tests/cloud_binding_driver.py), which binds
  every port without an agent.

Everything listens on 127.0.0.1 and logs to ``directory/logs``; on exit the processes
are stopped and the databases, the vhost and the Keystone entries are removed.
"""

from __future__ import annotations

import fcntl
import json
import os
import secrets
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path

import pymysql

from keel_app.web.spare_ports import free_port
from tests import cloud_config
from tests.cloud_catalog import CatalogEntries
from tests.cloud_config import HOST, REGION, Layout
from tests.cloud_files import build_rings, write_configuration
from tests.cloud_processes import (
    ProcessGroup,
    group_rss_kib,
)
from tests.cloud_schemas import create_schemas
from tests.cloud_services import (
    START_TIMEOUT,
    discover_compute_host,
    start_daemons,
    start_web_services,
    wait_for_everything,
)
from tests.keystone import ADMIN, Account, Keystone

CLOUD_REQUIREMENTS = [
    "nova==34.0.0",
    "openstack-placement==16.0.0",
    "neutron==29.0.0",
    "cinder==29.0.0",
    "glance==33.0.0",
    "swift==2.38.3",
    "keystone==30.0.0",
    "gunicorn==27.0.1",
    "PyMySQL",
]
VENV = Path(os.environ.get("KEEL_CLOUD_VENV", "/var/tmp/openkeel-cloud"))
_READY_MARK = VENV / ".openkeel-cloud-ready"
DATABASES = ("nova_api", "nova", "nova_cell0", "placement", "neutron", "cinder", "glance")
PORT_NAMES = (
    "placement",
    "compute",
    "network",
    "volume",
    "image",
    "object-store",
    "swift-account",
    "swift-container",
    "swift-object",
)


def ensure() -> None:
    """Build the cloud's virtual environment unless a previous run did."""
    if _READY_MARK.exists():
        return
    VENV.parent.mkdir(parents=True, exist_ok=True)
    lock_path = VENV.parent / (VENV.name + ".lock")
    with open(lock_path, "w") as lock:
        # Several pytest processes may start at once; one builds, the others wait.
        fcntl.flock(lock, fcntl.LOCK_EX)
        if _READY_MARK.exists():
            return
        if not (VENV / "bin" / "python").exists():
            subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
        subprocess.run(
            [str(VENV / "bin" / "pip"), "install", "-q", *CLOUD_REQUIREMENTS], check=True
        )
        _READY_MARK.write_text("\n".join(CLOUD_REQUIREMENTS) + "\n")


@dataclass(frozen=True)
class Cloud:
    """A running cloud: its Keystone, the catalog's endpoints and its processes."""

    keystone: Keystone
    endpoints: dict[str, str]  # service type -> URL, as the catalog has it
    directory: str
    process_ids: dict[str, int] = field(default_factory=dict)
    startup_seconds: dict[str, float] = field(default_factory=dict)  # by phase
    region: str = REGION
    compute_host: str = cloud_config.COMPUTE_HOST

    @property
    def auth_url(self) -> str:
        return self.keystone.auth_url

    def token(self, account: Account = ADMIN) -> str:
        """A token scoped to ``account``'s project."""
        return self.keystone.token(account)

    def project_id(self, account: Account = ADMIN) -> str:
        return self.keystone.project_id(account)

    def auth(self, account: Account = ADMIN) -> dict[str, str]:
        """Keyword arguments for ``openstack.connect`` as ``account``."""
        return {
            "auth_url": self.auth_url,
            "username": account.user_name,
            "password": account.password,
            "project_name": account.project_name,
            "user_domain_id": "default",
            "project_domain_id": "default",
            "region_name": self.region,
            "interface": "public",
            "identity_api_version": "3",
        }

    def rss_kib(self) -> dict[str, int]:
        """Resident memory of each service with everything it forked, in KiB."""
        return {name: group_rss_kib(pid) for name, pid in self.process_ids.items()}

    def save(self, path: Path) -> None:
        path.write_text(json.dumps(asdict(self), indent=2))

    @classmethod
    def load(cls, path: Path) -> Cloud:
        """The cloud described by a state file that ``tools/test-cloud up`` wrote."""
        state = json.loads(path.read_text())
        return cls(**{**state, "keystone": Keystone(**state["keystone"])})


# --- databases and the message vhost -----------------------------------------------------


def _mysql(statement: str) -> None:
    connection = pymysql.connect(host=HOST, port=3306, user="root")
    try:
        with connection.cursor() as cursor:
            cursor.execute(statement)
    finally:
        connection.close()


def _create_databases(prefix: str) -> None:
    for name in DATABASES:
        _mysql(f"CREATE DATABASE `{prefix}{name}` CHARACTER SET utf8mb4")


def _drop_databases(prefix: str) -> None:
    for name in DATABASES:
        _mysql(f"DROP DATABASE IF EXISTS `{prefix}{name}`")


def _rabbitmqctl(*args: str) -> None:
    subprocess.run(["rabbitmqctl", "-q", *args], check=True, capture_output=True, timeout=120)


def _create_vhost(vhost: str) -> None:
    _rabbitmqctl("add_vhost", vhost)
    _rabbitmqctl("set_permissions", "-p", vhost, "guest", ".*", ".*", ".*")


def _delete_vhost(vhost: str) -> None:
    _rabbitmqctl("delete_vhost", vhost)


# --- the catalog ------------------------------------------------------------------------


def _catalog(layout: Layout) -> dict[str, tuple[str, str]]:
    """Service type -> (service name, endpoint URL)."""
    volume = layout.url("volume") + "/v3/%(project_id)s"
    return {
        "compute": ("nova", layout.url("compute") + "/v2.1"),
        "placement": ("placement", layout.url("placement")),
        "network": ("neutron", layout.url("network")),
        "volumev3": ("cinderv3", volume),
        "block-storage": ("cinder", volume),
        "image": ("glance", layout.url("image")),
        "object-store": ("swift", layout.url("object-store") + "/v1/AUTH_%(project_id)s"),
    }


@contextmanager
def _timed(timings: dict[str, float], phase: str) -> Iterator[None]:
    started = time.monotonic()
    yield
    timings[phase] = round(time.monotonic() - started, 1)


@contextmanager
def running(directory: Path, keystone: Keystone) -> Iterator[Cloud]:
    """A fresh cloud in ``directory`` registered in ``keystone``; taken down after."""
    ensure()
    directory.mkdir(parents=True, exist_ok=True)
    prefix = f"keelcloud_{secrets.token_hex(4)}_"
    layout = Layout(
        directory=directory,
        venv=VENV,
        database_prefix=prefix,
        vhost=prefix.rstrip("_"),
        keystone_url=keystone.url,
        ports={name: free_port(HOST) for name in PORT_NAMES},
    )
    write_configuration(layout)
    processes = ProcessGroup(layout.home("logs"))
    catalog = CatalogEntries(keystone)
    timings: dict[str, float] = {}
    with ExitStack() as cleanup:
        with _timed(timings, "databases and vhost"):
            cleanup.callback(_drop_databases, prefix)
            _create_databases(prefix)
            cleanup.callback(_delete_vhost, layout.vhost)
            _create_vhost(layout.vhost)
        with _timed(timings, "keystone entries"):
            cleanup.callback(catalog.remove)
            catalog.add_service_users()
            for service_type, (name, url) in _catalog(layout).items():
                catalog.add_service(name, service_type, url)
        with _timed(timings, "schemas"):
            how = create_schemas(layout, CLOUD_REQUIREMENTS)
        timings[f"schemas {how}"] = timings.pop("schemas")
        with _timed(timings, "swift rings"):
            build_rings(layout)
        cleanup.callback(processes.stop)
        with _timed(timings, "services answering"):
            start_web_services(layout, processes)
            # nova-compute reports its resources to placement as it starts.
            processes.wait_answering("placement", layout.url("placement") + "/", START_TIMEOUT)
            start_daemons(layout, processes)
            wait_for_everything(layout, processes, keystone)
        with _timed(timings, "compute host discovered"):
            discover_compute_host(layout, processes, keystone)
        yield Cloud(
            keystone=keystone,
            endpoints={kind: url for kind, (_, url) in _catalog(layout).items()},
            directory=str(directory),
            process_ids=processes.pids(),
            startup_seconds=timings,
        )
