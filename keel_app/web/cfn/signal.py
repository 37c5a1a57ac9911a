"""The signal URLs of wait condition handles and signal resources (outside the CFN spec).

``PUT /v1/waitcondition/<arn>`` (what cfn-signal sends to a pre-signed handle URL) and
``POST /v1/signal/<arn>``, the ARN naming the resource: each calls ``resource_signal``
with the JSON body as the signal's details. A wait condition answers with the
resource's name (and its metadata, in JSON); a signal answers an empty 200.
"""

from __future__ import annotations

from typing import Any

import flask

from keel_app.common.exception import RequestLimitExceeded
from keel_app.common.identifier import ResourceIdentifier
from keel_app.web import plain_errors
from keel_app.web.cfn import errors
from keel_app.web.cfn.util import context, engine
from keel_app.web.faults import HttpFault
from keel_app.web.request_body import read_body


def json_body() -> dict[str, Any] | None:
    conf = flask.current_app.config["HEAT_CONF"]
    try:
        return read_body(flask.request, conf.max_json_body_size)
    except RequestLimitExceeded as error:
        raise errors.map_remote_error(error) from None


def resource_identity(arn: str) -> ResourceIdentifier:
    try:
        return ResourceIdentifier.from_arn(arn)
    except ValueError as error:
        raise errors.map_remote_error(error) from None


def update_waitcondition(arn: str) -> Any:
    try:
        body = json_body()
    except HttpFault:
        return plain_errors.bad_request(flask.request.headers.get("Accept", ""))
    if body is None:
        # Heat's view cannot be called without a body: a malformed request.
        return plain_errors.bad_request(flask.request.headers.get("Accept", ""))
    identity = resource_identity(arn)
    try:
        metadata = engine().resource_signal(
            context(),
            stack_identity=dict(identity.stack()),
            resource_name=identity.resource_name,
            details=body,
            sync_call=True,
        )
    except Exception as error:
        return errors.map_remote_error(error)
    return {"resource": identity.resource_name, "metadata": metadata}


def signal(arn: str) -> Any:
    try:
        body = json_body()
    except HttpFault:
        return plain_errors.bad_request(flask.request.headers.get("Accept", ""))
    identity = resource_identity(arn)
    try:
        engine().resource_signal(
            context(),
            stack_identity=dict(identity.stack()),
            resource_name=identity.resource_name,
            details=body,
        )
    except Exception as error:
        return errors.map_remote_error(error)
    return None
