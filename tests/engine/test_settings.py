from __future__ import annotations

import dataclasses

import pytest

from keel_app.common import config
from keel_app.engine.settings import EngineSettings, from_conf
from keel_app.engine.template import TemplateLimits


def test_defaults_are_heats() -> None:
    settings = EngineSettings(host="engine-1", engine_id="e-1")

    assert dataclasses.asdict(settings) == {
        "max_resources_per_stack": 1000,
        "max_stacks_per_tenant": 512,
        "max_software_configs_per_tenant": 4096,
        "max_software_deployments_per_tenant": 4096,
        "max_nested_stack_depth": 5,
        "max_template_size": 524288,
        "max_json_body_size": 1048576,
        "max_events_per_stack": 1000,
        "max_snapshots_per_stack": 32,
        "event_purge_batch_size": 200,
        "action_retry_limit": 5,
        "stack_action_timeout": 3600,
        "convergence_engine": True,
        "encrypt_parameters_and_properties": False,
        "auth_encryption_key": "notgood but just long enough i t",
        "hidden_stack_tags": (),
        "enable_stack_abandon": False,
        "enable_stack_adopt": False,
        "heat_revision": "unknown",
        "keystone": None,
        "stack_domain": None,
        "heat_endpoints": {
            "url": None,
            "endpoint_type": "publicURL",
            "insecure": False,
            "region_name_for_services": None,
            "waitcondition_server_url": None,
            "metadata_server_url": None,
        },
        # No service connection settings until heat.conf gives them (Heat's defaults
        # then: public endpoints, certificates checked, 2 retries), and no caches.
        "clients": {
            "services": {},
            "region_name_for_services": None,
            "region_name_for_shared_services": None,
            "shared_services_types": ("image", "volumev3"),
            "connect_retries": 2,
            "max_nova_api_microversion": None,
            "caches": {
                name: {"region": None, "expiration_time": 600}
                for name in ("constraint_validation", "resource_finder", "service_extension")
            },
        },
        "default_deployment_signal_transport": "CFN_SIGNAL",
        "default_software_config_transport": "POLL_SERVER_CFN",
        "default_user_data_format": "HEAT_CFNTOOLS",
        "server_keystone_endpoint_type": "",
        "stack_scheduler_hints": False,
        "max_server_name_length": 53,
        "metadata_put_timeout": 60.0,
        "volume_backups_enabled": True,
        "host": "engine-1",
        "engine_id": "e-1",
        # No resource type policy unless the engine's edge builds one from heat.conf.
        "resource_type_policy": None,
    }


def test_from_conf_reads_heat_conf(tmp_path) -> None:
    heat_conf = tmp_path / "heat.conf"
    heat_conf.write_text(
        "[DEFAULT]\nmax_stacks_per_tenant = 3\nhidden_stack_tags = a,b\n"
        "max_software_configs_per_tenant = 4\nmax_software_deployments_per_tenant = 5\n"
        "host = engine-7\nmax_events_per_stack = 10\nstack_action_timeout = 60\n"
        "enable_stack_abandon = true\n"
        "[revision]\nheat_revision = r42\n"
    )
    conf = config.load(["--config-file", str(heat_conf)])

    settings = from_conf(conf, engine_id="fixed")

    assert (
        settings.max_stacks_per_tenant,
        settings.hidden_stack_tags,
        settings.host,
        settings.max_events_per_stack,
        settings.stack_action_timeout,
        settings.engine_id,
        settings.heat_revision,
        settings.enable_stack_abandon,
        settings.max_software_configs_per_tenant,
        settings.max_software_deployments_per_tenant,
    ) == (3, ("a", "b"), "engine-7", 10, 60, "fixed", "r42", True, 4, 5)


def test_from_conf_reads_where_heats_apis_are_and_the_stack_user_domain(tmp_path) -> None:
    heat_conf = tmp_path / "heat.conf"
    heat_conf.write_text(
        "[DEFAULT]\nstack_user_domain_name = heat\nstack_domain_admin = domain-admin\n"
        "stack_domain_admin_password = secret\nheat_stack_user_role = signaller\n"
        "region_name_for_services = R2\n"
        "heat_waitcondition_server_url = http://cfn.example:8000/v1/waitcondition\n"
        "heat_metadata_server_url = http://cfn.example:8000\n"
        "[clients]\ninsecure = true\n"
        "[clients_heat]\nurl = http://heat.example:8004/v1/%(tenant_id)s\n"
        "endpoint_type = internal\n"
    )

    settings = from_conf(config.load(["--config-file", str(heat_conf)]))

    assert dataclasses.asdict(settings.heat_endpoints) == {
        "url": "http://heat.example:8004/v1/%(tenant_id)s",
        "endpoint_type": "internal",
        "insecure": True,
        "region_name_for_services": "R2",
        "waitcondition_server_url": "http://cfn.example:8000/v1/waitcondition",
        "metadata_server_url": "http://cfn.example:8000",
    }
    assert dataclasses.asdict(settings.stack_domain) == {
        "domain_id": None,
        "domain_name": "heat",
        "admin_user": "domain-admin",
        "admin_password": "secret",
        "stack_user_role": "signaller",
    }


def test_from_conf_reads_what_resources_do_by_default(tmp_path) -> None:
    heat_conf = tmp_path / "heat.conf"
    heat_conf.write_text(
        "[DEFAULT]\ndefault_deployment_signal_transport = TEMP_URL_SIGNAL\n"
        "default_software_config_transport = POLL_TEMP_URL\n"
        "default_user_data_format = RAW\nserver_keystone_endpoint_type = internal\n"
        "stack_scheduler_hints = true\nmax_server_name_length = 20\n"
        "max_nova_api_microversion = 2.36\nmetadata_put_timeout = 5\n"
        "[volumes]\nbackups_enabled = false\n"
    )

    settings = from_conf(config.load(["--config-file", str(heat_conf)]))

    assert (
        settings.default_deployment_signal_transport,
        settings.default_software_config_transport,
        settings.default_user_data_format,
        settings.server_keystone_endpoint_type,
        settings.stack_scheduler_hints,
        settings.max_server_name_length,
        settings.clients.max_nova_api_microversion,
        settings.metadata_put_timeout,
        settings.volume_backups_enabled,
    ) == ("TEMP_URL_SIGNAL", "POLL_TEMP_URL", "RAW", "internal", True, 20, "2.36", 5.0, False)


def test_noauth_has_no_stack_user_domain(tmp_path) -> None:
    heat_conf = tmp_path / "heat.conf"
    heat_conf.write_text(
        "[DEFAULT]\nstack_user_domain_name = heat\nstack_domain_admin = domain-admin\n"
        "stack_domain_admin_password = secret\n[paste_deploy]\nflavor = noauth\n"
    )

    assert from_conf(config.load(["--config-file", str(heat_conf)])).stack_domain is None


def test_template_limits_follow_the_settings() -> None:
    settings = EngineSettings(max_resources_per_stack=7, max_template_size=99)

    assert settings.template_limits == TemplateLimits(
        max_template_size=99, max_resources_per_stack=7
    )


def test_settings_are_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        EngineSettings().max_stacks_per_tenant = 1  # type: ignore[misc]


def test_each_engine_has_its_own_id() -> None:
    assert EngineSettings().engine_id != EngineSettings().engine_id
