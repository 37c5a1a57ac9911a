"""heat.conf: OpenKeel's options against Heat 27.0.1's, and loading an operator's files."""

from __future__ import annotations

import importlib
import inspect
import socket
import textwrap
from pathlib import Path
from typing import Any

import pytest
from oslo_config import cfg

from keel_app.common import config, opts
from tests import oracle


def describe_option(option: Any, group: str) -> dict[str, Any]:
    """What an operator can observe of an option, in a form both interpreters can compare.

    Runs here and, by its source, in the oracle; so it only uses the option object.
    """
    option_type = option.type
    type_name = type(option_type).__name__
    # keystoneauth1 builds its plugin options with plain Python types.
    for builtin, name in ((str, "String"), (int, "Integer"), (float, "Float"), (bool, "Boolean")):
        if option_type is builtin:
            type_name = name
    item_type = getattr(option_type, "item_type", None)
    if item_type is not None:
        type_name += "(" + type(item_type).__name__ + ")"
    choices = getattr(option_type, "choices", None)
    # A deprecated alias without a group or a name keeps the option's own.
    deprecated = sorted(
        {
            (old.group or group, (old.name or option.dest).replace("-", "_"))
            for old in option.deprecated_opts
        }
    )
    return {
        "type": type_name,
        "default": option.default,
        "secret": bool(option.secret),
        "min": getattr(option_type, "min", None),
        "max": getattr(option_type, "max", None),
        "choices": list(choices) if choices is not None else None,
        "deprecated_names": [list(pair) for pair in deprecated],
        "deprecated_for_removal": bool(option.deprecated_for_removal),
    }


HEAT_NAMESPACES = [
    "heat.api.aws.ec2token",
    "heat.common.cache",
    "heat.common.config",
    "heat.common.context",
    "heat.common.crypt",
    "heat.common.wsgi",
    "heat.engine.clients",
    "heat.engine.clients.os.keystone.heat_keystoneclient",
    "heat.engine.hot.functions",
    "heat.engine.notification",
    "heat.engine.resources",
]
LIBRARY_NAMESPACES = [
    "keystonemiddleware.auth_token",
    "oslo.cache",
    "oslo.log",
    "oslo.messaging",
    "oslo.policy",
    "osprofiler",
]

ORACLE_SOURCE = """
from __future__ import annotations

import json

from keystoneauth1 import loading
from oslo_config import cfg
from stevedore import named

from heat.common import cache, config, messaging

HEAT_NAMESPACES = {heat_namespaces!r}
LIBRARY_NAMESPACES = {library_namespaces!r}

{describe_source}

def fail_to_load(manager, entry_point, error):
    raise error

manager = named.NamedExtensionManager(
    "oslo.config.opts",
    names=HEAT_NAMESPACES + LIBRARY_NAMESPACES,
    invoke_on_load=True,
    on_load_failure_callback=fail_to_load,
)
assert sorted(manager.names()) == sorted(HEAT_NAMESPACES + LIBRARY_NAMESPACES), manager.names()
listed = []
for extension in manager:
    for group, options in extension.obj:
        group_name = getattr(group, "name", group) or "DEFAULT"
        listed.append((extension.name, group_name, list(options)))
# keystonemiddleware registers these when heat.conf says auth_type = password.
listed.append(
    ("keystonemiddleware.auth_token", "keystone_authtoken",
     loading.get_auth_plugin_conf_options("password"))
)

# The defaults Heat changes while starting (control_exchange, [ec2authtoken]
# service_type, osprofiler's and oslo.cache's registrations).
messaging.setup("fake://")
cache.register_cache_configurations(cfg.CONF)
config.set_config_defaults()
cfg.CONF([], project="heat", default_config_files=[])

def running_default(group, option):
    try:
        section = cfg.CONF if group == "DEFAULT" else getattr(cfg.CONF, group)
        return getattr(section, option.dest)
    except (cfg.NoSuchOptError, cfg.NoSuchGroupError):
        return option.default

shapes = {{}}
heat_owned = {{}}
for namespace, group, options in listed:
    for option in options:
        shape = describe_option(option, group)
        shape["default"] = running_default(group, option)
        shapes.setdefault(group, {{}})[option.dest] = shape
        if namespace in HEAT_NAMESPACES:
            heat_owned.setdefault(group, []).append(option.dest)
print(json.dumps({{"shapes": shapes, "heat_owned": heat_owned}}))
"""

