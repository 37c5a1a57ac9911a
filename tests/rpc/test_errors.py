"""Failures of engine calls as the caller sees them: Heat's classes re-raised with their
message and fault-map attributes, builtins as themselves, anything else a RemoteError."""

from __future__ import annotations

import pytest

from keel_app.common import exception
from keel_app.common.exception_wire import MessagingTimeout, RemoteError
from keel_app.common.fault_map import http_error_for
from keel_app.rpc import reply
from keel_app.web.faults import fault_body
from tests import oracle
from tests.engine.conftest import PROJECT
from tests.engine.service.chain import ENVIRONMENT, TEMPLATE
from tests.rpc.conftest import create_web_stack


class QuotaBackendDown(Exception):
    """Stands for any error of the engine that is not one of Heat's classes."""


def _missing(identity: dict[str, str]) -> dict[str, str]:
    return {**identity, "stack_name": "nosuch", "stack_id": "1b0c5ec4-7e4e-4bd1-a2c1-000000000000"}


def test_missing_stack_is_entity_not_found(local_client, context, identity) -> None:
    with pytest.raises(exception.EntityNotFound) as raised:
        local_client.show_stack(context, _missing(identity))

    assert type(raised.value) is exception.EntityNotFound
    assert str(raised.value) == "The Stack (nosuch) could not be found."
    assert raised.value.kwargs == {"entity": "Stack", "name": "nosuch"}
    assert http_error_for(type(raised.value)).code == 404


def test_second_stack_of_a_name_is_stack_exists(local_client, context, identity) -> None:
    with pytest.raises(exception.StackExists, match=r"^The Stack \(web\) already exists\.$"):
        create_web_stack(local_client, context)


def test_invalid_template_keeps_the_message_with_its_path(local_client, context) -> None:
    template = {**TEMPLATE, "resources": {"first": {"type": "OS::Heat::Value"}}}

    with pytest.raises(exception.StackValidationFailed) as raised:
        local_client.create_stack(context, "web", template, ENVIRONMENT, {}, {})

    assert str(raised.value) == (
        "Property error: resources.first.properties: Property value not assigned"
    )


def test_foreign_tenant_is_invalid_tenant(local_client, context, identity) -> None:
    with pytest.raises(exception.InvalidTenant) as raised:
        local_client.get_template(context, {**identity, "tenant": "project-b"})

    assert str(raised.value) == f"Searching Tenant project-b from Tenant {PROJECT} forbidden."
    assert http_error_for(type(raised.value)).code == 403


def test_create_from_a_missing_stored_template_is_not_found(local_client, context) -> None:
    with pytest.raises(exception.NotFound) as raised:
        local_client._create_stack(context, "web", None, None, None, {}, template_id=987654)

    assert type(raised.value) is exception.NotFound
    assert str(raised.value) == "raw template with id 987654 not found"


def test_stray_argument_is_a_type_error(local_client, context) -> None:
    with pytest.raises(TypeError, match=r"^list_stacks\(\) got an unexpected keyword argument "):
        local_client.call(context, "list_stacks", {"tenant_safe": False}, "1.33")


def test_call_not_served_is_an_attribute_error(local_client, context) -> None:
    with pytest.raises(AttributeError, match="^Endpoint does not support RPC method no_such_call$"):
        local_client.call(context, "no_such_call", {"stack_id": "x"})


def test_ignore_error_by_name(local_client, context, identity) -> None:
    with local_client.ignore_error_by_name("EntityNotFound"):
        local_client.delete_stack(context, _missing(identity))
    with (
        pytest.raises(exception.EntityNotFound),
        local_client.ignore_error_by_name("StackExists"),
    ):
        local_client.delete_stack(context, _missing(identity))


def _raised(error: BaseException) -> BaseException:
    try:
        raise error
    except BaseException as caught:
        return caught


def test_error_code_survives_the_reply() -> None:
    sent = exception.ResourceTypeUnavailable(
        service_name="Nova", resource_type="OS::Nova::Server", reason="down"
    )

    with pytest.raises(exception.ResourceTypeUnavailable) as raised:
        reply.outcome(reply.failure_reply(_raised(sent)))

    assert raised.value.error_code == "99001"
    assert (
        str(raised.value)
        == str(sent)
        == (
            "HEAT-E99001 Service Nova is not available for resource type OS::Nova::Server, "
            "reason: down"
        )
    )


def test_other_error_is_a_remote_error() -> None:
    with pytest.raises(RemoteError) as raised:
        reply.outcome(reply.failure_reply(_raised(QuotaBackendDown("quota backend down"))))

    assert (raised.value.exc_type, raised.value.value) == ("QuotaBackendDown", "quota backend down")
    assert raised.value.traceback[-1] == f"{__name__}.QuotaBackendDown: quota backend down\n"
    assert http_error_for(RemoteError).code == 500


def test_builtin_error_is_rebuilt() -> None:
    with pytest.raises(ValueError, match="^no abandon today$"):
        reply.outcome(reply.failure_reply(_raised(ValueError("no abandon today"))))


HEAT_TIMEOUT_FAULT = """
import json
import oslo_messaging
from oslo_config import cfg
from oslo_log import log
from heat.api.middleware.fault import FaultWrapper
log.register_options(cfg.CONF)
cfg.CONF([], project="heat")
print(json.dumps(FaultWrapper(None)._error(oslo_messaging.MessagingTimeout(
    "Timed out waiting for a reply to message ID 4f1c"))))
"""


@pytest.mark.oracle
def test_timeout_answers_as_heat_api_answers_it() -> None:
    ours = fault_body(MessagingTimeout("Timed out waiting for a reply to message ID 4f1c"), False)

    assert ours == oracle.run_json(HEAT_TIMEOUT_FAULT)
