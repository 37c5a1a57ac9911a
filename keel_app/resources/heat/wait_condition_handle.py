"""Wait condition handles: where servers' success and failure signals are kept.

A handle keeps each signal in its metadata (the resource row's ``rsrc_metadata``) as
``{<id>: {"status", "reason", "data"}}`` (CloudFormation's spelling is ``Status``,
``Reason``, ``Data``, ``UniqueId``); its wait condition reads them there. The OS::Heat
handle fills in what a signal leaves out (status SUCCESS, reason "Signal <n> received",
the signal's number as id), the CloudFormation one takes only complete signals.
OS::Heat::UpdateWaitConditionHandle is replaced, signals and all, on every update.

Credentials to signal with (a token, a signed URL, see ``signal_urls``) belong to the
handle's stack-domain user: without Keystone there is none (``stack_user``), so the
handle has no ``resource_id``, its attributes are None and its reference is its name.
"""

from __future__ import annotations

import collections.abc
import json
import logging
from typing import Any

from keel_app.common.exception import ClientNotAvailable, UpdateReplace
from keel_app.engine import constraints
from keel_app.engine.environment.support import SupportStatus
from keel_app.engine.properties import Schema
from keel_app.engine.resource import AttributeSchema
from keel_app.resources.heat import signal_urls
from keel_app.resources.heat.stack_user import PasswordKeepingStackUser, generate_openstack_password

LOG = logging.getLogger(__name__)

# resource_data keys of signal transports that live in other services.
SERVICE_SIGNAL_KEYS = {"swift_signal_object_name": "swift", "zaqar_signal_queue_id": "zaqar"}


