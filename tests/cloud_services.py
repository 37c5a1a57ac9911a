"""Starting the test cloud's services and waiting until each of them works: the APIs
answer, nova's and cinder's daemons report themselves up, and nova maps the compute host.
"""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Callable
from typing import Any

from tests.cloud_config import HOST, Layout
from tests.cloud_files import SWIFT_LAUNCHER, service_environment
from tests.cloud_processes import ProcessGroup, clean_environment, run_logged
from tests.keystone import ADMIN, Keystone

START_TIMEOUT = 240.0
WEB_SERVICES = {  # process name -> (its home directory, the port it serves)
    "placement": ("placement", "placement"),
    "nova-api": ("nova", "compute"),
    "neutron": ("neutron", "network"),
    "cinder-api": ("cinder", "volume"),
    "glance-api": ("glance", "image"),
}
DAEMONS = {  # process name -> (home, its configuration file there)
    "nova-conductor": ("nova", "nova.conf"),
    "nova-scheduler": ("nova", "nova.conf"),
    "nova-compute": ("nova", "nova-compute.conf"),
    "cinder-scheduler": ("cinder", "cinder.conf"),
    "cinder-volume": ("cinder", "cinder.conf"),
    "cinder-backup": ("cinder", "cinder.conf"),
}


def start_web_services(layout: Layout, processes: ProcessGroup) -> None:
    """The WSGI apps under gunicorn and Swift's servers, not waited for."""
    for name, (home, port_name) in WEB_SERVICES.items():
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
        processes.start(name, argv, service_environment(layout, home), cwd=layout.home(home))
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


def start_daemons(layout: Layout, processes: ProcessGroup) -> None:
    for name, (home, config_file) in DAEMONS.items():
        conf = str(layout.home(home) / config_file)
        argv = [str(layout.venv / "bin" / name), "--config-file", conf]
        processes.start(name, argv, service_environment(layout, home), cwd=layout.home(home))


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


def wait_for_everything(layout: Layout, processes: ProcessGroup, keystone: Keystone) -> None:
    """Until every API answers and every daemon reports itself up."""
    for name, (_, port_name) in WEB_SERVICES.items():
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
            {"cinder-scheduler", "cinder-volume", "cinder-backup"},
        ),
        START_TIMEOUT,
        "report its services up",
    )


def discover_compute_host(layout: Layout, processes: ProcessGroup, keystone: Keystone) -> None:
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
