"""OS::Heat::SwiftSignalHandle and OS::Heat::SwiftSignal: a wait condition whose signals
are objects PUT to a Swift TempURL.

The handle makes a container named after the stack's id (keeping its objects' versions
in itself) holding an object named after the handle, and a PUT TempURL of that object:
its reference and ``endpoint`` attribute. Each PUT there is a signal; Swift keeps every
earlier body as a version, so the signal reads every object of the container whose name
holds the handle's object name. A body is JSON (``status``, ``reason``, ``data``,
``id``; an empty body is a success), or the handle's first "in progress" body, which is
no signal. Signals with the same ``id`` count once (the last one).

The signal completes once ``count`` success signals are in, fails at a failure signal
(the failure reasons joined by ";") or when ``timeout`` seconds pass first, waiting by
the engine's re-sending of its step. Deleting the handle deletes the object (every
version of it) and then the container, unless something else is still in it.
"""

from __future__ import annotations

import datetime
import json
import logging
from typing import Any
from urllib import parse

from keel_app.clients.swift import IN_PROGRESS
from keel_app.common.exception import Error
from keel_app.engine import constraints
from keel_app.engine.environment.support import SupportStatus
from keel_app.engine.properties import Schema
from keel_app.engine.resource import AttributeSchema, Resource

LOG = logging.getLogger(__name__)


class SwiftSignalFailure(Error):
    """A failure signal arrived: the failure reasons, joined."""

    def __init__(self, signal: SwiftSignal) -> None:
        super().__init__(";".join(signal.get_status_reason(signal.STATUS_FAILURE)))


class SwiftSignalTimeout(Error):
    """Too few success signals in time: how many, and their reasons."""

    def __init__(self, signal: SwiftSignal) -> None:
        reasons = signal.get_status_reason(signal.STATUS_SUCCESS)
        message = f"{len(reasons)} of {signal.properties[signal.COUNT]} received"
        if reasons:
            message += " - " + ";".join(reasons)
        super().__init__(message)


class SwiftSignalHandle(Resource):
    """A Swift object and its PUT TempURL, where a SwiftSignal's signals arrive."""

    support_status = SupportStatus(version="2014.2")
    default_client_name = "swift"
    type_description = """\
Resource for managing signals from Swift resources.

This resource is same as WaitConditionHandle, but designed for using by
Swift resources.
"""

    properties_schema: dict[str, Schema] = {}
    ATTRIBUTES = (TOKEN, ENDPOINT, CURL_CLI) = ("token", "endpoint", "curl_cli")

    attributes_schema = {
        TOKEN: AttributeSchema(
            "Tokens are not needed for Swift TempURLs. This attribute is being kept for "
            "compatibility with the OS::Heat::WaitConditionHandle resource.",
            cache_mode=AttributeSchema.CACHE_NONE,
            type=AttributeSchema.STRING,
        ),
        ENDPOINT: AttributeSchema(
            "Endpoint/url which can be used for signalling handle.",
            cache_mode=AttributeSchema.CACHE_NONE,
            type=AttributeSchema.STRING,
        ),
        CURL_CLI: AttributeSchema(
            "Convenience attribute, provides curl CLI command prefix, which can be used for "
            "signalling handle completion or failure. You can signal success by adding "
            '--data-binary \'{"status": "SUCCESS"}\' , or signal failure by adding '
            '--data-binary \'{"status": "FAILURE"}\'.',
            cache_mode=AttributeSchema.CACHE_NONE,
            type=AttributeSchema.STRING,
        ),
    }

    def handle_create(self) -> None:
        name = self.physical_resource_name()
        url = self.client_plugin().get_signal_url(self.stack.id, name)
        self.data_set(self.ENDPOINT, url)
        self.resource_id_set(name)

    def _resolve_attribute(self, name: str) -> Any:
        if not self.resource_id:
            return None
        endpoint = self.data().get(self.ENDPOINT)
        if name == self.TOKEN:
            return ""  # what a WaitConditionHandle's users read
        if name == self.ENDPOINT:
            return endpoint
        if name == self.CURL_CLI:
            return f"curl -i -X PUT '{endpoint}'"
        return None

    def handle_delete(self) -> None:
        swift = self.client_plugin()
        name = self.physical_resource_name()
        container = self.stack.id
        # Each delete of a versioned object brings its previous version back: delete
        # until none is left.
        while True:
            try:
                swift.delete_object(container, name)
            except Exception as error:
                if not swift.is_not_found(error):
                    raise
                break
        try:
            swift.delete_container(container)
        except Exception as error:
            # Gone already, or still holding another handle's object.
            if not (swift.is_not_found(error) or swift.is_conflict(error)):
                raise
        self.data_delete(self.ENDPOINT)

    def get_reference_id(self) -> str:
        return self.data().get(self.ENDPOINT)  # type: ignore[no-any-return]


