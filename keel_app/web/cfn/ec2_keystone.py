"""Checking EC2 credentials with Keystone: ``POST <identity endpoint>/v3/ec2tokens``.

Keystone lets only admins and services call it, so the call is authenticated as the
service user of heat.conf's ``[ec2authtoken]`` section (``auth_type``, ``auth_url``,
``username``, ... as keystoneauth1 names them); the identity endpoint comes from that
user's catalog (``service_type`` identity) unless ``endpoint_override`` names it.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from keystoneauth1 import adapter, loading, session
from keystoneauth1 import exceptions as keystone_errors
from oslo_config import cfg

GROUP = "ec2authtoken"


class EC2Unauthorized(Exception):
    """Keystone refused the credentials (its 401)."""


class EC2CheckFailed(Exception):
    """Keystone could not be asked, or answered something else than a token."""


@dataclasses.dataclass(frozen=True)
class EC2Token:
    token_id: str
    body: dict[str, Any]
    endpoint: str


def group_values(group: Any, names: list[str]) -> dict[str, Any]:
    values = {}
    for name in names:
        try:
            value = group[name]
        except cfg.NoSuchOptError:
            continue
        if value is not None:
            values[name] = value
    return values


def service_adapter(conf: cfg.ConfigOpts) -> adapter.Adapter:
    """An adapter to the identity endpoint, authenticated as ``[ec2authtoken]``'s user."""
    group = conf[GROUP]
    auth = None
    if group.auth_type:
        loader = loading.get_plugin_loader(group.auth_type)
        options = [option.dest for option in loader.get_options()]
        auth = loader.load_from_options(**group_values(group, options))
    verify: bool | str = group.cafile or not group.insecure
    certificate: Any = group.certfile
    if group.certfile and group.keyfile:
        certificate = (group.certfile, group.keyfile)
    keystone_session = session.Session(
        auth=auth, verify=verify, cert=certificate, timeout=group.timeout
    )
    interfaces = group.valid_interfaces or group.interface
    return adapter.Adapter(
        keystone_session,
        service_type=group.service_type,
        service_name=group.service_name,
        interface=interfaces,
        region_name=group.region_name,
        endpoint_override=group.endpoint_override,
        connect_retries=group.connect_retries,
        status_code_retries=group.status_code_retries,
    )


def check_credentials(keystone: adapter.Adapter, credentials: dict[str, Any]) -> EC2Token:
    """The token Keystone issues for these EC2 credentials."""
    try:
        endpoint = keystone.get_endpoint()
        if not endpoint:
            raise EC2CheckFailed("no identity endpoint")
        response = keystone.post(
            f"{endpoint.rstrip('/')}/v3/ec2tokens",
            data=json.dumps(credentials),
            headers={"Content-Type": "application/json"},
        )
    except keystone_errors.Unauthorized as error:
        raise EC2Unauthorized(str(error)) from error
    except keystone_errors.ClientException as error:
        raise EC2CheckFailed(str(error)) from error
    try:
        body = response.json()
        token_id = response.headers["X-Subject-Token"]
        body["token"]["project"]["id"]
    except (ValueError, KeyError, TypeError) as error:
        raise EC2Unauthorized("no project-scoped token in Keystone's answer") from error
    return EC2Token(token_id=token_id, body=body, endpoint=endpoint)
