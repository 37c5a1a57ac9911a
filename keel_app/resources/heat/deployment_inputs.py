"""The inputs of a deployment's derived config: its config's, valued, and Heat's deploy_*.

An input is kept as the software config API stores it (``software_configs.input_config``:
checked, unset keys left out, its ``value`` when it has one). The derived inputs are,
in order: the config's declared inputs valued from ``input_values`` (else their
default), the other ``input_values`` as inputs of their own, then what the server needs
to know: ``deploy_server_id``, ``deploy_action``, ``deploy_stack_id``,
``deploy_resource_name``, ``deploy_signal_transport`` and, by transport, where and how
to signal (CFN_SIGNAL and TEMP_URL_SIGNAL: ``deploy_signal_id`` and
``deploy_signal_verb``; HEAT_SIGNAL and ZAQAR_SIGNAL: the stack user's credentials,
``deploy_auth_url``... ``deploy_region_name``; ZAQAR_SIGNAL also ``deploy_queue_id``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

(
    DEPLOY_SERVER_ID,
    DEPLOY_ACTION,
    DEPLOY_SIGNAL_ID,
    DEPLOY_STACK_ID,
    DEPLOY_RESOURCE_NAME,
    DEPLOY_AUTH_URL,
    DEPLOY_USERNAME,
    DEPLOY_PASSWORD,
    DEPLOY_PROJECT_ID,
    DEPLOY_USER_ID,
    DEPLOY_SIGNAL_VERB,
    DEPLOY_SIGNAL_TRANSPORT,
    DEPLOY_QUEUE_ID,
    DEPLOY_REGION_NAME,
) = (
    "deploy_server_id",
    "deploy_action",
    "deploy_signal_id",
    "deploy_stack_id",
    "deploy_resource_name",
    "deploy_auth_url",
    "deploy_username",
    "deploy_password",
    "deploy_project_id",
    "deploy_user_id",
    "deploy_signal_verb",
    "deploy_signal_transport",
    "deploy_queue_id",
    "deploy_region_name",
)

SIGNAL_ID_DESCRIPTION = "ID of signal to use for signaling output values"
SIGNAL_VERB_DESCRIPTION = "HTTP verb to use for signaling output values"


def _configs() -> Any:
    # Imported when first used: the service layer builds on the config declarations.
    from keel_app.engine.service import software_configs

    return software_configs


def input_config(config: Mapping[str, Any]) -> dict[str, Any]:
    """An input checked (ValueError when bad) and as stored."""
    return dict(_configs().input_config(config))


def output_config(config: Mapping[str, Any]) -> dict[str, Any]:
    """An output checked (ValueError when bad) and as stored."""
    return dict(_configs().output_config(config))


def input_values(inputs: list[dict[str, Any]]) -> dict[str, Any]:
    """Each input's name and value (None for one without)."""
    return {item["name"]: item.get("value") for item in inputs}


def _input(name: str, value: Any, description: str | None = None) -> dict[str, Any]:
    config: dict[str, Any] = {"name": name, "value": value}
    if description is not None:
        config["description"] = description
    return input_config(config)


def derived_inputs(deployment: Any, action: str, source: dict[str, Any]) -> list[dict[str, Any]]:
    """The inputs of ``deployment``'s derived config of ``source`` for ``action``."""
    return list(_derive(deployment, action, source))


def _derive(deployment: Any, action: str, source: dict[str, Any]) -> Iterator[dict[str, Any]]:
    given = dict(deployment.properties[deployment.INPUT_VALUES] or {})
    for declared in source["inputs"]:
        declared = {key: item for key, item in declared.items() if key != "value"}
        value = given.pop(declared["name"], declared.get("default"))
        yield input_config({**declared, "value": value})
    # Values of no declared input become inputs of their own, for the config to use.
    for name, value in given.items():
        yield _input(name, value)
    yield _input(
        DEPLOY_SERVER_ID,
        deployment.properties[deployment.SERVER],
        "ID of the server being deployed to",
    )
    yield _input(DEPLOY_ACTION, action, "Name of the current action being deployed")
    yield _input(
        DEPLOY_STACK_ID,
        deployment.stack.identifier().stack_path(),
        "ID of the stack this deployment belongs to",
    )
    yield _input(
        DEPLOY_RESOURCE_NAME, deployment.name, "Name of this deployment resource in the stack"
    )
    yield _input(
        DEPLOY_SIGNAL_TRANSPORT,
        deployment._transport(),
        "How the server should signal to heat with the deployment output values.",
    )
    if deployment._signal_transport_cfn():
        yield _input(DEPLOY_SIGNAL_ID, deployment._get_ec2_signed_url(), SIGNAL_ID_DESCRIPTION)
        yield _input(DEPLOY_SIGNAL_VERB, "POST", SIGNAL_VERB_DESCRIPTION)
    elif deployment._signal_transport_temp_url():
        yield _input(DEPLOY_SIGNAL_ID, deployment._get_swift_signal_url(), SIGNAL_ID_DESCRIPTION)
        yield _input(DEPLOY_SIGNAL_VERB, "PUT", SIGNAL_VERB_DESCRIPTION)
    elif deployment._signal_transport_heat() or deployment._signal_transport_zaqar():
        credentials = deployment._get_heat_signal_credentials()
        yield _input(DEPLOY_AUTH_URL, credentials["auth_url"], "URL for API authentication")
        yield _input(DEPLOY_USERNAME, credentials["username"], "Username for API authentication")
        yield _input(DEPLOY_USER_ID, credentials["user_id"], "User ID for API authentication")
        yield _input(DEPLOY_PASSWORD, credentials["password"], "Password for API authentication")
        yield _input(
            DEPLOY_PROJECT_ID, credentials["project_id"], "ID of project for API authentication"
        )
        if credentials["region_name"]:
            yield _input(
                DEPLOY_REGION_NAME,
                credentials["region_name"],
                "Region name for API authentication",
            )
    if deployment._signal_transport_zaqar():
        yield _input(
            DEPLOY_QUEUE_ID,
            deployment._get_zaqar_signal_queue_id(),
            "ID of queue to use for signaling output values",
        )