class SwiftSignal(Resource):
    """Waits for ``count`` success signals PUT to a SwiftSignalHandle's TempURL."""

    support_status = SupportStatus(version="2014.2")
    default_client_name = "swift"
    type_description = """\
Resource for handling signals received by SwiftSignalHandle.

This resource handles signals received by SwiftSignalHandle and
is same as WaitCondition resource.
"""

    PROPERTIES = (HANDLE, TIMEOUT, COUNT) = ("handle", "timeout", "count")
    ATTRIBUTES = (DATA,) = ("data",)
    WAIT_STATUSES = (STATUS_FAILURE, STATUS_SUCCESS) = ("FAILURE", "SUCCESS")
    SIGNAL_KEYS = (REASON, STATUS, UNIQUE_ID) = ("reason", "status", "id")

    properties_schema = {
        HANDLE: Schema(
            Schema.STRING,
            "URL of TempURL where resource will signal completion and optionally upload data.",
            required=True,
        ),
        TIMEOUT: Schema(
            Schema.NUMBER,
            "The maximum number of seconds to wait for the resource to signal completion. "
            "Once the timeout is reached, creation of the signal resource will fail.",
            required=True,
            constraints=[constraints.Range(1, 43200)],
        ),
        COUNT: Schema(
            Schema.INTEGER,
            "The number of success signals that must be received before the stack creation "
            "process continues.",
            default=1,
            constraints=[constraints.Range(1, 1000)],
        ),
    }

    attributes_schema = {
        DATA: AttributeSchema(
            "JSON data that was uploaded via the SwiftSignalHandle.",
            type=AttributeSchema.STRING,
        ),
    }

    @property
    def _url_path(self) -> str:
        return parse.urlparse(self.properties[self.HANDLE]).path

    @property
    def _object_name(self) -> str:
        return self._url_path.split("/")[4]

    def _validate_handle_url(self) -> None:
        path = self._url_path
        if not self.client_plugin().is_valid_temp_url_path(path):
            part = "Swift TempURL path"
        elif path.split("/")[3] != self.stack.id:
            part = "container name"
        else:
            return
        raise ValueError(f'"{path}" is not a valid SwiftSignalHandle.  The {part} is invalid')

    def handle_create(self) -> list[Any]:
        self._validate_handle_url()
        # JSON-able: the token travels in the message that asks again.
        return [self.now().isoformat(), float(self.properties[self.TIMEOUT])]

    def _bodies(self) -> list[dict[str, Any]]:
        """The decoded body of every version of the handle's object but the first."""
        swift = self.client_plugin()
        container = self.stack.id
        try:
            listing = swift.get_container(container)[1]
        except Exception as error:
            if not swift.is_not_found(error):
                raise
            LOG.debug("Swift container %s was not found", container)
            return []
        bodies = []
        for found in listing:
            if self._object_name not in found["name"]:
                continue
            try:
                body = swift.get_object(container, found["name"])[1]
            except Exception as error:
                if not swift.is_not_found(error):
                    raise
                continue
            if isinstance(body, bytes):
                body = body.decode()
            if body == IN_PROGRESS:
                continue
            if body == "":
                bodies.append({})
                continue
            try:
                bodies.append(json.loads(body))
            except ValueError:
                raise Error(f"Failed to parse JSON data: {body}") from None
        return bodies

    def get_signals(self) -> list[dict[str, Any]]:
        """The signals, completed with Heat's defaults; one per id (the last)."""
        signals: list[dict[str, Any]] = []
        for number, signal in enumerate(self._bodies(), start=1):
            if self.UNIQUE_ID in signal:
                signals = [
                    known
                    for known in signals
                    if known.get(self.UNIQUE_ID) != signal[self.UNIQUE_ID]
                ]
            signal.setdefault(self.DATA, None)
            unique_id = signal.setdefault(self.UNIQUE_ID, number)
            signal.setdefault(self.REASON, f"Signal {unique_id} received")
            signal.setdefault(self.STATUS, self.STATUS_SUCCESS)
            signals.append(signal)
        return signals

    def get_status(self) -> list[Any]:
        return [signal[self.STATUS] for signal in self.get_signals()]

    def get_status_reason(self, status: str) -> list[Any]:
        return [
            signal[self.REASON] for signal in self.get_signals() if signal[self.STATUS] == status
        ]

    def get_data(self) -> dict[Any, Any] | None:
        signals = self.get_signals()
        if not signals:
            return None
        return {signal[self.UNIQUE_ID]: signal[self.DATA] for signal in signals}

    def check_create_complete(self, token: list[Any]) -> bool:
        started_at, timeout = token
        waited = self.now() - datetime.datetime.fromisoformat(started_at)
        if waited > datetime.timedelta(seconds=timeout):
            raise SwiftSignalTimeout(self)
        statuses = self.get_status()
        if not statuses:
            return False
        for status in statuses:
            if status == self.STATUS_FAILURE:
                failure = SwiftSignalFailure(self)
                LOG.info("%s Failed (%s)", self, failure)
                raise failure
            if status != self.STATUS_SUCCESS:
                raise Error(f"Unknown status: {status}")
        if len(statuses) >= self.properties[self.COUNT]:
            LOG.info("%s Succeeded", self)
            return True
        return False

    def _resolve_attribute(self, name: str) -> Any:
        if name == self.DATA:
            return json.dumps(self.get_data())
        return None


RESOURCE_CLASSES = {
    "OS::Heat::SwiftSignalHandle": SwiftSignalHandle,
    "OS::Heat::SwiftSignal": SwiftSignal,
}
