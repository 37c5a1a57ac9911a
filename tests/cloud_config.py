"""The configuration files of the test cloud's services (see tests/cloud.py).

Each function returns the text of one file for a :class:`Layout`: where the cloud lives,
its ports, databases, message vhost and the Keystone it trusts. Only what differs from
the services' defaults, or what a loopback cloud without agents or hypervisors needs, is
written down. Quotas are unlimited: all the tests of a CI run share one cloud. Each
service's database pools are kept small (oslo.db lets one process open 55 connections,
and cinder-scheduler kept 80 open): the cloud shares the machine's MariaDB, whose 151
connections the suite's own databases need too.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field
from pathlib import Path

HOST = "127.0.0.1"
REGION = "RegionOne"
COMPUTE_HOST = "keel-compute"
SERVICE_PASSWORD = "cloud-service-secret"
SERVICE_USERS = ("nova", "neutron", "cinder", "glance", "swift", "placement")
# tests/cloud_volume_driver.py, as tests/cloud_files.py installs it on cinder's path.
VOLUME_DRIVER = "keel_cloud_volumes.FileVolumeDriver"
SWIFT_HASH_SUFFIX = "openkeel-test-cloud"
PROXY_PIPELINE = (
    "catch_errors gatekeeper healthcheck proxy-logging listing_formats tempurl"
    " authtoken keystoneauth copy proxy-logging proxy-server"
)


@dataclass(frozen=True)
class Layout:
    """Everything a configuration file needs to know about one cloud."""

    directory: Path
    venv: Path
    database_prefix: str
    vhost: str
    keystone_url: str  # unversioned
    ports: dict[str, int] = field(default_factory=dict)

    def database_url(self, name: str) -> str:
        return f"mysql+pymysql://root@{HOST}:3306/{self.database_prefix}{name}?charset=utf8"

    @property
    def transport_url(self) -> str:
        return f"rabbit://guest:guest@{HOST}:5672/{self.vhost}"

    def url(self, service: str) -> str:
        return f"http://{HOST}:{self.ports[service]}"

    def home(self, service: str) -> Path:
        return self.directory / service


def _credentials(layout: Layout, user: str) -> str:
    # A keystoneauth password plugin's options for a service user.
    return textwrap.dedent(
        f"""\
        auth_type = password
        auth_url = {layout.keystone_url}/v3
        project_domain_name = Default
        user_domain_name = Default
        project_name = service
        username = {user}
        password = {SERVICE_PASSWORD}
        region_name = {REGION}
        """
    )


def _authtoken(layout: Layout, user: str) -> str:
    return (
        "[keystone_authtoken]\n"
        f"www_authenticate_uri = {layout.keystone_url}/v3\n"
        "service_token_roles_required = true\n"
        "interface = public\n" + _credentials(layout, user)
    )


def _section(name: str, layout: Layout, user: str, *extra: str) -> str:
    return f"[{name}]\n" + _credentials(layout, user) + "".join(line + "\n" for line in extra)


def _common(layout: Layout, service: str) -> str:
    # Logs go to standard error, which the cloud sends to the service's log file.
    return textwrap.dedent(
        f"""\
        use_stderr = true
        debug = false
        transport_url = {layout.transport_url}
        state_path = {layout.home(service) / "state"}
        """
    )


def _locks(layout: Layout, service: str) -> str:
    return f"[oslo_concurrency]\nlock_path = {layout.home(service) / 'locks'}\n"


def placement_conf(layout: Layout) -> str:
    return (
        "[DEFAULT]\nuse_stderr = true\n"
        f"[placement_database]\nconnection = {layout.database_url('placement')}\n"
        "max_pool_size = 4\nmax_overflow = 8\n"
        "[api]\nauth_strategy = keystone\n" + _authtoken(layout, "placement")
    )


def nova_conf(layout: Layout, compute: bool = False) -> str:
    """nova.conf, or with ``compute`` nova-compute's, which reaches the databases only
    through the conductor (given their URLs it would try to reach the cells itself)."""
    nova = layout.home("nova")
    databases = (
        ""
        if compute
        else textwrap.dedent(
            f"""\
            [api_database]
            connection = {layout.database_url("nova_api")}
            max_pool_size = 4
            max_overflow = 8
            [database]
            connection = {layout.database_url("nova")}
            max_pool_size = 4
            max_overflow = 8
            """
        )
    )
    return (
        "[DEFAULT]\n"
        + _common(layout, "nova")
        + textwrap.dedent(
            f"""\
            host = {COMPUTE_HOST}
            my_ip = {HOST}
            compute_driver = fake.FakeDriver
            instances_path = {nova / "instances"}
            # No agent plugs a VIF on this cloud: nova does not wait for neutron's event.
            vif_plugging_is_fatal = false
            vif_plugging_timeout = 0
            # One compute host: a flavor change (Heat's resize) stays on it.
            allow_resize_to_same_host = true
            [api]
            auth_strategy = keystone
            [wsgi]
            api_paste_config = {nova / "api-paste.ini"}
            [quota]
            instances = -1
            cores = -1
            ram = -1
            server_groups = -1
            server_group_members = -1
            [conductor]
            workers = 1
            [scheduler]
            workers = 1
            discover_hosts_in_cells_interval = -1
            [vnc]
            enabled = false
            [oslo_messaging_notifications]
            driver = noop
            [glance]
            valid_interfaces = public
            region_name = {REGION}
            [cinder]
            os_region_name = {REGION}
            catalog_info = volumev3::publicURL
            """
        )
        + databases
        + _locks(layout, "nova")
        + _authtoken(layout, "nova")
        + _section("placement", layout, "placement", "valid_interfaces = public")
        + _section("neutron", layout, "neutron", "valid_interfaces = public")
        + _section("service_user", layout, "nova", "send_service_user_token = true")
    )


def neutron_conf(layout: Layout) -> str:
    return (
        "[DEFAULT]\n"
        + _common(layout, "neutron")
        + textwrap.dedent(
            f"""\
            bind_host = {HOST}
            core_plugin = ml2
            service_plugins = router,qos,segments,trunk,port_forwarding,metering
            auth_strategy = keystone
            api_paste_config = {layout.venv / "etc" / "neutron" / "api-paste.ini"}
            notify_nova_on_port_status_changes = true
            notify_nova_on_port_data_changes = true
            [quotas]
            quota_network = -1
            quota_subnet = -1
            quota_port = -1
            quota_router = -1
            quota_floatingip = -1
            quota_security_group = -1
            quota_security_group_rule = -1
            [database]
            connection = {layout.database_url("neutron")}
            max_pool_size = 4
            max_overflow = 8
            [oslo_messaging_notifications]
            driver = noop
            """
        )
        + _locks(layout, "neutron")
        + _authtoken(layout, "neutron")
        + _section("nova", layout, "nova")
        # The QoS and segments plugins report minimum bandwidth and segments there.
        + _section("placement", layout, "neutron")
    )


def ml2_conf() -> str:
    return textwrap.dedent(
        """\
        [ml2]
        type_drivers = flat,vlan,vxlan
        tenant_network_types = vxlan
        mechanism_drivers = keel_loopback
        extension_drivers = port_security,qos
        [ml2_type_flat]
        flat_networks = *
        [ml2_type_vlan]
        network_vlan_ranges = physnet1:100:199
        [ml2_type_vxlan]
        vni_ranges = 1:1000
        [securitygroup]
        enable_security_group = true
        """
    )


def cinder_conf(layout: Layout) -> str:
    cinder = layout.home("cinder")
    return (
        "[DEFAULT]\n"
        + _common(layout, "cinder")
        + textwrap.dedent(
            f"""\
            host = cinder
            my_ip = {HOST}
            auth_strategy = keystone
            api_paste_config = {layout.venv / "etc" / "cinder" / "api-paste.ini"}
            enabled_backends = fake
            default_volume_type = __DEFAULT__
            quota_volumes = -1
            quota_snapshots = -1
            quota_gigabytes = -1
            quota_backups = -1
            quota_backup_gigabytes = -1
            # cinder-backup keeps backups as files (it reads and writes volumes through
            # the paths tests/cloud_volume_driver.py hands out).
            backup_driver = cinder.backup.drivers.posix.PosixBackupDriver
            backup_posix_path = {cinder / "backups"}
            [database]
            connection = {layout.database_url("cinder")}
            max_pool_size = 4
            max_overflow = 8
            [fake]
            volume_driver = {VOLUME_DRIVER}
            volume_backend_name = fake
            keel_volumes_directory = {cinder / "volumes"}
            [privsep_osbrick]
            # Root already, without sudo: os-brick's privileged daemon is started as is.
            helper_command = {layout.venv / "bin" / "privsep-helper"}
            [oslo_messaging_notifications]
            driver = noop
            [coordination]
            backend_url = file://{layout.home("cinder") / "coordination"}
            """
        )
        + _locks(layout, "cinder")
        + _authtoken(layout, "cinder")
        + _section("nova", layout, "nova", "interface = public")
        + _section("service_user", layout, "cinder", "send_service_user_token = true")
    )


def glance_conf(layout: Layout) -> str:
    glance = layout.home("glance")
    return (
        "[DEFAULT]\n"
        + textwrap.dedent(
            f"""\
            use_stderr = true
            enabled_backends = file:file
            worker_self_reference_url = {layout.url("image")}
            [import_filtering_opts]
            # web-download may fetch from the tests' own servers on loopback.
            allowed_hosts = [{HOST}]
            allowed_ports = []
            [glance_store]
            default_backend = file
            [file]
            filesystem_store_datadir = {glance / "images"}
            [os_glance_staging_store]
            filesystem_store_datadir = {glance / "staging"}
            [os_glance_tasks_store]
            filesystem_store_datadir = {glance / "tasks"}
            [database]
            connection = {layout.database_url("glance")}
            max_pool_size = 4
            max_overflow = 8
            [paste_deploy]
            flavor = keystone
            config_file = {layout.venv / "etc" / "glance" / "glance-api-paste.ini"}
            [oslo_messaging_notifications]
            driver = noop
            """
        )
        + _locks(layout, "glance")
        + _authtoken(layout, "glance")
    )


def swift_conf() -> str:
    return textwrap.dedent(
        f"""\
        [swift-hash]
        swift_hash_path_suffix = {SWIFT_HASH_SUFFIX}
        [storage-policy:0]
        name = default
        default = yes
        """
    )


def swift_server_conf(layout: Layout, kind: str) -> str:
    """account-server, container-server or object-server's configuration."""
    swift = layout.home("swift")
    return textwrap.dedent(
        f"""\
        [DEFAULT]
        bind_ip = {HOST}
        bind_port = {layout.ports["swift-" + kind]}
        workers = 0
        devices = {swift / "devices"}
        mount_check = false
        swift_dir = {swift}
        log_name = {kind}-server
        [pipeline:main]
        pipeline = healthcheck {kind}-server
        [app:{kind}-server]
        use = egg:swift#{kind}
        [filter:healthcheck]
        use = egg:swift#healthcheck
        """
    )


