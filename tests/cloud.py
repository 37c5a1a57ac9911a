"""A real OpenStack cloud on loopback for the resource plugins' tests.

Nova, Placement, Neutron, Cinder, Glance and Swift (2026.2 releases) are installed from
PyPI into a virtual environment of their own, created on first use and cached
(``$KEEL_CLOUD_VENV``, default ``/var/tmp/openkeel-cloud``). ``running(directory,
keystone)`` starts one cloud in ``directory`` against a given Keystone (tests/keystone.py):

- databases on MariaDB named with a prefix of the run's own, and a RabbitMQ vhost;
- the service users and the catalog (compute, placement, network, volumev3,
  block-storage, image, object-store) in region RegionOne;
- placement, nova-api, neutron, cinder-api and glance-api as WSGI apps under gunicorn;
  nova-conductor, nova-scheduler and nova-compute on the fake virt driver; cinder-scheduler
  and cinder-volume on cinder's fake logging driver; a one-replica Swift (account,
  container, object servers, and a proxy with Keystone auth and tempurl);
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
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import pymysql

from tests import cloud_config
from tests.cloud_catalog import CatalogEntries
from tests.cloud_config import HOST, REGION, Layout
from tests.cloud_processes import (
    CloudStartError,
    ProcessGroup,
    clean_environment,
    group_rss_kib,
    run_logged,
)
from tests.cloud_schemas import create_schemas
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
START_TIMEOUT = 240.0
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


def _free_ports(names: tuple[str, ...]) -> dict[str, int]:
    sockets = []
    try:
        for _ in names:
            bound = socket.socket()
            bound.bind((HOST, 0))
            sockets.append(bound)
        return {name: bound.getsockname()[1] for name, bound in zip(names, sockets, strict=True)}
    finally:
        for bound in sockets:
            bound.close()


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


# --- configuration files ----------------------------------------------------------------

# The gunicorn application module of a WSGI service: the services parse the process's
# arguments as their own command line, so gunicorn's are replaced before the import.
WSGI_ENTRY = """\
import sys

sys.argv = [sys.argv[0], *{arguments!r}]
from {module} import application  # noqa: E402,F401
"""

# Swift reads /etc/swift/swift.conf unless told otherwise; this runs a Swift server with
# the cloud's own swift.conf.
SWIFT_LAUNCHER = """
import importlib, sys
swift_conf, module, server_conf = sys.argv[1:4]
from swift.common import storage_policy, utils
utils.SWIFT_CONF_FILE = swift_conf
utils.validate_hash_conf()
storage_policy.reload_storage_policies()
sys.argv = [module, server_conf]
importlib.import_module(module).main()
"""


def _write_configuration(layout: Layout) -> None:
    layout.home("logs").mkdir(parents=True, exist_ok=True)
    for service in ("nova", "neutron", "cinder", "glance", "placement", "swift"):
        for subdirectory in ("state", "locks"):
            (layout.home(service) / subdirectory).mkdir(parents=True, exist_ok=True)
    nova, neutron, cinder, glance = (
        layout.home(name) for name in ("nova", "neutron", "cinder", "glance")
    )
    (layout.home("placement") / "placement.conf").write_text(cloud_config.placement_conf(layout))
    (nova / "nova.conf").write_text(cloud_config.nova_conf(layout))
    shutil.copy(layout.venv / "etc" / "nova" / "api-paste.ini", nova / "api-paste.ini")
    (neutron / "neutron.conf").write_text(cloud_config.neutron_conf(layout))
    (neutron / "ml2_conf.ini").write_text(cloud_config.ml2_conf())
    _install_binding_driver(neutron / "plugin")
    (cinder / "cinder.conf").write_text(cloud_config.cinder_conf(layout))
    (glance / "glance-api.conf").write_text(cloud_config.glance_conf(layout))
    for store in ("images", "staging", "tasks"):
        (glance / store).mkdir(exist_ok=True)
    swift = layout.home("swift")
    (swift / "swift.conf").write_text(cloud_config.swift_conf())
    (swift / "proxy-server.conf").write_text(cloud_config.swift_proxy_conf(layout))
    for kind in ("account", "container", "object"):
        (swift / f"{kind}-server.conf").write_text(cloud_config.swift_server_conf(layout, kind))
    (swift / "devices" / "d1").mkdir(parents=True, exist_ok=True)
    entries = {
        "placement": ("placement.wsgi.api", []),
        "nova": ("nova.wsgi.osapi_compute", []),
        "neutron": ("neutron.wsgi.api", []),
        "cinder": ("cinder.wsgi.api", ["--config-file", str(cinder / "cinder.conf")]),
        "glance": ("glance.wsgi.api", []),
    }
    for service, (module, arguments) in entries.items():
        entry = WSGI_ENTRY.format(module=module, arguments=arguments)
        (layout.home(service) / f"keel_{service}_entry.py").write_text(entry)


BINDING_DRIVER_ENTRY_POINTS = """\
[neutron.ml2.mechanism_drivers]
keel_loopback = keel_cloud_binding:LoopbackBindingDriver
"""


def _install_binding_driver(plugin_path: Path) -> None:
    """Put tests/cloud_binding_driver.py on neutron's path as an ML2 mechanism driver:
    the module, and a distribution's metadata that names its entry point."""
    metadata = plugin_path / "keel_cloud_binding-1.0.dist-info"
    metadata.mkdir(parents=True, exist_ok=True)
    (metadata / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: keel-cloud-binding\nVersion: 1.0\n"
    )
    (metadata / "entry_points.txt").write_text(BINDING_DRIVER_ENTRY_POINTS)
    shutil.copy(
        Path(__file__).with_name("cloud_binding_driver.py"), plugin_path / "keel_cloud_binding.py"
    )


