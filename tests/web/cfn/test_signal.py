"""The signal URLs of the CFN API over a real engine: a wait condition handle's signal
(cfn-signal's PUT to the handle's URL) and a resource's signal (POST)."""

from __future__ import annotations

import json
from typing import Any

from flask.testing import FlaskClient

from keel_app.common.identifier import ResourceIdentifier
from keel_app.rpc.client import EngineClient
from tests.web.cfn.conftest import HEADERS
from tests.web.cfn.stack_templates import CFN_TEMPLATE

JSON_HEADERS = {**HEADERS, "Content-Type": "application/json"}
SIGNAL = {"Status": "SUCCESS", "Reason": "configured", "UniqueId": "web1", "Data": "ok"}
STORED = {"web1": {"Status": "SUCCESS", "Reason": "configured", "Data": "ok"}}


def handle_url(route: str, identity: dict[str, Any], resource: str = "Handle") -> str:
    # As a handle's URL names it: the ARN percent-encoded once more.
    return f"/v1/{route}" + ResourceIdentifier(resource_name=resource, **identity).arn_url_path()


def metadata(engine_client: EngineClient, caller: Any, identity: dict[str, Any]) -> Any:
    return engine_client.describe_stack_resource(caller, identity, "Handle")["metadata"]


def test_a_wait_condition_signal_is_stored_and_answered_with_the_resource_name(
    client: FlaskClient, engine_client: EngineClient, caller: Any, make_stack: Any
) -> None:
    identity = make_stack("web", CFN_TEMPLATE)

    response = client.put(
        handle_url("waitcondition", identity), headers=JSON_HEADERS, data=json.dumps(SIGNAL)
    )

    assert (response.status_code, response.headers["Content-Type"]) == (
        200,
        "application/xml; charset=UTF-8",
    )
    # Heat's XML serializer keeps only the document's first key.
    assert response.get_data(as_text=True) == "<resource>Handle</resource>"
    assert metadata(engine_client, caller, identity) == STORED


def test_a_wait_condition_signal_answers_the_metadata_in_json(
    client: FlaskClient, make_stack: Any
) -> None:
    identity = make_stack("web", CFN_TEMPLATE)

    response = client.put(
        handle_url("waitcondition", identity) + "?ContentType=JSON",
        headers=JSON_HEADERS,
        data=json.dumps(SIGNAL),
    )

    assert response.status_code == 200
    assert response.get_json() == {"resource": "Handle", "metadata": STORED}


def test_a_signal_reaches_the_resource_and_answers_an_empty_page(
    client: FlaskClient, engine_client: EngineClient, caller: Any, make_stack: Any
) -> None:
    identity = make_stack("web", CFN_TEMPLATE)

    response = client.post(
        handle_url("signal", identity), headers=JSON_HEADERS, data=json.dumps(SIGNAL)
    )

    assert (response.status_code, response.headers["Content-Type"], response.data) == (
        200,
        "text/html; charset=UTF-8",
        b"",
    )
    assert metadata(engine_client, caller, identity) == STORED


def test_a_signal_to_an_unknown_resource_is_an_invalid_parameter(
    client: FlaskClient, make_stack: Any
) -> None:
    identity = make_stack("web", CFN_TEMPLATE)

    response = client.post(
        handle_url("signal", identity, "Missing"), headers=JSON_HEADERS, data=json.dumps(SIGNAL)
    )

    assert (response.status_code, response.get_data(as_text=True)) == (
        400,
        "<ErrorResponse><Error><Type>Sender</Type><Code>InvalidParameterValue</Code><Message>"
        "A bad or out-of-range value was supplied:The Resource (Missing) could not be found "
        "in Stack web.</Message></Error></ErrorResponse>",
    )


def test_a_signal_to_something_not_an_arn_is_an_invalid_parameter(client: FlaskClient) -> None:
    # Heat's controller lets the ValueError escape (a bare 500 from the server).
    response = client.post("/v1/signal/not-an-arn", headers=JSON_HEADERS, data="{}")

    assert (response.status_code, response.get_data(as_text=True)) == (
        400,
        "<ErrorResponse><Error><Type>Sender</Type><Code>InvalidParameterValue</Code><Message>"
        "A bad or out-of-range value was supplied</Message></Error></ErrorResponse>",
    )


def test_a_wait_condition_signal_without_a_json_body_is_a_bad_request(
    client: FlaskClient, make_stack: Any
) -> None:
    identity = make_stack("web", CFN_TEMPLATE)

    for headers, body in ((HEADERS, "status=SUCCESS"), (JSON_HEADERS, "{not json")):
        response = client.put(handle_url("waitcondition", identity), headers=headers, data=body)

        assert (response.status_code, response.get_data(as_text=True)) == (
            400,
            "400 Bad Request\n\nThe server could not comply with the request since it is "
            "either malformed or otherwise incorrect.\n\n   ",
        )