def swift_proxy_conf(layout: Layout) -> str:
    swift = layout.home("swift")
    return textwrap.dedent(
        f"""\
            [DEFAULT]
            bind_ip = {HOST}
            bind_port = {layout.ports["object-store"]}
            workers = 0
            swift_dir = {swift}
            log_name = proxy-server
            [pipeline:main]
            pipeline = {PROXY_PIPELINE}
            [app:proxy-server]
            use = egg:swift#proxy
            account_autocreate = true
            [filter:catch_errors]
            use = egg:swift#catch_errors
            [filter:gatekeeper]
            use = egg:swift#gatekeeper
            [filter:healthcheck]
            use = egg:swift#healthcheck
            [filter:proxy-logging]
            use = egg:swift#proxy_logging
            [filter:listing_formats]
            use = egg:swift#listing_formats
            [filter:tempurl]
            use = egg:swift#tempurl
            [filter:copy]
            use = egg:swift#copy
            [filter:keystoneauth]
            use = egg:swift#keystoneauth
            operator_roles = admin, member
            reseller_admin_role = ResellerAdmin
            [filter:authtoken]
            paste.filter_factory = keystonemiddleware.auth_token:filter_factory
            delay_auth_decision = true
            include_service_catalog = false
            www_authenticate_uri = {layout.keystone_url}/v3
            service_token_roles_required = true
            """
    ) + _credentials(layout, "swift")
