"""The cloud's admin driving OpenKeel: Heat's resource type policy lets only admins use
some types (OS::Keystone::*), so their scenarios run keel-api as the admin account and
look at the cloud with openstacksdk as the admin too.

A scenario module makes its own fixtures of these (``heat`` as the admin's client)::

    @pytest.fixture(scope="module")
    def heat(cloud, tmp_path_factory):
        with admin_heat(cloud, tmp_path_factory.mktemp("keystone-project")) as client:
            yield client
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openstack
import openstack.connection
from heatclient import client as heat_client
from keystoneauth1 import session as ks_session
from keystoneauth1.identity import v3

from tests.cli import distributed
from tests.cloud import Cloud
from tests.keystone import ADMIN


@contextlib.contextmanager
def admin_heat(cloud: Cloud, directory: Path, defaults: str = "") -> Iterator[Any]:
    """A python-heatclient of the admin's (scoped to the admin project), talking to a
    keel-api and keel-worker of their own; ``defaults`` are lines of heat.conf's
    [DEFAULT]."""
    with distributed.behind_keystone(directory, cloud.keystone, defaults):
        port = distributed.api_port(directory / "heat.conf")
        auth = v3.Password(
            auth_url=cloud.auth_url,
            username=ADMIN.user_name,
            password=ADMIN.password,
            project_name=ADMIN.project_name,
            user_domain_id="default",
            project_domain_id="default",
        )
        project_id = cloud.project_id(ADMIN)
        yield heat_client.Client(
            "1",
            session=ks_session.Session(auth=auth),
            endpoint_override=f"http://{distributed.HOST}:{port}/v1/{project_id}",
        )


@contextlib.contextmanager
def admin_connection(cloud: Cloud) -> Iterator[openstack.connection.Connection]:
    """openstacksdk as the admin: what Keystone (and the other services) hold."""
    connection = openstack.connect(**cloud.auth(ADMIN))
    try:
        yield connection
    finally:
        connection.close()