def _service_environment(layout: Layout, service: str) -> dict[str, str]:
    home = str(layout.home(service))
    extra = {
        "placement": {"OS_PLACEMENT_CONFIG_DIR": home},
        "nova": {"OS_NOVA_CONFIG_DIR": home},
        "neutron": {
            "OS_NEUTRON_CONFIG_DIR": home,
            "OS_NEUTRON_CONFIG_FILES": "neutron.conf;ml2_conf.ini",
            "PYTHONPATH": str(layout.home(service) / "plugin"),
        },
        "glance": {"OS_GLANCE_CONFIG_DIR": home},
    }.get(service, {})
    return clean_environment(**extra)


def _build_rings(layout: Layout) -> None:
    swift = layout.home("swift")
    log_path = layout.home("logs") / "swift-ring-builder.log"
    builder = str(layout.venv / "bin" / "swift-ring-builder")
    for kind in ("account", "container", "object"):
        path = str(swift / f"{kind}.builder")
        device = f"r1z1-{HOST}:{layout.ports['swift-' + kind]}/d1"
        run_logged("swift-ring-builder", [builder, path, "create", "10", "1", "1"], log_path)
        run_logged("swift-ring-builder", [builder, path, "add", device, "1"], log_path)
        # With one device rebalance warns (exit status 1) but writes the ring.
        subprocess.run(
            [builder, path, "rebalance"], capture_output=True, env=clean_environment(), check=False
        )
        if not (swift / f"{kind}.ring.gz").exists():
            raise CloudStartError(f"swift-ring-builder wrote no {kind} ring; see {log_path}")


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


# --- processes --------------------------------------------------------------------------

GUNICORN_SERVICES = {  # service home -> the port it serves
    "placement": "placement",
    "nova": "compute",
    "neutron": "network",
    "cinder": "volume",
    "glance": "image",
}
DAEMONS = {  # process name -> (home, program)
    "nova-conductor": ("nova", "nova-conductor"),
    "nova-scheduler": ("nova", "nova-scheduler"),
    "nova-compute": ("nova", "nova-compute"),
    "cinder-scheduler": ("cinder", "cinder-scheduler"),
    "cinder-volume": ("cinder", "cinder-volume"),
}
CONFIG_FILE = {"nova": "nova.conf", "cinder": "cinder.conf"}


def _start_web_services(layout: Layout, processes: ProcessGroup) -> None:
    for home, port_name in GUNICORN_SERVICES.items():
        name = {"nova": "nova-api", "cinder": "cinder-api", "glance": "glance-api"}.get(home, home)
        argv = [
            str(layout.venv / "bin" / "gunicorn"),
            "--chdir",
            str(layout.home(home)),
            "--bind",
            f"{HOST}:{layout.ports[port_name]}",
            "--workers",
            "1",
            "--threads",
            "4",
            "--timeout",
            "300",
            "--graceful-timeout",
            "5",
            # Clients poll every two seconds, gunicorn's default idle limit: they would
            # now and then send on a connection the server is closing.
            "--keep-alive",
            "300",
            "--no-control-socket",
            f"keel_{home}_entry:application",
        ]
        processes.start(name, argv, _service_environment(layout, home), cwd=layout.home(home))
    swift = layout.home("swift")
    for kind, module in (
        ("account", "swift.account.server"),
        ("container", "swift.container.server"),
        ("object", "swift.obj.server"),
        ("proxy", "swift.proxy.server"),
    ):
        argv = [
            str(layout.venv / "bin" / "python"),
            "-c",
            SWIFT_LAUNCHER,
            str(swift / "swift.conf"),
            module,
            str(swift / f"{kind}-server.conf"),
        ]
        processes.start(f"swift-{kind}", argv, clean_environment(), cwd=swift)


