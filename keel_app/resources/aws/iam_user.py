"""AWS::IAM::User and AWS::IAM::AccessKey: a stack-domain user and its EC2 keypair.

A User is a user of the stack-user domain (``StackUser``) whose password is the
LoginProfile's; its reference is its physical name, which is also the user's name in
Keystone. Its Policies name OS::Heat::AccessPolicy resources of the stack: the user may
describe a resource only when every one of them allows it (``access_allowed``). Path and
Groups are accepted and ignored, and a policy given as a map (an IAM policy document) is
ignored, as in Heat.

An AccessKey names its User by reference (``UserName``); the keypair it makes is the
User's (kept in the User's resource_data, deleted with it), and the key's reference is
the keypair's access key. The secret is kept (redacted) in the key's resource_data too.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from keel_app.common import exception
from keel_app.engine import constraints
from keel_app.engine.properties import Schema
from keel_app.engine.resource import AttributeSchema, Resource
from keel_app.engine.resource.siblings import resource_by_refid
from keel_app.resources.heat.stack_user import CREDENTIAL_ID, SECRET_KEY, StackUser

LOG = logging.getLogger(__name__)

# What SecretAccessKey reads before the key exists (Heat's placeholder).
NO_SECRET = "000-000-000"


class User(StackUser):
    """A user of the stack-user domain, limited by the stack's access policies."""

    PROPERTIES = (PATH, GROUPS, LOGIN_PROFILE, POLICIES) = (
        "Path",
        "Groups",
        "LoginProfile",
        "Policies",
    )
    LOGIN_PROFILE_KEYS = (LOGIN_PROFILE_PASSWORD,) = ("Password",)

    properties_schema = {
        PATH: Schema(Schema.STRING, "Not Implemented."),
        GROUPS: Schema(Schema.LIST, "Not Implemented."),
        LOGIN_PROFILE: Schema(
            Schema.MAP,
            "A login profile for the user.",
            schema={LOGIN_PROFILE_PASSWORD: Schema(Schema.STRING)},
        ),
        POLICIES: Schema(Schema.LIST, "Access policies to apply to the user."),
    }

    password: str | None = None

    def _named_policies(self) -> list[str]:
        """The policies named by resource name; maps (IAM documents) are not enforced."""
        named = []
        for policy in self.properties[self.POLICIES] or []:
            if isinstance(policy, str):
                named.append(policy)
            else:
                LOG.debug("Ignoring policy %s, must be string resource name", policy)
        return named

    def _policies_are_access_policies(self) -> bool:
        for name in self._named_policies():
            if name not in self.stack.resources:
                LOG.debug("Policy %s does not exist in stack %s", name, self.stack.name)
                return False
            if not callable(getattr(self.stack.resources[name], "access_allowed", None)):
                LOG.debug("Policy %s is not an AccessPolicy resource", name)
                return False
        return True

    def handle_create(self) -> Any:
        profile = self.properties[self.LOGIN_PROFILE]
        if profile and self.LOGIN_PROFILE_PASSWORD in profile:
            self.password = profile[self.LOGIN_PROFILE_PASSWORD]
        # Heat checks the policies only now, not at validation.
        if self.properties[self.POLICIES] and not self._policies_are_access_policies():
            raise exception.InvalidTemplateAttribute(resource=self.name, key=self.POLICIES)
        super().handle_create()
        self.resource_id_set(self._get_user_id())
        return None

    def get_reference_id(self) -> str:
        return self.physical_resource_name() or super().get_reference_id()

    def access_allowed(self, resource_name: str) -> bool:
        """Whether every policy of the user lets it describe ``resource_name``."""
        return all(
            self.stack.resources[name].access_allowed(resource_name)
            for name in self._named_policies()
        )


class AccessKey(Resource):
    """An EC2 keypair of an AWS::IAM::User, for signing requests as that user."""

    PROPERTIES = (SERIAL, USER_NAME, STATUS) = ("Serial", "UserName", "Status")
    ATTRIBUTES = (USER_NAME_ATTRIBUTE, SECRET_ACCESS_KEY) = ("UserName", "SecretAccessKey")

    properties_schema = {
        SERIAL: Schema(Schema.INTEGER, "Not Implemented.", implemented=False),
        USER_NAME: Schema(
            Schema.STRING, "The name of the user that the new key will belong to.", required=True
        ),
        STATUS: Schema(
            Schema.STRING,
            "Not Implemented.",
            constraints=[constraints.AllowedValues(["Active", "Inactive"])],
            implemented=False,
        ),
    }

    attributes_schema = {
        USER_NAME_ATTRIBUTE: AttributeSchema(
            "Username associated with the AccessKey.",
            cache_mode=AttributeSchema.CACHE_NONE,
            type=AttributeSchema.STRING,
        ),
        SECRET_ACCESS_KEY: AttributeSchema(
            "Keypair secret key.",
            cache_mode=AttributeSchema.CACHE_NONE,
            type=AttributeSchema.STRING,
        ),
    }

    def _get_user(self) -> Any:
        """The User resource that UserName refers to (its reference is the user's name),
        or None."""
        return resource_by_refid(self.stack, self.properties[self.USER_NAME])

    def handle_create(self) -> Any:
        user = self._get_user()
        if user is None:
            raise exception.NotFound(f"could not find user {self.properties[self.USER_NAME]}")
        # The keypair belongs to the user. A user that has one already gives none (as in
        # Heat, whose create then fails reading the access key of nothing).
        keypair = user._create_keypair()
        self.resource_id_set(keypair.access)
        self.data_set(SECRET_KEY, keypair.secret, redact=True)
        self.data_set(CREDENTIAL_ID, keypair.id, redact=True)
        return None

    def handle_delete(self) -> Any:
        if self.resource_id is None:
            return None
        user = self._get_user()
        if user is None:
            LOG.debug("Error deleting %s - user not found", self)
            return None
        user._delete_keypair()
        return None

    def _secret_access_key(self) -> str:
        secret = None
        if self.resource_id is None:
            LOG.info(
                "could not get secret for %s Error:resource_id not yet set",
                self.properties[self.USER_NAME],
            )
        else:
            secret = self.data().get(SECRET_KEY)
        return secret or NO_SECRET

    def _resolve_attribute(self, name: str) -> Any:
        if name == self.USER_NAME_ATTRIBUTE:
            return self.properties[self.USER_NAME]
        if name == self.SECRET_ACCESS_KEY:
            return self._secret_access_key()
        return None

    def access_allowed_handlers(self) -> dict[str, Callable[[str], bool]]:
        """The credential (this access key) whose requests the key's user's policies
        limit, and the check."""
        if self.resource_id is None:
            return {}

        def allowed(resource_name: str) -> bool:
            user = self._get_user()
            return user is not None and bool(user.access_allowed(resource_name))

        return {str(self.resource_id): allowed}


RESOURCE_CLASSES = {"AWS::IAM::User": User, "AWS::IAM::AccessKey": AccessKey}
