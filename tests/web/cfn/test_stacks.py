"""The CFN stack actions over a real engine: what they do to stacks, and the answers
Heat's formatting is not compared for elsewhere (see test_actions_against_heat.py)."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlencode

from flask.testing import FlaskClient

from keel_app.common.identifier import HeatIdentifier
from keel_app.rpc.client import EngineClient
from tests.web.cfn.conftest import HEADERS
from tests.web.cfn.stack_templates import CFN_TEMPLATE, UPDATED_TEMPLATE
from tests.web.v1.stack_templates import NONE_TEMPLATE
from tests.web.v1.test_stacks_template_url import site  # noqa: F401 (a fixture)

FORM = {**HEADERS, "Content-Type": "application/x-www-form-urlencoded"}


def act(client: FlaskClient, **parameters: str) -> Any:
    return client.post("/v1/", headers=FORM, data=urlencode(parameters))


def shown(engine_client: EngineClient, caller: Any, name: str) -> dict[str, Any]:
    identity = engine_client.identify_stack(caller, name)
    stack: dict[str, Any] = engine_client.show_stack(caller, identity)[0]
    return stack


def test_create_stack_passes_parameters_timeout_and_rollback_to_the_engine(
    client: FlaskClient, engine_client: EngineClient, caller: Any, run_engine: Any
) -> None:
    response = act(
        client,
        Action="CreateStack",
        StackName="made",
        TemplateBody=json.dumps(CFN_TEMPLATE),
        TimeoutInMinutes="7",
        OnFailure="DO_NOTHING",
        **{
            "Parameters.member.2.ParameterKey": "Secret",
            "Parameters.member.2.ParameterValue": "psst",
            "Parameters.member.1.ParameterKey": "Greeting",
            "Parameters.member.1.ParameterValue": "bonjour",
            "Parameters.member.3.ParameterKey": "Incomplete",
        },
    )
    run_engine()

    stack = shown(engine_client, caller, "made")
    arn = HeatIdentifier(**stack["stack_identity"]).arn()
    assert response.status_code == 200
    assert response.get_data(as_text=True) == (
        "<CreateStackResponse><CreateStackResult><StackId>"
        f"{arn}</StackId></CreateStackResult></CreateStackResponse>"
    )
    assert (stack["stack_status"], stack["timeout_mins"], stack["disable_rollback"]) == (
        "COMPLETE",
        7,
        True,
    )
    assert {key: stack["parameters"][key] for key in ("Greeting", "Secret")} == {
        "Greeting": "bonjour",
        "Secret": "******",
    }


def test_update_stack_replaces_the_template(
    client: FlaskClient, engine_client: EngineClient, caller: Any, make_stack: Any, run_engine: Any
) -> None:
    make_stack("web", CFN_TEMPLATE)

    response = act(
        client, Action="UpdateStack", StackName="web", TemplateBody=json.dumps(UPDATED_TEMPLATE)
    )
    run_engine()

    assert response.status_code == 200
    identity = engine_client.identify_stack(caller, "web")
    assert engine_client.get_template(caller, identity) == UPDATED_TEMPLATE
    resources = engine_client.list_stack_resources(caller, identity)
    assert [resource["resource_name"] for resource in resources] == ["Handle"]


def test_delete_stack_deletes_it(
    client: FlaskClient, engine_client: EngineClient, caller: Any, make_stack: Any, run_engine: Any
) -> None:
    identity = make_stack("web", CFN_TEMPLATE)

    response = act(client, Action="DeleteStack", StackName=HeatIdentifier(**identity).arn())
    run_engine()

    assert (response.status_code, response.get_data(as_text=True)) == (
        200,
        "<DeleteStackResponse><DeleteStackResult></DeleteStackResult></DeleteStackResponse>",
    )
    assert engine_client.list_stacks(caller) == []


def test_cancel_update_stack_rolls_the_update_back(
    client: FlaskClient, engine_client: EngineClient, caller: Any, make_stack: Any, run_engine: Any
) -> None:
    identity = make_stack("web", CFN_TEMPLATE)
    engine_client.update_stack(caller, identity, UPDATED_TEMPLATE, {}, {}, {})

    response = act(client, Action="CancelUpdateStack", StackName="web")
    run_engine()

    assert (response.status_code, response.get_data(as_text=True)) == (
        200,
        "<CancelUpdateStackResponse><CancelUpdateStackResult/></CancelUpdateStackResponse>",
    )
    stack = engine_client.show_stack(caller, identity)[0]
    assert (stack["stack_action"], stack["stack_status"]) == ("ROLLBACK", "COMPLETE")


def test_cancel_update_of_a_stack_not_updating_is_an_invalid_parameter(
    client: FlaskClient, make_stack: Any
) -> None:
    make_stack("web", CFN_TEMPLATE)

    response = act(client, Action="CancelUpdateStack", StackName="web")

    assert (response.status_code, response.get_data(as_text=True)) == (
        400,
        "<ErrorResponse><Error><Type>Sender</Type><Code>InvalidParameterValue</Code><Message>"
        "A bad or out-of-range value was supplied:Cancelling update when stack is "
        "CREATE_COMPLETE is not supported.</Message></Error></ErrorResponse>",
    )


def test_an_action_on_a_missing_stack_name_is_a_missing_parameter(
    client: FlaskClient,
) -> None:
    # Heat answers InternalFailure (500), or nothing at all for CancelUpdateStack: its
    # controller looks the name up unguarded (docs/divergences.md).
    for action in ("DeleteStack", "GetTemplate", "CancelUpdateStack", "ListStackResources"):
        response = act(client, Action=action)

        assert (response.status_code, response.get_data(as_text=True)) == (
            400,
            "<ErrorResponse><Error><Type>Sender</Type><Code>MissingParameter</Code><Message>"
            "A mandatory input parameter is missing:StackName</Message></Error></ErrorResponse>",
        ), action


def test_the_default_policy_lets_a_project_member_act_in_its_project(
    client: FlaskClient, make_stack: Any
) -> None:
    # Heat 27.0.1 checks cloudformation:* against an empty target, which its default
    # rules ("... and project_id:%(project_id)s") never allow: every action is a 403
    # there. The target here is the caller's project (docs/divergences.md).
    make_stack("web", CFN_TEMPLATE)

    response = act(client, Action="ListStacks", ContentType="JSON")

    assert response.status_code == 200
    summaries = response.get_json()["ListStacksResponse"]["ListStacksResult"]["StackSummaries"]
    assert [summary["StackName"] for summary in summaries] == ["web"]


def test_a_template_url_that_cannot_be_fetched_is_an_invalid_parameter(
    client: FlaskClient,
) -> None:
    response = act(
        client, Action="ValidateTemplate", TemplateUrl="http://127.0.0.1:9/template.yaml"
    )

    assert (response.status_code, response.get_data(as_text=True)) == (
        400,
        "<ErrorResponse><Error><Type>Sender</Type><Code>InvalidParameterValue</Code><Message>"
        "A bad or out-of-range value was supplied:Failed to fetch template: Failed to "
        "retrieve template from http://127.0.0.1:9/template.yaml</Message></Error></ErrorResponse>",
    )


def test_a_template_over_the_size_limit_is_refused(client: FlaskClient) -> None:
    oversized = json.dumps({**CFN_TEMPLATE, "Description": "x" * 600000})

    response = act(client, Action="ValidateTemplate", TemplateBody=oversized)

    assert (response.status_code, response.get_data(as_text=True)) == (
        400,
        "<ErrorResponse><Error><Type>Sender</Type><Code>RequestLimitExceeded</Code><Message>"
        "Payload exceeds maximum allowed size:Request limit exceeded: Template size "
        f"({len(oversized)} bytes) exceeds maximum allowed size (524288 bytes)."
        "</Message></Error></ErrorResponse>",
    )


def test_create_stack_fetches_the_template_at_template_url(
    client: FlaskClient,
    engine_client: EngineClient,
    caller: Any,
    run_engine: Any,
    site: str,  # noqa: F811
) -> None:
    response = act(
        client, Action="CreateStack", StackName="fetched", TemplateUrl=f"{site}/none.json"
    )
    run_engine()

    assert response.status_code == 200
    identity = engine_client.identify_stack(caller, "fetched")
    assert engine_client.get_template(caller, identity) == NONE_TEMPLATE


def test_a_template_url_answering_an_error_is_an_invalid_parameter(
    client: FlaskClient,
    site: str,  # noqa: F811
) -> None:
    response = act(client, Action="CreateStack", StackName="s", TemplateUrl=f"{site}/gone.yaml")

    assert (response.status_code, response.get_data(as_text=True)) == (
        400,
        "<ErrorResponse><Error><Type>Sender</Type><Code>InvalidParameterValue</Code><Message>"
        "A bad or out-of-range value was supplied:Failed to fetch template: Failed to "
        f"retrieve template from {site}/gone.yaml</Message></Error></ErrorResponse>",
    )
