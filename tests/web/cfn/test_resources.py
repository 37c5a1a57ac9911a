"""The CFN resource and event actions over a real engine, where OpenKeel answers and
Heat 27.0.1 cannot (docs/divergences.md): a stack's events, a listing by physical id."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from flask.testing import FlaskClient

from keel_app.common.identifier import EventIdentifier, HeatIdentifier
from keel_app.rpc.client import EngineClient
from tests.web.cfn.conftest import HEADERS
from tests.web.cfn.stack_templates import CFN_TEMPLATE


def act(client: FlaskClient, **parameters: str) -> Any:
    return client.get("/v1/?" + urlencode(parameters), headers=HEADERS)


def event_member(event: dict[str, Any]) -> str:
    arn = HeatIdentifier(**event["stack_identity"]).arn()
    return (
        f"<member><EventId>{EventIdentifier(**event['event_identity']).event_id}</EventId>"
        f"<LogicalResourceId>{event['resource_name']}</LogicalResourceId>"
        f"<PhysicalResourceId>{event['physical_resource_id']}</PhysicalResourceId>"
        f"<ResourceStatusReason>{event['resource_status_reason']}</ResourceStatusReason>"
        f"<ResourceType>{event['resource_type']}</ResourceType>"
        f"<StackId>{arn}</StackId><StackName>web</StackName>"
        f"<Timestamp>{event['event_time']}</Timestamp>"
        f"<ResourceStatus>{event['resource_action']}_{event['resource_status']}</ResourceStatus>"
        "</member>"
    )


def test_a_stacks_events_are_listed_without_their_properties(
    client: FlaskClient, engine_client: EngineClient, caller: Any, make_stack: Any
) -> None:
    identity = make_stack("web", CFN_TEMPLATE)
    events = engine_client.list_events(caller, identity)

    response = act(client, Action="DescribeStackEvents", StackName="web")

    assert len(events) == 6
    assert (response.status_code, response.get_data(as_text=True)) == (
        200,
        "<DescribeStackEventsResponse><DescribeStackEventsResult><StackEvents>"
        + "".join(event_member(event) for event in events)
        + "</StackEvents></DescribeStackEventsResult></DescribeStackEventsResponse>",
    )


def test_resources_are_listed_by_the_physical_id_of_one_of_them(
    client: FlaskClient, engine_client: EngineClient, caller: Any, make_stack: Any
) -> None:
    identity = make_stack("web", CFN_TEMPLATE)
    make_stack("other", CFN_TEMPLATE)
    value = engine_client.describe_stack_resource(caller, identity, "Value")

    response = act(
        client,
        Action="DescribeStackResources",
        PhysicalResourceId=value["physical_resource_id"],
        ContentType="JSON",
    )

    assert response.status_code == 200
    listed = response.get_json()["DescribeStackResourcesResponse"]["DescribeStackResourcesResult"]
    assert [
        (resource["LogicalResourceId"], resource["StackId"])
        for resource in listed["StackResources"]
    ] == [
        ("Value", HeatIdentifier(**identity).arn()),
        ("Handle", HeatIdentifier(**identity).arn()),
    ]
