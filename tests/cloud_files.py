"""The test cloud's files in its directory: each service's configuration (texts from
tests/cloud_config.py), the small programs that start the WSGI apps and Swift's servers,
neutron's port binding driver, cinder's volume driver, and Swift's rings."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from tests import cloud_config
from tests.cloud_config import HOST, Layout
from tests.cloud_processes import CloudStartError, clean_environment, run_logged

# The gunicorn application module of a WSGI service: the services parse the process's
# arguments as their own command line, so gunicorn's are replaced before the import.
# Then the service's policy enforcer is built, before gunicorn hands the process any
# request: neutron and cinder build it at the first request, and a request that comes
# while another is building it finds no rules and is refused with a 403.
WSGI_ENTRY = """\
import sys

sys.argv = [sys.argv[0], *{arguments!r}]
from {module} import application  # noqa: E402,F401
{policy_ready}
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


def write_configuration(layout: Layout) -> None:
    layout.home("logs").mkdir(parents=True, exist_ok=True)
    for service in ("nova", "neutron", "cinder", "glance", "placement", "swift"):
        for subdirectory in ("state", "locks"):
            (layout.home(service) / subdirectory).mkdir(parents=True, exist_ok=True)
    nova, neutron, cinder, glance = (
        layout.home(name) for name in ("nova", "neutron", "cinder", "glance")
    )
    (layout.home("placement") / "placement.conf").write_text(cloud_config.placement_conf(layout))
    (nova / "nova.conf").write_text(cloud_config.nova_conf(layout))
    (nova / "nova-compute.conf").write_text(cloud_config.nova_conf(layout, compute=True))
    shutil.copy(layout.venv / "etc" / "nova" / "api-paste.ini", nova / "api-paste.ini")
    (neutron / "neutron.conf").write_text(cloud_config.neutron_conf(layout))
    (neutron / "ml2_conf.ini").write_text(cloud_config.ml2_conf())
    _install_binding_driver(neutron / "plugin")
    (cinder / "cinder.conf").write_text(cloud_config.cinder_conf(layout))
    (cinder / "plugin").mkdir(exist_ok=True)
    shutil.copy(
        Path(__file__).with_name("cloud_volume_driver.py"),
        cinder / "plugin" / "keel_cloud_volumes.py",
    )
    (glance / "glance-api.conf").write_text(cloud_config.glance_conf(layout))
    for store in ("images", "staging", "tasks"):
        (glance / store).mkdir(exist_ok=True)
    swift = layout.home("swift")
    (swift / "swift.conf").write_text(cloud_config.swift_conf())
    (swift / "proxy-server.conf").write_text(cloud_config.swift_proxy_conf(layout))
    for kind in ("account", "container", "object"):
        (swift / f"{kind}-server.conf").write_text(cloud_config.swift_server_conf(layout, kind))
    (swift / "devices" / "d1").mkdir(parents=True, exist_ok=True)
    # Placement, nova and glance build their enforcer whole before they share it.
    entries = {
        "placement": ("placement.wsgi.api", [], ""),
        "nova": ("nova.wsgi.osapi_compute", [], ""),
        "neutron": ("neutron.wsgi.api", [], "from neutron import policy\npolicy.init()"),
        "cinder": (
            "cinder.wsgi.api",
            ["--config-file", str(cinder / "cinder.conf")],
            "from cinder import policy\npolicy.init()",
        ),
        "glance": ("glance.wsgi.api", [], ""),
    }
    for service, (module, arguments, policy_ready) in entries.items():
        entry = WSGI_ENTRY.format(module=module, arguments=arguments, policy_ready=policy_ready)
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


def service_environment(layout: Layout, service: str) -> dict[str, str]:
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
        # cinder-volume loads tests/cloud_volume_driver.py from there.
        "cinder": {"PYTHONPATH": str(layout.home(service) / "plugin")},
    }.get(service, {})
    return clean_environment(**extra)


def build_rings(layout: Layout) -> None:
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
