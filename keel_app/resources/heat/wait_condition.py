"""Wait conditions and their handles, Heat's and CloudFormation's.

A handle gives instances a way to signal (a token, a signed URL, ...); its wait
condition completes when enough success signals have arrived, and fails on a failure
signal or a timeout. OS::Heat::UpdateWaitConditionHandle is replaced on every update.
Declarations only: credentials, signals and waiting are life-cycle steps and arrive
with the engine.
"""

from __future__ import annotations

from typing import Any

from keel_app.engine import constraints
from keel_app.engine.environment.support import SupportStatus
from keel_app.engine.properties import Schema
from keel_app.engine.resource import AttributeSchema, Resource


class BaseWaitConditionHandle(Resource):
    """What every handle shares: no properties, signals with a status."""

    properties_schema: dict[str, Any] = {}
    # Signalling happens later with credentials made for the stack's user.
    requires_deferred_auth = True
    WAIT_STATUSES = (STATUS_FAILURE, STATUS_SUCCESS) = ("FAILURE", "SUCCESS")


class HeatWaitConditionHandle(BaseWaitConditionHandle):
    """Receives signals over one of several transports (a token by default)."""

    support_status = SupportStatus(version="2014.2")
    type_description = """\
Resource for managing instance signals.

The main points of this resource are:
  - have no dependencies (so the instance can reference it).
  - create credentials to allow for signalling from the instance.
  - handle signals from the instance, validate and store result.
"""

    PROPERTIES = (SIGNAL_TRANSPORT,) = ("signal_transport",)
    SIGNAL_TRANSPORTS = (
        CFN_SIGNAL,
        TEMP_URL_SIGNAL,
        HEAT_SIGNAL,
        NO_SIGNAL,
        ZAQAR_SIGNAL,
        TOKEN_SIGNAL,
    ) = (
        "CFN_SIGNAL",
        "TEMP_URL_SIGNAL",
        "HEAT_SIGNAL",
        "NO_SIGNAL",
        "ZAQAR_SIGNAL",
        "TOKEN_SIGNAL",
    )
    ATTRIBUTES = (TOKEN, ENDPOINT, CURL_CLI, SIGNAL) = ("token", "endpoint", "curl_cli", "signal")
    METADATA_KEYS = (DATA, REASON, STATUS, UNIQUE_ID) = ("data", "reason", "status", "id")

    properties_schema = {
        SIGNAL_TRANSPORT: Schema(
            Schema.STRING,
            "How the client will signal the wait condition. CFN_SIGNAL will allow an HTTP POST "
            "to a CFN keypair signed URL. TEMP_URL_SIGNAL will create a Swift TempURL to be "
            "signalled via HTTP PUT. HEAT_SIGNAL will allow calls to the Heat API "
            "resource-signal using the provided keystone credentials. ZAQAR_SIGNAL will create "
            "a dedicated zaqar queue to be signalled using the provided keystone credentials. "
            "TOKEN_SIGNAL will allow and HTTP POST to a Heat API endpoint with the provided "
            "keystone token. NO_SIGNAL will result in the resource going to a signalled state "
            "without waiting for any signal.",
            default="TOKEN_SIGNAL",
            constraints=[constraints.AllowedValues(SIGNAL_TRANSPORTS)],
            support_status=SupportStatus(version="6.0.0"),
        ),
    }

    attributes_schema = {
        TOKEN: AttributeSchema(
            "Token for stack-user which can be used for signalling handle when "
            "signal_transport is set to TOKEN_SIGNAL. None for all other signal transports.",
            cache_mode=AttributeSchema.CACHE_NONE,
            type=AttributeSchema.STRING,
        ),
        ENDPOINT: AttributeSchema(
            "Endpoint/url which can be used for signalling handle when signal_transport is set "
            "to TOKEN_SIGNAL. None for all other signal transports.",
            cache_mode=AttributeSchema.CACHE_NONE,
            type=AttributeSchema.STRING,
        ),
        CURL_CLI: AttributeSchema(
            "Convenience attribute, provides curl CLI command prefix, which can be used for "
            "signalling handle completion or failure when signal_transport is set to "
            "TOKEN_SIGNAL. You can signal success by adding --data-binary "
            '\'{"status": "SUCCESS"}\' , or signal failure by adding --data-binary '
            '\'{"status": "FAILURE"}\'. This attribute is set to None for all other signal '
            "transports.",
            cache_mode=AttributeSchema.CACHE_NONE,
            type=AttributeSchema.STRING,
        ),
        SIGNAL: AttributeSchema(
            "JSON serialized map that includes the endpoint, token and/or other attributes the "
            "client must use for signalling this handle. The contents of this map depend on the "
            "type of signal selected in the signal_transport property.",
            cache_mode=AttributeSchema.CACHE_NONE,
            type=AttributeSchema.STRING,
        ),
    }


