"""Resources that a server signals over a transport of the template's choosing.

``signal_transport`` says how the server gets back to the engine, and so what the
resource hands out for it (Heat's SignalResponder):

- CFN_SIGNAL: a CFN URL pre-signed with the stack user's EC2 keypair (``signal_urls``);
- HEAT_SIGNAL: the stack user's own Keystone credentials (a password kept redacted in
  resource_data), to call the native API's resource signal with;
- TEMP_URL_SIGNAL: a Swift TempURL to PUT the signal to, on an object named after the
  resource in a container named after the stack (the container is shared by the
  stack's signal objects and goes with the last of them);
- ZAQAR_SIGNAL: a Zaqar queue, which needs Zaqar in the catalog: OpenKeel has none, so
  this fails as Heat fails without it (keystoneauth's EndpointNotFound), once the user
  is made;
- NO_SIGNAL: nothing to hand out.

What was handed out is taken back on delete: the URLs, the keypair, the Swift object
(and its container when empty), the user.
"""

from __future__ import annotations

import logging
from typing import Any

from keystoneauth1 import exceptions as keystone_errors

from keel_app.resources.heat import signal_urls
from keel_app.resources.heat.stack_user import PasswordKeepingStackUser, generate_openstack_password

LOG = logging.getLogger(__name__)

SWIFT_SIGNAL_URL, SWIFT_SIGNAL_OBJECT_NAME = "swift_signal_url", "swift_signal_object_name"
ZAQAR_SIGNAL_QUEUE_ID = "zaqar_signal_queue_id"


class SignalResponder(PasswordKeepingStackUser):
    """A stack-user resource that hands a server the means to signal it."""

    SIGNAL_TRANSPORT = "signal_transport"
    CFN_SIGNAL, TEMP_URL_SIGNAL, HEAT_SIGNAL, NO_SIGNAL, ZAQAR_SIGNAL = (
        "CFN_SIGNAL",
        "TEMP_URL_SIGNAL",
        "HEAT_SIGNAL",
        "NO_SIGNAL",
        "ZAQAR_SIGNAL",
    )
    # Signals are handled later, with credentials made for the stack's user.
    requires_deferred_auth = True

    def handle_delete(self) -> Any:
        self._delete_signals()
        return super().handle_delete()

    # The transport

    def _transport(self) -> Any:
        return self.properties.get(self.SIGNAL_TRANSPORT)

    def _signal_transport_cfn(self) -> bool:
        return bool(self._transport() == self.CFN_SIGNAL)

    def _signal_transport_heat(self) -> bool:
        return bool(self._transport() == self.HEAT_SIGNAL)

    def _signal_transport_none(self) -> bool:
        return bool(self._transport() == self.NO_SIGNAL)

    def _signal_transport_temp_url(self) -> bool:
        return bool(self._transport() == self.TEMP_URL_SIGNAL)

    def _signal_transport_zaqar(self) -> bool:
        return bool(self._transport() == self.ZAQAR_SIGNAL)

    # What the server is handed

    def _get_heat_signal_credentials(self) -> dict[str, Any]:
        """The stack user's credentials (the user made, with a password, if need be)."""
        if self._get_user_id() is None:
            if self.password is None:
                self.password = generate_openstack_password()
            self._create_user()
        keystone = self._keystone_or_fail()
        return {
            # Heat's server_keystone_endpoint_url falls back to this when no
            # server_keystone_endpoint_type is configured.
            "auth_url": self.server_keystone_endpoint_url(keystone.v3_endpoint),
            "username": self.physical_resource_name(),
            "user_id": self._get_user_id(),
            "password": self.password,
            "project_id": self._stack_user_project_id(),
            "domain_id": keystone.stack_domain_id,
            "region_name": self.client_plugin("heat")._get_region_name(),
        }

    def _get_ec2_signed_url(
        self, signal_type: str = signal_urls.SIGNAL, never_expire: bool = False
    ) -> str | None:
        return signal_urls.ec2_signed_url(self, signal_type, never_expire)

    def _get_heat_signal_url(self, project_id: str | None = None) -> str | None:
        return signal_urls.heat_signal_url(self, project_id=project_id)

    def _get_swift_signal_url(self, multiple_signals: bool = False) -> str | None:
        """The TempURL the server PUTs its signal to, made (with its object) once."""
        stored = self.data().get(SWIFT_SIGNAL_URL)
        if stored:
            return str(stored)
        if self.id is None:
            return None  # too early: the resource has no row yet
        container, object_name = self.stack.id, self.physical_resource_name()
        swift = self.client_plugin("swift")
        swift.put_container(container)
        if multiple_signals:
            url = swift.get_signal_url(container, object_name)
        else:
            url = swift.get_temp_url(container, object_name)
            swift.put_object(container, object_name, "")
        self.data_set(SWIFT_SIGNAL_URL, url)
        self.data_set(SWIFT_SIGNAL_OBJECT_NAME, object_name)
        return str(url)

    def _get_zaqar_signal_queue_id(self) -> str | None:
        stored = self.data().get(ZAQAR_SIGNAL_QUEUE_ID)
        if stored:
            return str(stored)
        if self.id is None:
            return None
        if self._get_user_id() is None:
            if self.password is None:
                self.password = generate_openstack_password()
            self._create_user()
        # Heat's Zaqar client looks its endpoint up in the catalog, which has none here.
        raise keystone_errors.EndpointNotFound()

    # Taking it back

    def _delete_signals(self) -> None:
        self.data_delete(signal_urls.EC2_SIGNED_URL)
        self._delete_keypair()
        self.data_delete(signal_urls.HEAT_SIGNAL_URL)
        self._delete_swift_signal_url()
        # No queue is ever made without Zaqar: nothing of Zaqar's to delete.

    def _delete_swift_signal_url(self) -> None:
        object_name = self.data().get(SWIFT_SIGNAL_OBJECT_NAME)
        if not object_name:
            return
        swift = self.client_plugin("swift")
        container = self.stack.id
        with swift.ignore_not_found():
            # Every version of the object goes (Swift brings back the previous one on
            # each delete of a versioned object).
            for found in swift.get_container(container)[1]:
                if object_name in found["name"]:
                    swift.delete_object(container, object_name)
            headers = swift.head_container(container)
            if int(headers["x-container-object-count"]) == 0:
                swift.delete_container(container)
        self.data_delete(SWIFT_SIGNAL_OBJECT_NAME)
        self.data_delete(SWIFT_SIGNAL_URL)