class BaseWaitConditionHandle(PasswordKeepingStackUser):
    """What every handle shares: no properties, signals validated and kept in metadata."""

    properties_schema: dict[str, Any] = {}
    # Signals are handled later, with credentials made for the stack's user.
    requires_deferred_auth = True
    WAIT_STATUSES = (STATUS_FAILURE, STATUS_SUCCESS) = ("FAILURE", "SUCCESS")
    METADATA_KEYS: tuple[str, ...] = ()
    DATA = REASON = STATUS = UNIQUE_ID = ""

    def handle_create(self) -> Any:
        super().handle_create()
        self.resource_id_set(self._get_user_id())
        return None

    def handle_delete(self) -> Any:
        self._delete_signals()
        return super().handle_delete()

    def _delete_signals(self) -> None:
        data = self.data()
        for key, client_name in SERVICE_SIGNAL_KEYS.items():
            if data.get(key) and self.keystone() is None:
                raise ClientNotAvailable(client_name=client_name)
        signal_urls.delete_urls(self)

    def _signed_url(self) -> str | None:
        """The handle's pre-signed CFN URL (cfn-signal PUTs to it), made once."""
        if self.keystone() is None:
            return self.data().get(signal_urls.EC2_SIGNED_URL)
        return signal_urls.stored_ec2_signed_url(self, signal_urls.WAITCONDITION)

    def _metadata_format_ok(self, metadata: Any) -> bool:
        if not isinstance(metadata, collections.abc.Mapping):
            return False
        if set(metadata) != set(self.METADATA_KEYS):
            return False
        return metadata[self.STATUS] in self.WAIT_STATUSES

    def normalise_signal_data(self, signal_data: Any, latest_metadata: Any) -> Any:
        return signal_data

    def handle_signal(self, details: Any = None) -> str:
        written: list[Any] = []

        def merge(signal_data: Any, stored: Any) -> dict[str, Any]:
            signal_data = self.normalise_signal_data(signal_data, stored)
            if not self._metadata_format_ok(signal_data):
                LOG.info("Metadata failed validation for %s", self.name)
                raise ValueError("Metadata format invalid")
            entry = dict(signal_data)
            unique_id = str(entry.pop(self.UNIQUE_ID))
            merged = dict(stored or {})
            if unique_id in merged:
                LOG.info("Overwriting Metadata item for id %s!", unique_id)
            merged[unique_id] = entry
            written.append(signal_data)
            return merged

        self.metadata_set(details, merge_metadata=merge)
        last = written[-1]
        return f"status:{last[self.STATUS]} reason:{last[self.REASON]}"

    def get_status(self) -> list[str]:
        """The status of every signal received, in the order they were kept."""
        return [entry[self.STATUS] for entry in (self.metadata_get(refresh=True) or {}).values()]

    def get_status_reason(self, status: str) -> list[str]:
        """The reasons of the signals with ``status``."""
        return [
            entry[self.REASON]
            for entry in (self.metadata_get(refresh=True) or {}).values()
            if entry[self.STATUS] == status
        ]


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

    def _transport(self) -> str:
        return str(self.properties.get(self.SIGNAL_TRANSPORT))

    def handle_create(self) -> Any:
        self.password = generate_openstack_password()
        super().handle_create()
        if self._transport() == self.TOKEN_SIGNAL and self.resource_id is not None:
            self.data_set("token", self._user_token(), redact=True)
            self.data_set("endpoint", f"{self._resource_endpoint()}/signal")
        return None

    def _heat_plugin(self) -> Any:
        clients = getattr(self.context, "clients", None)
        if clients is None:
            raise ClientNotAvailable(client_name="heat")
        return clients.client_plugin("heat")

    def _resource_endpoint(self) -> str:
        # The API's URL with the caller's project swapped for this resource's path, and
        # then the path's project for the stack-user project the signal comes from.
        endpoint = self._heat_plugin().get_heat_url()
        project_id = self.context.project_id
        with_path = endpoint.replace(project_id, self.identifier().url_path())
        return with_path.replace(project_id, self._stack_user_project_id() or "")

    def _resolve_attribute(self, name: str) -> Any:
        if not self.resource_id:
            return None
        if name == self.SIGNAL:
            return json.dumps(self._signal_details())
        if name == self.TOKEN:
            return self.data().get("token")
        if name == self.ENDPOINT:
            return self.data().get("endpoint")
        if name == self.CURL_CLI:
            endpoint, token = self.data().get("endpoint"), self.data().get("token")
            if endpoint is None or token is None:
                return None
            insecure = "--insecure " if self._heat_plugin().get_insecure_option() else ""
            return (
                f"curl {insecure}-i -X POST -H 'X-Auth-Token: {token}' "
                "-H 'Content-Type: application/json' -H 'Accept: application/json' "
                f"{endpoint}"
            )
        return None

    def _signal_details(self) -> Any:
        """What a client signals this handle with, by transport."""
        transport = self._transport()
        if transport == self.NO_SIGNAL:
            return {}
        if transport == self.TOKEN_SIGNAL:
            return None
        if transport == self.CFN_SIGNAL:
            return {"alarm_url": self._signed_url()}
        if transport == self.HEAT_SIGNAL and self.keystone() is not None:
            details = self._heat_signal_credentials()
            details["alarm_url"] = signal_urls.heat_signal_url(
                self, project_id=self._stack_user_project_id()
            )
            return details
        client_name = {self.TEMP_URL_SIGNAL: "swift", self.ZAQAR_SIGNAL: "zaqar"}
        raise ClientNotAvailable(client_name=client_name.get(transport, "keystone"))

    def _heat_signal_credentials(self) -> dict[str, Any]:
        """What a server logs in to Keystone with to signal through the native API."""
        if self._get_user_id() is None:
            if self.password is None:
                self.password = generate_openstack_password()
            self._create_user()
        keystone = self.keystone()
        return {
            "auth_url": keystone.v3_endpoint,
            "username": self.physical_resource_name(),
            "user_id": self._get_user_id(),
            "password": self.password,
            "project_id": self._stack_user_project_id(),
            "domain_id": keystone.stack_domain_id,
            "region_name": self._heat_plugin()._get_region_name(),
        }

    def get_status(self) -> list[str]:
        # Transports that are polled deliver their signals now.
        transport = self._transport()
        if transport == self.NO_SIGNAL:
            self.signal(details={})
        elif transport == self.TEMP_URL_SIGNAL:
            raise ClientNotAvailable(client_name="swift")
        elif transport == self.ZAQAR_SIGNAL:
            raise ClientNotAvailable(client_name="zaqar")
        return super().get_status()

    def normalise_signal_data(self, signal_data: Any, latest_metadata: Any) -> Any:
        number = len(latest_metadata or {}) + 1
        # Whatever is missing is filled in: a bare signal is a success.
        metadata = dict(signal_data) if signal_data else {}
        metadata.setdefault(self.REASON, f"Signal {number} received")
        metadata.setdefault(self.DATA, None)
        metadata.setdefault(self.UNIQUE_ID, number)
        metadata.setdefault(self.STATUS, self.STATUS_SUCCESS)
        return metadata


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

    def get_reference_id(self) -> str:
        if self.resource_id:
            # Signed for the user's EC2 keypair when the handle is first referenced.
            return str(self._signed_url())
        return str(self.name)

    def metadata_update(self, new_metadata: Any = None) -> None:
        self.handle_signal(details=new_metadata)

    def handle_signal(self, details: Any = None) -> Any:
        if details is None:
            return None
        return super().handle_signal(details)


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

    def _needs_update(self, *arguments: Any, **options: Any) -> bool:
        raise UpdateReplace(self.name)