# Heat and OpenKeel both default it to the name of the machine they run on.
MACHINE_DEPENDENT = {("DEFAULT", "host")}


def openkeel_shapes() -> dict[str, dict[str, dict[str, Any]]]:
    shapes: dict[str, dict[str, dict[str, Any]]] = {}
    for module_name in opts.MODULES:
        for group, options in importlib.import_module(module_name).GROUPS:
            for option in options:
                shapes.setdefault(group, {})[option.dest] = describe_option(option, group)
    return shapes


@pytest.fixture(scope="module")
def heat_options() -> dict[str, Any]:
    source = ORACLE_SOURCE.format(
        heat_namespaces=HEAT_NAMESPACES,
        library_namespaces=LIBRARY_NAMESPACES,
        describe_source=textwrap.dedent(inspect.getsource(describe_option)),
    )
    return oracle.run_json(source)


@pytest.mark.oracle
def test_every_option_shared_with_heat_has_heat_shape(heat_options: dict[str, Any]) -> None:
    heat_shapes = heat_options["shapes"]
    differences = []
    for group, options in openkeel_shapes().items():
        if group not in heat_shapes:
            continue
        for name, ours in options.items():
            theirs = heat_shapes[group].get(name)
            if theirs is None:
                differences.append(f"[{group}] {name}: not a Heat option")
                continue
            if (group, name) in MACHINE_DEPENDENT:
                ours = {**ours, "default": None}
                theirs = {**theirs, "default": None}
            differing = {key: (ours[key], theirs[key]) for key in ours if ours[key] != theirs[key]}
            if differing:
                differences.append(f"[{group}] {name}: (ours, Heat's) {differing}")
    assert not differences, "\n".join(differences)


@pytest.mark.oracle
def test_every_option_of_heat_namespaces_is_registered(heat_options: dict[str, Any]) -> None:
    ours = openkeel_shapes()
    missing = [
        f"[{group}] {name}"
        for group, names in heat_options["heat_owned"].items()
        for name in names
        if name not in ours.get(group, {})
    ]
    assert not missing, "\n".join(missing)


def test_host_defaults_to_the_machine_name() -> None:
    assert config.load([], default_config_files=[]).host == socket.gethostname()


def test_every_option_reads_without_a_file() -> None:
    conf = config.load([], default_config_files=[])
    unreadable = []
    for module_name in opts.MODULES:
        for group, options in importlib.import_module(module_name).GROUPS:
            section = conf if group == "DEFAULT" else conf[group]
            for option in options:
                try:
                    section[option.dest]
                except cfg.Error as error:
                    unreadable.append(f"[{group}] {option.dest}: {error}")
    assert not unreadable, "\n".join(unreadable)


OPERATOR_HEAT_CONF = """\
[DEFAULT]
transport_url = rabbit://heat:secret@rabbit1:5672,heat:secret@rabbit2:5672/
auth_encryption_key = 0123456789abcdef0123456789abcdef
host = heat-engine-1
num_engine_workers = 4
max_resources_per_stack = 2000
max_nested_stack_depth = 7
stack_action_timeout = 7200
convergence_engine = true
hidden_stack_tags = data-processing-cluster,internal
region_name_for_services = RegionTwo
stack_user_domain_name = heat
stack_domain_admin = heat_domain_admin
stack_domain_admin_password = domain-secret
heat_metadata_server_url = http://10.0.0.5:8000
heat_waitcondition_server_url = http://10.0.0.5:8000/v1/waitcondition

[database]
connection = mysql+pymysql://heat:dbpass@db.example.org/heat

[keystone_authtoken]
www_authenticate_uri = http://keystone.example.org:5000
auth_url = http://keystone.example.org:5000
memcached_servers = memcache1:11211,memcache2:11211
auth_type = password
project_domain_name = Default
user_domain_name = Default
project_name = service
username = heat
password = ks-secret
service_token_roles_required = true

[trustee]
auth_type = password
auth_url = http://keystone.example.org:5000
username = heat
password = ks-secret
user_domain_name = Default

[clients_nova]
endpoint_type = internal
http_log_debug = true

[clients_keystone]
auth_uri = http://keystone.example.org:5000

[cache]
enabled = true
backend = dogpile.cache.memcached
memcache_servers = memcache1:11211
"""


