"""os-collect-config's collectors, as the test plays a server's agent: the metadata of a
server resource read through the transport its ``os_collect_config`` names (a CFN
DescribeStackResource signed with the stack user's EC2 keypair, the native API logged in
as the stack user, or a plain GET of a Swift TempURL)."""

from __future__ import annotations

import json
import urllib.parse
from typing import Any
from xml.etree import ElementTree

import requests
from heatclient import client as heat_client
from keystoneauth1 import session as ks_session
from keystoneauth1.identity import v3
from keystoneclient.contrib.ec2.utils import Ec2Signer

CFN, HEAT, TEMP_URL = "POLL_SERVER_CFN", "POLL_SERVER_HEAT", "POLL_TEMP_URL"
COLLECTOR = {CFN: "cfn", HEAT: "heat", TEMP_URL: "request"}


def describe_through_cfn(section: dict[str, Any], resource: str) -> requests.Response:
    """DescribeStackResource signed with the keypair, as the cfn collector sends it."""
    url = urllib.parse.urlparse(section["metadata_url"])
    params = {
        "Action": "DescribeStackResource",
        "StackName": section["stack_name"],
        "LogicalResourceId": resource,
        "AWSAccessKeyId": section["access_key_id"],
        "SignatureVersion": "2",
    }
    params["Signature"] = Ec2Signer(secret_key=section["secret_access_key"]).generate(
        {"params": params, "verb": "GET", "host": url.netloc, "path": url.path}
    )
    return requests.get(
        section["metadata_url"],
        params=params,
        headers={"Content-Type": "application/json"},
        timeout=30,
    )


def read_through_cfn(section: dict[str, Any]) -> Any:
    resource, field = section["path"].split(".", 1)
    answer = describe_through_cfn(section, resource)
    assert answer.status_code == 200, answer.text
    detail = ElementTree.fromstring(answer.text).find(
        "DescribeStackResourceResult/StackResourceDetail"
    )
    assert detail is not None, answer.text
    return json.loads(detail.findtext(field) or "null")


def read_through_heat(section: dict[str, Any], heat: Any) -> Any:
    """The resource's metadata through the native API, logged in as the stack user."""
    auth = v3.Password(
        auth_url=section["auth_url"],
        user_id=section["user_id"],
        password=section["password"],
        project_id=section["project_id"],
    )
    # The deployment's own API (the catalog's orchestration endpoint of the region
    # names another port in the test cloud).
    api = heat.http_client.endpoint_override.rsplit("/", 1)[0]
    stack_user_heat = heat_client.Client(
        "1",
        session=ks_session.Session(auth=auth),
        endpoint_override=f"{api}/{section['project_id']}",
    )
    return stack_user_heat.resources.metadata(section["stack_id"], section["resource_name"])


def read_through_temp_url(section: dict[str, Any]) -> Any:
    answer = requests.get(section["metadata_url"], timeout=30)
    assert answer.status_code == 200, answer.text
    return answer.json()


def collect(heat: Any, transport: str, collect_config: dict[str, Any]) -> Any:
    section = collect_config[COLLECTOR[transport]]
    if transport == CFN:
        return read_through_cfn(section)
    if transport == HEAT:
        return read_through_heat(section, heat)
    return read_through_temp_url(section)
