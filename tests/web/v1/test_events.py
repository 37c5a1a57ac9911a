"""The event routes over a real engine: a stack's events, one resource's, one event, with
the listing parameters. Documents are checked against Heat's own ``format_event`` applied
(in the oracle) to what the engine answered."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests import oracle
from tests.web.v1.conftest import HEADERS, v1

TEMPLATE = {
    "heat_template_version": "2018-08-31",
    "resources": {
        "first": {"type": "OS::Heat::None"},
        "second": {"type": "OS::Heat::None", "depends_on": "first"},
    },
}
SUMMARY_KEYS = [
    "event_identity",
    "event_time",
    "resource_name",
    "resource_status",
    "resource_status_reason",
    "physical_resource_id",
]

# Runs in the oracle: Heat's own format_event on the engine's documents.
HEAT_FORMAT = """
import json, sys
import webob
from heat.api.openstack.v1 import events
request = webob.Request.blank("/", base_url="http://localhost/v1")
documents, keys = json.loads(sys.argv[1])
print(json.dumps([events.format_event(request, document, keys) for document in documents]))
"""


def heat_format(documents: list[Any], keys: list[str] | None) -> list[Any]:
    return oracle.run_json(HEAT_FORMAT, json.dumps([documents, keys]))


@pytest.fixture
def stack(make_stack: Any) -> dict[str, Any]:
    return make_stack("eventful", TEMPLATE)


def stack_path(identity: dict[str, Any], path: str) -> str:
    return v1(f"stacks/{identity['stack_name']}/{identity['stack_id']}{path}")


@pytest.mark.oracle
def test_a_stacks_events_are_heats_summaries(
    client: FlaskClient, engine_client: Any, caller: Any, stack: dict[str, Any]
) -> None:
    response = client.get(stack_path(stack, "/events"), headers=HEADERS)

    engine_answer = engine_client.list_events(caller, stack)
    assert response.status_code == 200
    assert response.get_json() == {"events": heat_format(engine_answer, SUMMARY_KEYS)}
    assert len(response.get_json()["events"]) == 6


@pytest.mark.oracle
def test_a_resources_events_are_filtered_paged_and_sorted(
    client: FlaskClient, engine_client: Any, caller: Any, stack: dict[str, Any]
) -> None:
    response = client.get(
        stack_path(stack, "/resources/second/events?limit=1&sort_dir=desc&sort_keys=event_time"),
        headers=HEADERS,
    )

    engine_answer = engine_client.list_events(
        caller,
        stack,
        filters={"resource_name": "second"},
        limit=1,
        sort_keys=["event_time"],
        sort_dir="desc",
    )
    assert response.status_code == 200
    assert response.get_json() == {"events": heat_format(engine_answer, SUMMARY_KEYS)}
    (event,) = response.get_json()["events"]
    assert (event["resource_name"], event["resource_status"]) == ("second", "CREATE_COMPLETE")


@pytest.mark.oracle
def test_one_event_is_shown_whole(
    client: FlaskClient, engine_client: Any, caller: Any, stack: dict[str, Any]
) -> None:
    listed = client.get(stack_path(stack, "/resources/first/events"), headers=HEADERS)
    event_id = listed.get_json()["events"][0]["id"]

    response = client.get(stack_path(stack, f"/resources/first/events/{event_id}"), headers=HEADERS)

    engine_answer = engine_client.list_events(
        caller, stack, filters={"resource_name": "first", "uuid": event_id}
    )
    assert response.status_code == 200
    assert response.get_json() == {"event": heat_format(engine_answer, None)[0]}
    assert response.get_json()["event"]["resource_type"] == "OS::Heat::None"


def test_a_resource_without_events_is_not_found(client: FlaskClient, stack: dict[str, Any]) -> None:
    response = client.get(stack_path(stack, "/resources/missing/events"), headers=HEADERS)

    assert response.status_code == 404
    assert response.get_json()["error"] == {
        "type": "HTTPNotFound",
        "traceback": None,
        "message": "No events found for resource missing",
    }


def test_an_unknown_event_is_not_found(client: FlaskClient, stack: dict[str, Any]) -> None:
    response = client.get(stack_path(stack, "/resources/first/events/nothing"), headers=HEADERS)

    assert response.status_code == 404
    assert response.get_json()["error"] == {
        "type": "HTTPNotFound",
        "traceback": None,
        "message": "No event nothing found",
    }


def test_a_filter_that_matches_nothing_lists_nothing(
    client: FlaskClient, stack: dict[str, Any]
) -> None:
    response = client.get(stack_path(stack, "/events?resource_action=DELETE"), headers=HEADERS)

    assert (response.status_code, response.get_json()) == (200, {"events": []})