def write_file(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


def test_operator_heat_conf_sets_the_values_it_names(tmp_path: Path) -> None:
    heat_conf = write_file(tmp_path / "heat.conf", OPERATOR_HEAT_CONF)

    conf = config.load(["--config-file", str(heat_conf)], default_config_files=[])

    assert {
        "transport_url": conf.transport_url,
        "auth_encryption_key": conf.auth_encryption_key,
        "host": conf.host,
        "num_engine_workers": conf.num_engine_workers,
        "max_resources_per_stack": conf.max_resources_per_stack,
        "max_nested_stack_depth": conf.max_nested_stack_depth,
        "stack_action_timeout": conf.stack_action_timeout,
        "convergence_engine": conf.convergence_engine,
        "hidden_stack_tags": conf.hidden_stack_tags,
        "region_name_for_services": conf.region_name_for_services,
        "stack_user_domain_name": conf.stack_user_domain_name,
        "stack_domain_admin": conf.stack_domain_admin,
        "stack_domain_admin_password": conf.stack_domain_admin_password,
        "heat_metadata_server_url": conf.heat_metadata_server_url,
        "heat_waitcondition_server_url": conf.heat_waitcondition_server_url,
    } == {
        "transport_url": "rabbit://heat:secret@rabbit1:5672,heat:secret@rabbit2:5672/",
        "auth_encryption_key": "0123456789abcdef0123456789abcdef",
        "host": "heat-engine-1",
        "num_engine_workers": 4,
        "max_resources_per_stack": 2000,
        "max_nested_stack_depth": 7,
        "stack_action_timeout": 7200,
        "convergence_engine": True,
        "hidden_stack_tags": ["data-processing-cluster", "internal"],
        "region_name_for_services": "RegionTwo",
        "stack_user_domain_name": "heat",
        "stack_domain_admin": "heat_domain_admin",
        "stack_domain_admin_password": "domain-secret",
        "heat_metadata_server_url": "http://10.0.0.5:8000",
        "heat_waitcondition_server_url": "http://10.0.0.5:8000/v1/waitcondition",
    }
    assert config.database_url(conf) == "mysql+pymysql://heat:dbpass@db.example.org/heat"
    authtoken = conf.keystone_authtoken
    assert (
        authtoken.www_authenticate_uri,
        authtoken.auth_url,
        authtoken.memcached_servers,
        authtoken.auth_type,
        authtoken.project_domain_name,
        authtoken.user_domain_name,
        authtoken.project_name,
        authtoken.username,
        authtoken.password,
        authtoken.service_token_roles_required,
    ) == (
        "http://keystone.example.org:5000",
        "http://keystone.example.org:5000",
        ["memcache1:11211", "memcache2:11211"],
        "password",
        "Default",
        "Default",
        "service",
        "heat",
        "ks-secret",
        True,
    )
    trustee = conf.trustee
    assert (
        trustee.auth_type,
        trustee.auth_url,
        trustee.username,
        trustee.password,
        trustee.user_domain_name,
        trustee.user_domain_id,
    ) == ("password", "http://keystone.example.org:5000", "heat", "ks-secret", "Default", None)
    # [clients_nova] sets only what it names; the rest falls back to [clients].
    nova = conf.clients_nova
    assert (nova.endpoint_type, nova.http_log_debug, nova.insecure, nova.ca_file) == (
        "internal",
        True,
        None,
        None,
    )
    assert conf.clients_keystone.auth_uri == "http://keystone.example.org:5000"
    assert (conf.clients.endpoint_type, conf.clients.insecure) == ("public", False)
    cache = conf.cache
    assert (cache.enabled, cache.backend, cache.memcache_servers, cache.expiration_time) == (
        True,
        "dogpile.cache.memcached",
        ["memcache1:11211"],
        600,
    )
    assert conf.constraint_validation_cache.expiration_time == 60


def test_config_dir_files_apply_in_name_order(tmp_path: Path) -> None:
    heat_conf_d = tmp_path / "heat.conf.d"
    heat_conf_d.mkdir()
    write_file(
        heat_conf_d / "10-base.conf",
        "[DEFAULT]\nmax_stacks_per_tenant = 100\nclient_retry_limit = 4\n"
        "[trustee]\nusername = heat\n",
    )
    write_file(heat_conf_d / "20-site.conf", "[DEFAULT]\nmax_stacks_per_tenant = 50\n")

    conf = config.load(["--config-dir", str(heat_conf_d)], default_config_files=[])

    assert (conf.max_stacks_per_tenant, conf.client_retry_limit, conf.trustee.username) == (
        50,
        4,
        "heat",
    )


def test_no_file_gives_heat_defaults_and_sqlite_in_the_state_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(config.STATE_DIR_ENV, str(tmp_path / "state"))

    conf = config.load([], default_config_files=[])

    assert {
        "max_resources_per_stack": conf.max_resources_per_stack,
        "max_stacks_per_tenant": conf.max_stacks_per_tenant,
        "max_nested_stack_depth": conf.max_nested_stack_depth,
        "max_events_per_stack": conf.max_events_per_stack,
        "event_purge_batch_size": conf.event_purge_batch_size,
        "action_retry_limit": conf.action_retry_limit,
        "stack_action_timeout": conf.stack_action_timeout,
        "max_template_size": conf.max_template_size,
        "max_json_body_size": conf.max_json_body_size,
        "num_engine_workers": conf.num_engine_workers,
        "convergence_engine": conf.convergence_engine,
        "encrypt_parameters_and_properties": conf.encrypt_parameters_and_properties,
        "auth_encryption_key": conf.auth_encryption_key,
        "engine_life_check_timeout": conf.engine_life_check_timeout,
        "rpc_response_timeout": conf.rpc_response_timeout,
        "control_exchange": conf.control_exchange,
        "deferred_auth_method": conf.deferred_auth_method,
        "client_retry_limit": conf.client_retry_limit,
        "stack_user_domain_id": conf.stack_user_domain_id,
        "region_name_for_services": conf.region_name_for_services,
    } == {
        "max_resources_per_stack": 1000,
        "max_stacks_per_tenant": 512,
        "max_nested_stack_depth": 5,
        "max_events_per_stack": 1000,
        "event_purge_batch_size": 200,
        "action_retry_limit": 5,
        "stack_action_timeout": 3600,
        "max_template_size": 524288,
        "max_json_body_size": 1048576,
        "num_engine_workers": None,
        "convergence_engine": True,
        "encrypt_parameters_and_properties": False,
        "auth_encryption_key": "notgood but just long enough i t",
        "engine_life_check_timeout": 2,
        "rpc_response_timeout": 60,
        "control_exchange": "heat",
        "deferred_auth_method": "trusts",
        "client_retry_limit": 2,
        "stack_user_domain_id": None,
        "region_name_for_services": None,
    }
    assert config.database_url(conf) == f"sqlite:///{tmp_path / 'state' / 'openkeel.sqlite'}"


def test_unknown_options_and_sections_are_ignored(tmp_path: Path) -> None:
    heat_conf = write_file(
        tmp_path / "heat.conf",
        "[DEFAULT]\nno_such_option = 1\nmax_template_size = 1024\n"
        "[heat_api_cloudwatch]\nbind_port = 8003\n",
    )

    conf = config.load(["--config-file", str(heat_conf)], default_config_files=[])

    assert conf.max_template_size == 1024
    assert "no_such_option" not in conf
    assert "heat_api_cloudwatch" not in conf


def test_deprecated_names_still_set_their_option(tmp_path: Path) -> None:
    heat_conf = write_file(
        tmp_path / "heat.conf",
        "[DEFAULT]\nrpc_thread_pool_size = 16\n"
        "[keystone_authtoken]\nmemcache_servers = memcache1:11211\n"
        "[trustee]\nuser_name = heat\ntenant_name = service\n",
    )

    conf = config.load(["--config-file", str(heat_conf)], default_config_files=[])

    assert (
        conf.executor_thread_pool_size,
        conf.keystone_authtoken.memcached_servers,
        conf.trustee.username,
        conf.trustee.project_name,
    ) == (16, ["memcache1:11211"], "heat", "service")


def test_bad_value_fails_with_oslo_config_error(tmp_path: Path) -> None:
    heat_conf = write_file(tmp_path / "heat.conf", "[DEFAULT]\nmax_template_size = abc\n")
    conf = config.load(["--config-file", str(heat_conf)], default_config_files=[])

    with pytest.raises(cfg.ConfigFileValueError) as raised:
        conf["max_template_size"]

    assert str(raised.value) == (
        "Value for option max_template_size from LocationInfo(location=<Locations.user: "
        f"(4, True)>, detail='{heat_conf}') is not valid: "
        "invalid literal for int() with base 10: 'abc'"
    )
