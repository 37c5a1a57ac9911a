"""AWS::IAM::User and AWS::IAM::AccessKey against the cloud's Keystone, driven by alice: the
user is a user of the stack-user domain with the LoginProfile's password, the access key
an EC2 credential of that user whose secret signs CFN requests as the user (within the
resources its access policy allows); suspending the stack disables the user, resuming
enables it, and the delete leaves neither the user nor its credential. A key naming no
user and a policy that is no access policy fail as in Heat."""

from __future__ import annotations

import datetime
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlencode

import openstack.connection
import pytest
from keystoneauth1 import exceptions as keystone_errors
from keystoneauth1 import session as ks_session
from keystoneauth1.identity import v3

from keel_app.clients.ec2_signature import sign_v2
from tests.cli import distributed
from tests.cloud import Cloud
from tests.cloud_scenarios.conftest import (
    alice_heat,
    delete_stack,
    outputs,
    physical_ids,
    unique,
    wait_for_stack,
)

PASSWORD = "Iam-user-Passw0rd"


@pytest.fixture(scope="module")
def deployment(cloud: Cloud, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """Alice's heatclient, and the CFN API's port of the same deployment."""
    directory = tmp_path_factory.mktemp("aws-iam")
    with alice_heat(cloud, directory, "mysql") as client:
        yield client, distributed.cfn_port(directory / "heat.conf")


@pytest.fixture(scope="module")
def heat(deployment: Any) -> Any:
    return deployment[0]


def user_template(policies: list[Any] | None = None, user_name: Any = None) -> dict[str, Any]:
    return {
        "AWSTemplateFormatVersion": "2010-09-09",
        "Resources": {
            "Config": {"Type": "OS::Heat::Value", "Properties": {"value": "seen"}},
            "Hidden": {"Type": "OS::Heat::Value", "Properties": {"value": "unseen"}},
            "Policy": {
                "Type": "OS::Heat::AccessPolicy",
                "Properties": {"AllowedResources": ["Config"]},
            },
            "User": {
                "Type": "AWS::IAM::User",
                "Properties": {
                    "Path": "/apps/",
                    "LoginProfile": {"Password": PASSWORD},
                    "Policies": policies if policies is not None else [{"Ref": "Policy"}],
                },
            },
            "Key": {
                "Type": "AWS::IAM::AccessKey",
                "Properties": {"UserName": user_name or {"Ref": "User"}},
            },
        },
        "Outputs": {
            "AccessKey": {"Value": {"Ref": "Key"}},
            "Secret": {"Value": {"Fn::GetAtt": ["Key", "SecretAccessKey"]}},
            "KeyUser": {"Value": {"Fn::GetAtt": ["Key", "UserName"]}},
            "UserRef": {"Value": {"Ref": "User"}},
        },
    }


def create(heat: Any, template: dict[str, Any]) -> Any:
    stack_id = heat.stacks.create(stack_name=unique("iam"), template=template)["stack"]["id"]
    return wait_for_stack(heat, stack_id, "CREATE")


def keystone_user(admin: openstack.connection.Connection, user_id: str) -> Any:
    return admin.identity.get_user(user_id)


def ec2_credentials(admin: openstack.connection.Connection, user_id: str) -> list[Any]:
    return [
        credential
        for credential in admin.identity.credentials(user_id=user_id)
        if credential.type == "ec2"
    ]


def describe(cfn_port: int, access: str, secret: str, stack_name: str, resource: str) -> Any:
    """An EC2-signed DescribeStackResource of the CFN API: (status, body)."""
    host = f"{distributed.HOST}:{cfn_port}"
    params = {
        "Action": "DescribeStackResource",
        "StackName": stack_name,
        "LogicalResourceId": resource,
        "AWSAccessKeyId": access,
        "SignatureMethod": "HmacSHA256",
        "SignatureVersion": "2",
        "Timestamp": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
    }
    params["Signature"] = sign_v2(secret, "GET", host, "/v1/", params)
    try:
        with urllib.request.urlopen(f"http://{host}/v1/?{urlencode(params)}", timeout=60) as got:
            return got.status, got.read().decode()
    except urllib.error.HTTPError as error:
        with error:
            return error.code, error.read().decode()


def test_the_user_and_its_access_key_are_in_keystone(
    heat: Any, admin: openstack.connection.Connection, cloud: Cloud, stacks_left_behind: None
) -> None:
    stack = create(heat, user_template())
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason
    values = outputs(stack)
    user_id = physical_ids(heat, stack.id)["User"]

    user = keystone_user(admin, user_id)
    assert user.domain_id == cloud.keystone.stack_user_domain_id
    assert user.is_enabled
    # The user's name in Keystone is its physical name, which is also its reference.
    assert user.name == values["UserRef"] == values["KeyUser"]
    assert user.name.startswith(f"{stack.stack_name}-User-")
    assert user.default_project_id == stack.stack_user_project_id
    (credential,) = ec2_credentials(admin, user_id)
    assert credential.project_id == stack.stack_user_project_id
    assert '"access": "{}"'.format(values["AccessKey"]) in credential.blob
    assert physical_ids(heat, stack.id)["Key"] == values["AccessKey"]
    assert len(values["Secret"]) == 32

    # The LoginProfile's password is the user's.
    auth = v3.Password(
        auth_url=cloud.auth_url,
        user_id=user_id,
        password=PASSWORD,
        project_id=stack.stack_user_project_id,
    )
    assert ks_session.Session(auth=auth).get_token()

    delete_stack(heat, stack.id)
    with pytest.raises(openstack.exceptions.NotFoundException):
        keystone_user(admin, user_id)
    assert ec2_credentials(admin, user_id) == []


def test_the_access_keys_secret_signs_requests_as_the_user(
    deployment: Any, stacks_left_behind: None
) -> None:
    heat, cfn_port = deployment
    stack = create(heat, user_template())
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason
    values = outputs(stack)

    status, body = describe(
        cfn_port, values["AccessKey"], values["Secret"], stack.stack_name, "Config"
    )
    assert status == 200, body
    assert "<LogicalResourceId>Config</LogicalResourceId>" in body
    assert "<ResourceType>OS::Heat::Value</ResourceType>" in body

    # A wrong secret signs nothing.
    status, body = describe(cfn_port, values["AccessKey"], "x" * 32, stack.stack_name, "Config")
    assert status == 403, body

    delete_stack(heat, stack.id)


def test_the_user_may_describe_only_what_its_policy_allows(
    deployment: Any, stacks_left_behind: None
) -> None:
    heat, cfn_port = deployment
    stack = create(heat, user_template())
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason
    values = outputs(stack)

    status, body = describe(
        cfn_port, values["AccessKey"], values["Secret"], stack.stack_name, "Hidden"
    )
    assert status == 403, body
    assert "<Code>AccessDenied</Code>" in body

    delete_stack(heat, stack.id)


def test_suspend_disables_the_user_and_resume_enables_it(
    heat: Any, admin: openstack.connection.Connection, cloud: Cloud, stacks_left_behind: None
) -> None:
    stack = create(heat, user_template())
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason
    user_id = physical_ids(heat, stack.id)["User"]
    auth = v3.Password(
        auth_url=cloud.auth_url,
        user_id=user_id,
        password=PASSWORD,
        project_id=stack.stack_user_project_id,
    )

    heat.actions.suspend(stack.id)
    suspended = wait_for_stack(heat, stack.id, "SUSPEND")
    assert suspended.stack_status == "SUSPEND_COMPLETE", suspended.stack_status_reason
    assert not keystone_user(admin, user_id).is_enabled
    with pytest.raises(keystone_errors.Unauthorized):
        ks_session.Session(auth=auth).get_token()

    heat.actions.resume(stack.id)
    resumed = wait_for_stack(heat, stack.id, "RESUME")
    assert resumed.stack_status == "RESUME_COMPLETE", resumed.stack_status_reason
    assert keystone_user(admin, user_id).is_enabled

    delete_stack(heat, stack.id)


# The key fails while the user is still being made: the delete cancels the user's create
# mid-handler, and must then delete the user all the same.
def test_a_key_for_a_user_not_in_the_stack_fails(heat: Any, stacks_left_behind: None) -> None:
    stack = create(heat, user_template(user_name="nobody"))

    assert stack.stack_status == "CREATE_FAILED"
    assert stack.stack_status_reason == (
        "Resource CREATE failed: NotFound: resources.Key: could not find user nobody"
    )
    delete_stack(heat, stack.id)


def test_a_policy_that_is_no_access_policy_fails(heat: Any, stacks_left_behind: None) -> None:
    stack = create(heat, user_template(policies=["Config"]))

    assert stack.stack_status == "CREATE_FAILED"
    assert stack.stack_status_reason == (
        "Resource CREATE failed: InvalidTemplateAttribute: resources.User: "
        "The Referenced Attribute (User Policies) is incorrect."
    )
    delete_stack(heat, stack.id)


def test_a_policy_document_is_ignored(
    heat: Any, admin: openstack.connection.Connection, stacks_left_behind: None
) -> None:
    document = {"PolicyName": "all", "PolicyDocument": {"Statement": []}}
    stack = create(heat, user_template(policies=[document]))

    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason
    assert keystone_user(admin, physical_ids(heat, stack.id)["User"]).is_enabled
    delete_stack(heat, stack.id)
