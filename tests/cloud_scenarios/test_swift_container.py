"""OS::Swift::Container and AWS::S3::Bucket against the real Swift: containers made with
their ACLs and metadata, their attributes read from Swift, purged on delete when asked
and refused deletion while they hold objects otherwise."""

from __future__ import annotations

from typing import Any

import openstack.connection
import openstack.exceptions

from tests.cloud_scenarios.conftest import outputs, physical_ids, unique, wait_for_stack


def container_headers(member: openstack.connection.Connection, name: str) -> dict[str, str]:
    response = member.object_store.request(f"/{name}", "HEAD")
    return {key.lower(): value for key, value in response.headers.items()}


def container_is_gone(member: openstack.connection.Connection, name: str) -> bool:
    return member.object_store.request(f"/{name}", "HEAD", raise_exc=False).status_code == 404


def delete_stack(heat: Any, stack_id: str) -> Any:
    heat.stacks.delete(stack_id)
    return wait_for_stack(heat, stack_id, "DELETE")


def test_a_container_is_made_read_back_and_purged_on_delete(
    heat: Any, member: openstack.connection.Connection
) -> None:
    name = unique("site")
    account_key = unique("keel")
    template = {
        "heat_template_version": "2018-08-31",
        "resources": {
            "site": {
                "type": "OS::Swift::Container",
                "properties": {
                    "name": name,
                    "X-Container-Read": ".r:*",
                    "X-Container-Meta": {"Owner": "web-team"},
                    "X-Account-Meta": {account_key: "yes"},
                    "PurgeOnDelete": True,
                },
            },
            "unnamed": {"type": "OS::Swift::Container"},
        },
        "outputs": {
            key: {"value": {"get_attr": ["site", key]}}
            for key in ("DomainName", "WebsiteURL", "RootURL", "ObjectCount", "BytesUsed")
        },
    }
    stack_id = heat.stacks.create(stack_name=unique("swift-life"), template=template)["stack"]["id"]
    stack = wait_for_stack(heat, stack_id, "CREATE")
    try:
        assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason
        ids = physical_ids(heat, stack_id)
        assert ids["site"] == name
        assert ids["unnamed"].startswith("swift-life-") and "-unnamed-" in ids["unnamed"]
        headers = container_headers(member, name)
        assert (headers["x-container-read"], headers["x-container-meta-owner"]) == (
            ".r:*",
            "web-team",
        )
        account = member.object_store.request("/", "HEAD").headers
        assert account[f"X-Account-Meta-{account_key}"] == "yes"

        storage_url = member.object_store.get_endpoint().rstrip("/")
        assert outputs(heat.stacks.get(stack_id)) == {
            "DomainName": "127.0.0.1",
            "WebsiteURL": f"{storage_url}/{name}",
            "RootURL": storage_url,
            "ObjectCount": "0",
            "BytesUsed": "0",
        }

        for index in range(3):
            member.object_store.upload_object(name, f"page-{index}.html", data=b"<p>hello</p>")
        delete_stack(heat, stack_id)
        assert container_is_gone(member, name)
        assert container_is_gone(member, ids["unnamed"])
    finally:
        member.object_store.request(
            "/", "POST", headers={f"X-Remove-Account-Meta-{account_key}": "x"}
        )


def test_a_container_with_objects_is_not_deleted_without_purge_on_delete(
    heat: Any, member: openstack.connection.Connection
) -> None:
    name = unique("kept")
    template = {
        "heat_template_version": "2018-08-31",
        "resources": {"kept": {"type": "OS::Swift::Container", "properties": {"name": name}}},
    }
    stack_id = heat.stacks.create(stack_name=unique("swift-kept"), template=template)["stack"]["id"]
    assert wait_for_stack(heat, stack_id, "CREATE").stack_status == "CREATE_COMPLETE"
    member.object_store.upload_object(name, "report.txt", data=b"numbers")

    stack = delete_stack(heat, stack_id)
    assert stack.stack_status == "DELETE_FAILED"
    assert stack.stack_status_reason == (
        "Resource DELETE failed: ResourceActionNotSupported: resources.kept: "
        f"Deleting non-empty container ({name}) when PurgeOnDelete is False "
        "is not supported for resource."
    )
    assert not container_is_gone(member, name)

    member.object_store.delete_object("report.txt", container=name)
    stack = delete_stack(heat, stack_id)
    assert stack is None or stack.stack_status == "DELETE_COMPLETE"
    assert container_is_gone(member, name)


def test_an_s3_bucket_is_a_container_with_its_acl_and_tags(
    heat: Any, member: openstack.connection.Connection
) -> None:
    template = {
        "AWSTemplateFormatVersion": "2010-09-09",
        "Resources": {
            "Bucket": {
                "Type": "AWS::S3::Bucket",
                "Properties": {
                    "AccessControl": "PublicRead",
                    "WebsiteConfiguration": {
                        "IndexDocument": "index.html",
                        "ErrorDocument": "error.html",
                    },
                    "Tags": [{"Key": "team", "Value": "blue"}],
                },
            },
            "Private": {"Type": "AWS::S3::Bucket"},
        },
        "Outputs": {
            "Domain": {"Value": {"Fn::GetAtt": ["Bucket", "DomainName"]}},
            "Website": {"Value": {"Fn::GetAtt": ["Bucket", "WebsiteURL"]}},
        },
    }
    stack_id = heat.stacks.create(stack_name=unique("s3"), template=template)["stack"]["id"]
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason
    ids = physical_ids(heat, stack_id)

    public = container_headers(member, ids["Bucket"])
    assert {
        key: public[key]
        for key in (
            "x-container-read",
            "x-container-write",
            "x-container-meta-web-index",
            "x-container-meta-web-error",
            "x-container-meta-s3-tag-team",
        )
    } == {
        "x-container-read": ".r:*",
        "x-container-write": "project-a:alice",
        "x-container-meta-web-index": "index.html",
        "x-container-meta-web-error": "error.html",
        "x-container-meta-s3-tag-team": "blue",
    }
    private = container_headers(member, ids["Private"])
    assert (private["x-container-read"], private["x-container-write"]) == (
        "project-a:alice",
        "project-a:alice",
    )
    storage_url = member.object_store.get_endpoint().rstrip("/")
    assert outputs(stack) == {
        "Domain": "127.0.0.1",
        "Website": f"{storage_url}/{ids['Bucket']}",
    }

    member.object_store.upload_object(ids["Bucket"], "index.html", data=b"<p>home</p>")
    stack = delete_stack(heat, stack_id)
    assert stack.stack_status == "DELETE_FAILED"
    assert stack.stack_status_reason == (
        "Resource DELETE failed: ResourceActionNotSupported: resources.Bucket: "
        f"The bucket you tried to delete is not empty ({ids['Bucket']}). "
        "is not supported for resource."
    )
    member.object_store.delete_object("index.html", container=ids["Bucket"])
    stack = delete_stack(heat, stack_id)
    assert stack is None or stack.stack_status == "DELETE_COMPLETE"
    assert container_is_gone(member, ids["Bucket"]) and container_is_gone(member, ids["Private"])