class WaitConditionHandle(BaseWaitConditionHandle):
    """CloudFormation's handle: its reference is a signed URL that cfn-signal posts to."""

    support_status = SupportStatus(version="2014.1")
    type_description = """\
AWS WaitConditionHandle resource.

the main point of this class is to :
have no dependencies (so the instance can reference it)
generate a unique url (to be returned in the reference)
then the cfn-signal will use this url to post to and
WaitCondition will poll it to see if has been written to.
"""

    METADATA_KEYS = (DATA, REASON, STATUS, UNIQUE_ID) = ("Data", "Reason", "Status", "UniqueId")


class UpdateWaitConditionHandle(WaitConditionHandle):
    """A CloudFormation-style handle that is replaced, signals cleared, on every update."""

    support_status = SupportStatus(version="2014.1")
    type_description = """\
WaitConditionHandle that clears signals and changes handle on update.

This works similarly to an AWS::CloudFormation::WaitConditionHandle, except
that on update it clears all signals received and changes the handle. Using
this handle means that you must setup the signal senders to send their
signals again any time the update handle changes. This allows us to roll
out new configurations and be confident that they are rolled out once
UPDATE COMPLETE is reached.
"""


def _count_schema() -> Schema:
    return Schema(
        Schema.INTEGER,
        "The number of success signals that must be received before the stack creation "
        "process continues.",
        constraints=[constraints.Range(min=1)],
        default=1,
        update_allowed=True,
    )


HANDLE_DESCRIPTION = "A reference to the wait condition handle used to signal this wait condition."
TIMEOUT_DESCRIPTION = "The number of seconds to wait for the correct number of signals to arrive."
DATA_DESCRIPTION = (
    "JSON string containing data associated with wait condition signals sent to the handle."
)


class HeatWaitCondition(Resource):
    """Waits for ``count`` success signals on its handle, within ``timeout`` seconds."""

    support_status = SupportStatus(version="2014.2")
    type_description = """\
Resource for handling signals received by WaitConditionHandle.

Resource takes WaitConditionHandle and starts to create. Resource is in
CREATE_IN_PROGRESS status until WaitConditionHandle doesn't receive
sufficient number of successful signals (this number can be specified with
count property) and successfully creates after that, or fails due to
timeout.
"""

    PROPERTIES = (HANDLE, TIMEOUT, COUNT) = ("handle", "timeout", "count")
    ATTRIBUTES = (DATA,) = ("data",)

    properties_schema = {
        HANDLE: Schema(Schema.STRING, HANDLE_DESCRIPTION, required=True),
        TIMEOUT: Schema(
            Schema.NUMBER,
            TIMEOUT_DESCRIPTION,
            required=True,
            constraints=[constraints.Range(1, 43200)],
        ),
        COUNT: _count_schema(),
    }

    attributes_schema = {
        DATA: AttributeSchema(
            DATA_DESCRIPTION, cache_mode=AttributeSchema.CACHE_NONE, type=AttributeSchema.STRING
        ),
    }


class WaitCondition(HeatWaitCondition):
    # CloudFormation's spelling; no description of its own, as in Heat.
    support_status = SupportStatus(version="2014.1")
    type_description = None

    PROPERTIES = (HANDLE, TIMEOUT, COUNT) = ("Handle", "Timeout", "Count")
    ATTRIBUTES = (DATA,) = ("Data",)

    properties_schema = {
        HANDLE: Schema(Schema.STRING, HANDLE_DESCRIPTION, required=True),
        TIMEOUT: Schema(
            Schema.INTEGER,
            TIMEOUT_DESCRIPTION,
            required=True,
            constraints=[constraints.Range(1, 43200)],
        ),
        COUNT: _count_schema(),
    }

    attributes_schema = {
        DATA: AttributeSchema(
            DATA_DESCRIPTION, cache_mode=AttributeSchema.CACHE_NONE, type=AttributeSchema.STRING
        ),
    }
