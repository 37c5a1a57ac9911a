"""Wait conditions: a resource that waits for enough success signals on its handle.

The condition's step polls its handle's signals (kept in the handle's metadata, see
``wait_condition_handle``): it completes once ``count`` success signals are in, fails
at the first failure signal (the failure reasons joined by ";") or when ``timeout``
seconds pass first ("<n> of <count> received", with the success reasons). Waiting is
the engine's re-sending of the step, never a sleep; an update waits again, counting
the signals already received. The ``data`` attribute is the JSON map of each signal's
id to its data. Deleting the condition clears its handle's signals.

The handles are defined in ``wait_condition_handle`` and importable from here.
"""

from __future__ import annotations

import datetime
import json
import logging
from typing import Any

from keel_app.common.exception import Error
from keel_app.common.identifier import ResourceIdentifier
from keel_app.engine import constraints
from keel_app.engine.environment.support import SupportStatus
from keel_app.engine.properties import Schema
from keel_app.engine.resource import AttributeSchema, Resource
from keel_app.engine.resource.siblings import load_sibling, resource_by_refid
from keel_app.resources.heat.wait_condition_handle import (
    BaseWaitConditionHandle,
    HeatWaitConditionHandle,
    UpdateWaitConditionHandle,
    WaitConditionHandle,
)

__all__ = [
    "BaseWaitConditionHandle",
    "HeatWaitCondition",
    "HeatWaitConditionHandle",
    "UpdateWaitConditionHandle",
    "WaitCondition",
    "WaitConditionFailure",
    "WaitConditionHandle",
    "WaitConditionTimeout",
]

LOG = logging.getLogger(__name__)


class WaitConditionFailure(Error):
    """A failure signal arrived: its reasons, joined."""

    def __init__(self, wait_condition: Any, handle: Any) -> None:
        super().__init__(";".join(handle.get_status_reason(handle.STATUS_FAILURE)))


class WaitConditionTimeout(Error):
    """Too few success signals in time: how many, and their reasons."""

    def __init__(self, wait_condition: Any, handle: Any) -> None:
        reasons = handle.get_status_reason(handle.STATUS_SUCCESS)
        message = f"{len(reasons)} of {wait_condition.properties[wait_condition.COUNT]} received"
        if reasons:
            message += " - " + ";".join(reasons)
        super().__init__(message)


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

    def _get_handle_resource(self) -> Any:
        return resource_by_refid(self.stack, self.properties[self.HANDLE])

    def _validate_handle_resource(self, handle: Any) -> None:
        if isinstance(handle, BaseWaitConditionHandle):
            return
        LOG.debug("Got %r instead of wait condition handle", handle)
        name = handle.name if handle is not None else self.properties[self.HANDLE]
        raise ValueError(f"{name} is not a valid wait condition handle.")

    def _start_waiting(self) -> list[Any]:
        handle = self._get_handle_resource()
        self._validate_handle_resource(handle)
        # JSON-able: the token travels in the message that asks again.
        return [handle.name, self.now().isoformat(), float(self.properties[self.TIMEOUT])]

    def _wait(self, handle_name: str, started_at: str, timeout: float) -> bool:
        handle = load_sibling(self.stack, handle_name)
        waited = self.now() - datetime.datetime.fromisoformat(started_at)
        if waited > datetime.timedelta(seconds=timeout):
            timed_out = WaitConditionTimeout(self, handle)
            LOG.info("%s Timed out (%s)", self, timed_out)
            raise timed_out
        statuses = handle.get_status()
        if any(status != handle.STATUS_SUCCESS for status in statuses):
            failure = WaitConditionFailure(self, handle)
            LOG.info("%s Failed (%s)", self, failure)
            raise failure
        if len(statuses) >= self.properties[self.COUNT]:
            LOG.info("%s Succeeded", self)
            return True
        return False

    def handle_create(self) -> list[Any]:
        return self._start_waiting()

    def check_create_complete(self, token: list[Any]) -> bool:
        return self._wait(*token)

    def handle_update(self, json_snippet: Any, tmpl_diff: Any, prop_diff: Any) -> list[Any]:
        if prop_diff:
            self.properties = json_snippet.properties(self.properties_schema, self.context)
        return self._start_waiting()

    def check_update_complete(self, token: list[Any]) -> bool:
        return self._wait(*token)

    def handle_delete(self) -> None:
        handle = self._get_handle_resource()
        if handle is not None:
            handle.metadata_set({})

    def _resolve_attribute(self, name: str) -> Any:
        handle = self._get_handle_resource()
        if handle is None:
            return ""
        if name == self.DATA:
            signals = handle.metadata_get(refresh=True) or {}
            data = {key: signals[key][handle.DATA] for key in signals}
            return json.dumps(data)
        return None


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

    def _validate_handle_url(self) -> None:
        handle = ResourceIdentifier.from_arn_url(self.properties[self.HANDLE])
        if handle.tenant != self.stack.context.project_id:
            raise ValueError(f"WaitCondition invalid Handle tenant {handle.tenant}")
        if handle.stack_name != self.stack.name:
            raise ValueError(f"WaitCondition invalid Handle stack {handle.stack_name}")
        if handle.stack_id != self.stack.id:
            raise ValueError(f"WaitCondition invalid Handle stack {handle.stack_id}")
        name = handle.resource_name
        if name not in self.stack or not isinstance(self.stack[name], WaitConditionHandle):
            raise ValueError(f"WaitCondition invalid Handle {name}")

    def handle_create(self) -> list[Any]:
        self._validate_handle_url()
        return super().handle_create()
