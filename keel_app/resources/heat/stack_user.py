"""Resources with a user of their own in the stack's Keystone domain project.

Heat gives a signalling resource (a wait condition handle, a server's software config
transport) a user in the stack-user domain, so that what runs on a server can signal
with its own credentials. The user's id is kept in resource_data ``user_id``. The
user is made through the Keystone client the context carries (``context.clients``);
without one (OpenKeel's embedded mode has no Keystone) no user is made, the resource
has no credentials to hand out, and it can be signalled through the API only.

A user may also get an EC2 keypair (``_create_keypair``), kept in resource_data as
``credential_id``, ``access_key`` and ``secret_key`` (redacted), to sign URLs with; it
goes with the user. Suspending the resource disables its user, resuming enables it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from keystoneauth1 import exceptions as keystone_errors

from keel_app.common.exception import ClientNotAvailable, Error
from keel_app.common.identifier import ResourceIdentifier
from keel_app.engine.resource import Resource
from keel_app.models.api import stacks
from keel_app.resources.heat import password_generation

LOG = logging.getLogger(__name__)

USER_ID = "user_id"
PASSWORD = "password"
KEYPAIR_KEYS = (CREDENTIAL_ID, ACCESS_KEY, SECRET_KEY) = (
    "credential_id",
    "access_key",
    "secret_key",
)


class StackUser(Resource):
    """A resource that may own a stack-domain user (and that user's EC2 keypair)."""

    def keystone(self) -> Any:
        """Heat's Keystone client for the stack domain; None when there is no Keystone."""
        clients = getattr(self.context, "clients", None)
        if clients is None:
            return None
        return clients.client("keystone")

    def server_keystone_endpoint_url(self, fallback: str) -> str:
        """The Keystone v3 URL handed to servers: the caller's catalog's identity endpoint
        on heat.conf's server_keystone_endpoint_type interface, else ``fallback``."""
        interface = self.stack.settings.server_keystone_endpoint_type
        if not interface:
            return fallback
        try:
            url = self.client_plugin("keystone").url_for("identity", interface)
        except keystone_errors.EndpointNotFound:
            return fallback
        except keystone_errors.Unauthorized:
            LOG.error("Keystone client authentication failed")
            return fallback
        url = url.rstrip("/")
        return url if url.endswith("/v3") else url + "/v3"

    def handle_create(self) -> Any:
        self._create_user()
        return None

    def handle_delete(self) -> Any:
        self._delete_user()
        return None

    def _get_user_id(self) -> str | None:
        return self.data().get(USER_ID) or None

    def _stack_user_project_id(self) -> str | None:
        return getattr(self.stack, "stack_user_project_id", None) or _stored_project(self.stack)

    def _create_user(self) -> None:
        if self._get_user_id():
            return
        keystone = self.keystone()
        if keystone is None:
            return
        project_id = self._stack_user_project_id()
        if not project_id:
            project_id = keystone.create_stack_domain_project(self.stack.id)
            stacks.update_stack(
                self.stack.database,
                _ADMIN,
                self.stack.id,
                {"stack_user_project_id": project_id},
            )
            self.stack.stack_user_project_id = project_id
        user_id = keystone.create_stack_domain_user(
            username=self.physical_resource_name(),
            password=getattr(self, "password", None),
            project_id=project_id,
        )
        self.data_set(USER_ID, user_id)

    def _user_token(self) -> Any:
        project_id = self._stack_user_project_id()
        if not project_id:
            raise ValueError("Can't get user token, user not yet created")
        password = getattr(self, "password", None)
        if password is None:
            raise ValueError("Can't get user token without password")
        return self.keystone().stack_domain_user_token(
            user_id=self._get_user_id(), project_id=project_id, password=password
        )

    def identifier(self) -> ResourceIdentifier:
        return ResourceIdentifier(resource_name=self.name, **self.stack.identifier())

    def _keystone_or_fail(self) -> Any:
        keystone = self.keystone()
        if keystone is None:
            # A user made by an engine that had Keystone is not forgotten silently.
            raise ClientNotAvailable(client_name="keystone")
        return keystone

    def _delete_user(self) -> None:
        user_id = self._get_user_id()
        if user_id is None:
            return
        keystone = self._keystone_or_fail()
        # The keypair goes with its user.
        self._delete_keypair()
        try:
            keystone.delete_stack_domain_user(
                user_id=user_id, project_id=self._stack_user_project_id()
            )
        except ValueError as error:
            # Heat then tries the user in the caller's own project; OpenKeel makes none.
            LOG.warning("Not deleting user %s: %s", user_id, error)
        self.data_delete(USER_ID)

    def handle_suspend(self) -> None:
        user_id = self._get_user_id()
        if user_id is not None:
            self._keystone_or_fail().disable_stack_domain_user(
                user_id=user_id, project_id=self._stack_user_project_id()
            )

    def handle_resume(self) -> None:
        user_id = self._get_user_id()
        if user_id is not None:
            self._keystone_or_fail().enable_stack_domain_user(
                user_id=user_id, project_id=self._stack_user_project_id()
            )

    def _create_keypair(self) -> Any:
        """The user's EC2 keypair, made once; its parts kept redacted in resource_data."""
        if self.data().get(CREDENTIAL_ID):
            return None
        user_id = self._get_user_id()
        keypair = self._keystone_or_fail().create_stack_domain_user_keypair(
            user_id=user_id,
            project_id=self._stack_user_project_id(),
            secret=generate_openstack_password(),
        )
        if not keypair:
            raise Error(f"Error creating ec2 keypair for user {user_id}")
        self.data_set(CREDENTIAL_ID, keypair.id, redact=True)
        self.data_set(ACCESS_KEY, keypair.access, redact=True)
        self.data_set(SECRET_KEY, keypair.secret, redact=True)
        return keypair

    def _delete_keypair(self) -> None:
        credential_id = self.data().get(CREDENTIAL_ID)
        user_id = self._get_user_id()
        if not credential_id or user_id is None:
            return
        self._keystone_or_fail().delete_stack_domain_user_keypair(
            user_id=user_id,
            project_id=self._stack_user_project_id(),
            credential_id=credential_id,
        )
        for key in KEYPAIR_KEYS:
            self.data_delete(key)

    def access_allowed_handlers(self) -> dict[str, Callable[[str], bool]]:
        """The credentials this resource vouches for (``stack_user_access``): a server
        whose user fetches its software config lets that user describe the server alone,
        as in Heat; the other users of this kind (a handle's, a policy's) describe
        nothing."""
        fetches_config = getattr(self, "user_data_software_config", None)
        if callable(fetches_config) and fetches_config():
            return self.own_access_handlers()
        return {}

    def own_access_handlers(self) -> dict[str, Callable[[str], bool]]:
        """The user's credentials (its EC2 access key, its id) as allowed to describe
        this resource alone."""

        def allowed(resource_name: str) -> bool:
            return resource_name == self.name

        credentials = (self.data().get(ACCESS_KEY), self._get_user_id())
        return {credential: allowed for credential in credentials if credential is not None}


def _stored_project(stack: Any) -> str | None:
    if stack.id is None:
        return None
    row = stacks.get_stack(stack.database, _ADMIN, stack.id)
    return None if row is None else row.stack_user_project_id


class _Admin:
    is_admin = True
    project_id = None


_ADMIN = _Admin()


def generate_openstack_password() -> str:
    """A random password Keystone accepts for a user (Heat's recipe: 32 characters)."""
    return password_generation.generate_password(
        32,
        [
            password_generation.named_character_class(password_generation.LOWERCASE, 1),
            password_generation.named_character_class(password_generation.UPPERCASE, 1),
            password_generation.named_character_class(password_generation.DIGITS, 1),
            password_generation.special_character_class("!@#%^&*", 1),
        ],
    )


class PasswordKeepingStackUser(StackUser):
    """A stack user whose password is kept (redacted) in resource_data, so that any
    later step can get a token as that user: signal handles and server transports."""

    @property
    def password(self) -> str | None:
        return self.data().get(PASSWORD)

    @password.setter
    def password(self, password: str | None) -> None:
        if password is None:
            self.data_delete(PASSWORD)
        else:
            self.data_set(PASSWORD, password, redact=True)
