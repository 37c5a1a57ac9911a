"""Which endpoint a client plugin reaches, and how: heat.conf's [clients] and
[clients_<name>], the regions, TLS and retries, read against the catalog of the caller's
token body (what keystonemiddleware hands the API)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from keel_app.clients.engine_clients import OpenStackClients
from keel_app.common import config
from keel_app.common.context import RequestContext
from keel_app.common.exception import ClientNotAvailable
from keel_app.engine.settings import from_conf

KEYSTONE = "http://127.0.0.1:5000"
SERVICES = {
    "network": "neutron-{region}-{interface}:9696",
    "image": "glance-{region}-{interface}:9292",
}

BASE_CONF = f"""\
[DEFAULT]
stack_user_domain_id = heat-domain
stack_domain_admin = heat_domain_admin
stack_domain_admin_password = secret
{{defaults}}
[trustee]
auth_type = password
auth_url = {KEYSTONE}
username = heat
password = secret
user_domain_name = Default

[clients_keystone]
auth_uri = {KEYSTONE}
{{sections}}
"""


def token_body(services: dict[str, str], regions: tuple[str, ...]) -> dict[str, Any]:
    catalog = [
        {
            "type": service_type,
            "name": service_type,
            "endpoints": [
                {
                    "interface": interface,
                    "region_id": region,
                    "region": region,
                    "url": "http://" + host.format(region=region, interface=interface),
                }
                for region in regions
                for interface in ("public", "internal", "admin")
            ],
        }
        for service_type, host in services.items()
    ]
    return {
        "token": {
            "catalog": catalog,
            "project": {"id": "project-a", "name": "project-a", "domain": {"id": "default"}},
            "user": {"id": "alice", "name": "alice", "domain": {"id": "default"}},
            "roles": [{"id": "member", "name": "member"}],
            "expires_at": "2999-01-01T00:00:00.000000Z",
            "methods": ["password"],
        }
    }


def clients(
    tmp_path: Path,
    defaults: str = "",
    sections: str = "",
    region: str | None = None,
    services: dict[str, str] = SERVICES,
) -> OpenStackClients:
    path = tmp_path / "heat.conf"
    path.write_text(BASE_CONF.format(defaults=defaults, sections=sections))
    settings = from_conf(config.load(["--config-file", str(path)]))
    context = RequestContext(
        auth_token="a-token",
        auth_token_info=token_body(services, ("RegionOne", "RegionTwo", "Shared")),
        project_id="project-a",
        region_name=region,
    )
    return OpenStackClients(context, settings)


def test_the_public_endpoint_of_the_callers_region_by_default(tmp_path: Path) -> None:
    neutron = clients(tmp_path, region="RegionTwo").client_plugin("neutron")
    assert neutron.url_for() == "http://neutron-RegionTwo-public:9696"


def test_the_services_own_endpoint_type_comes_before_clients(tmp_path: Path) -> None:
    sections = (
        "[clients]\nendpoint_type = adminURL\n[clients_neutron]\nendpoint_type = internalURL\n"
    )
    made = clients(tmp_path, sections=sections, region="RegionOne")
    assert made.client_plugin("neutron").url_for() == "http://neutron-RegionOne-internal:9696"
    # Glance has no endpoint type of its own: [clients]'s.
    assert made.client_plugin("glance").url_for() == "http://glance-RegionOne-admin:9292"


def test_region_name_for_services_when_the_caller_names_none(tmp_path: Path) -> None:
    made = clients(tmp_path, defaults="region_name_for_services = RegionTwo")
    assert made.client_plugin("neutron").url_for() == "http://neutron-RegionTwo-public:9696"


def test_shared_services_come_from_their_region(tmp_path: Path) -> None:
    made = clients(
        tmp_path, defaults="region_name_for_shared_services = Shared", region="RegionOne"
    )
    assert made.client_plugin("glance").url_for() == "http://glance-Shared-public:9292"
    assert made.client_plugin("neutron").url_for() == "http://neutron-RegionOne-public:9696"


def test_a_service_missing_from_the_catalog_has_no_client(tmp_path: Path) -> None:
    made = clients(tmp_path, region="RegionOne", services={"image": SERVICES["image"]})
    with pytest.raises(ClientNotAvailable, match=r"^The client \(neutron\) is not available\.$"):
        made.client_plugin("neutron")
    with pytest.raises(ClientNotAvailable, match=r"^The client \(mistral\) is not available\.$"):
        made.client_plugin("mistral")


def test_tls_and_retries_of_each_service(tmp_path: Path) -> None:
    sections = (
        "[clients]\nca_file = /etc/ssl/cloud-ca.pem\n"
        "[clients_neutron]\ninsecure = true\n"
        "[clients_glance]\ncert_file = /etc/heat/cert.pem\nkey_file = /etc/heat/key.pem\n"
    )
    made = clients(tmp_path, defaults="client_retry_limit = 4", sections=sections)
    neutron, glance = made.client_plugin("neutron"), made.client_plugin("glance")
    assert (neutron.session.verify, neutron.session.cert) == (False, None)
    assert (glance.session.verify, glance.session.cert) == (
        "/etc/ssl/cloud-ca.pem",
        ("/etc/heat/cert.pem", "/etc/heat/key.pem"),
    )
    assert neutron.session._connect_retries == glance.session._connect_retries == 4


def test_one_authentication_serves_every_service(tmp_path: Path) -> None:
    made = clients(tmp_path, region="RegionOne")
    neutron, glance = made.client_plugin("neutron"), made.client_plugin("glance")
    assert neutron.session.auth is glance.session.auth
    assert neutron.session.get_token() == "a-token"


def test_a_trust_context_authenticates_as_the_trustee_within_the_trust(tmp_path: Path) -> None:
    made = clients(tmp_path, region="RegionOne")
    made.context.trust_id = "trust-1"
    auth = made.auth_plugin()
    assert (auth.auth_url, auth._trust_id, auth._username) == (KEYSTONE, "trust-1", "heat")