def _start_daemons(layout: Layout, processes: ProcessGroup, names: list[str]) -> None:
    for name in names:
        home, program = DAEMONS[name]
        conf = str(layout.home(home) / CONFIG_FILE[home])
        argv = [str(layout.venv / "bin" / program), "--config-file", conf]
        processes.start(name, argv, clean_environment(), cwd=layout.home(home))


def _get_json(url: str, token: str) -> Any:
    request = urllib.request.Request(
        url, headers={"X-Auth-Token": token, "Accept": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def _services_up(url: str, keystone: Keystone, binaries: set[str]) -> Callable[[], bool]:
    def check() -> bool:
        try:
            services = _get_json(url, keystone.token(ADMIN))["services"]
        except OSError:
            return False
        up = {item["binary"] for item in services if item["state"] == "up"}
        return binaries <= up

    return check


def _wait_for_everything(layout: Layout, processes: ProcessGroup, keystone: Keystone) -> None:
    for home, port_name in GUNICORN_SERVICES.items():
        name = {"nova": "nova-api", "cinder": "cinder-api", "glance": "glance-api"}.get(home, home)
        processes.wait_answering(name, layout.url(port_name) + "/", START_TIMEOUT)
    for kind in ("account", "container", "object"):
        url = f"http://{HOST}:{layout.ports['swift-' + kind]}/healthcheck"
        processes.wait_answering(f"swift-{kind}", url, START_TIMEOUT)
    processes.wait_answering("swift-proxy", layout.url("object-store") + "/healthcheck", 60)
    admin_project = keystone.project_id(ADMIN)
    processes.wait_until(
        "nova-compute",
        _services_up(
            layout.url("compute") + "/v2.1/os-services",
            keystone,
            {"nova-conductor", "nova-scheduler", "nova-compute"},
        ),
        START_TIMEOUT,
        "report its services up",
    )
    processes.wait_until(
        "cinder-volume",
        _services_up(
            layout.url("volume") + f"/v3/{admin_project}/os-services",
            keystone,
            {"cinder-scheduler", "cinder-volume"},
        ),
        START_TIMEOUT,
        "report its services up",
    )


def _discover_compute_host(layout: Layout, processes: ProcessGroup, keystone: Keystone) -> None:
    nova_manage = [
        str(layout.venv / "bin" / "nova-manage"),
        "--config-file",
        str(layout.home("nova") / "nova.conf"),
        "cell_v2",
        "discover_hosts",
    ]
    log_path = layout.home("logs") / "nova-manage.log"

    def mapped() -> bool:
        run_logged("nova-manage cell_v2 discover_hosts", nova_manage, log_path)
        hypervisors = _get_json(
            layout.url("compute") + "/v2.1/os-hypervisors", keystone.token(ADMIN)
        )["hypervisors"]
        providers = _get_json(
            layout.url("placement") + "/resource_providers", keystone.token(ADMIN)
        )["resource_providers"]
        return bool(hypervisors) and bool(providers)

    processes.wait_until("nova-compute", mapped, START_TIMEOUT, "appear as a hypervisor")


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
        ports=_free_ports(PORT_NAMES),
    )
    _write_configuration(layout)
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
            _build_rings(layout)
        cleanup.callback(processes.stop)
        with _timed(timings, "services answering"):
            _start_web_services(layout, processes)
            processes.wait_answering("placement", layout.url("placement") + "/", START_TIMEOUT)
            _start_daemons(layout, processes, list(DAEMONS))
            _wait_for_everything(layout, processes, keystone)
        with _timed(timings, "compute host discovered"):
            _discover_compute_host(layout, processes, keystone)
        yield Cloud(
            keystone=keystone,
            endpoints={kind: url for kind, (_, url) in _catalog(layout).items()},
            directory=str(directory),
            process_ids=processes.pids(),
            startup_seconds=timings,
        )
