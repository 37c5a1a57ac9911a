"""The request context: who is calling, with which credentials, for which request.

Its dictionary form is Heat's (oslo.context's keys plus Heat's own), because that is
what travels in every RPC message between Heat processes and ours. Keystone sessions
and policy enforcement are built on top of this elsewhere; this is plain data.
"""

from __future__ import annotations

import copy
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

ENVELOPE_CONTEXT_PREFIX = "_context_"

# Fields holding something that authenticates as the user: never in our own messages
# or logs in clear text.
CREDENTIAL_FIELDS = ("auth_token", "auth_token_info", "password", "aws_creds")

# Heat's default "context_is_admin" rule: the admin role in the admin project.
ADMIN_ROLE = "admin"

# Older Heat releases sent these names; Heat still prefers them when present.
LEGACY_KEYS = {
    "project_id": "tenant_id",
    "project_name": "tenant",
    "user_id": "user_id",
    "user_domain_id": "user_domain_id",
    "project_domain_id": "project_domain_id",
}

# Dictionary key -> field, for keys whose name differs from the field they fill.
RENAMED_KEYS = {
    "user_id": "user",
    "domain_id": "domain",
    "user_domain_id": "user_domain",
    "project_domain_id": "project_domain",
}

# Fields read from a dictionary under their own name, with oslo.context's defaults.
PLAIN_KEYS: dict[str, Any] = {
    "auth_token": None,
    "project_id": None,
    "is_admin": False,
    "read_only": False,
    "show_deleted": False,
    "request_id": None,
    "global_request_id": None,
    "resource_uuid": None,
    "roles": None,
    "user_name": None,
    "project_name": None,
    "domain_name": None,
    "user_domain_name": None,
    "project_domain_name": None,
    "is_admin_project": True,
    "system_scope": None,
    "username": None,
    "password": None,
    "aws_creds": None,
    "trust_id": None,
    "trustor_user_id": None,
    "auth_token_info": None,
    "auth_url": None,
    "region_name": None,
}


def generate_request_id() -> str:
    return f"req-{uuid.uuid4()}"


@dataclass(kw_only=True)
class RequestContext:
    auth_token: str | None = None
    auth_token_info: dict[str, Any] | None = None
    user_id: str | None = None
    user_name: str | None = None
    username: str | None = None
    password: str | None = None
    aws_creds: str | None = None
    project_id: str | None = None
    project_name: str | None = None
    domain_id: str | None = None
    domain_name: str | None = None
    user_domain_id: str | None = None
    user_domain_name: str | None = None
    project_domain_id: str | None = None
    project_domain_name: str | None = None
    system_scope: str | None = None
    trust_id: str | None = None
    trustor_user_id: str | None = None
    auth_url: str | None = None
    region_name: str | None = None
    roles: list[str] = field(default_factory=list)
    # None means "decide from the roles", as Heat does through its policy.
    is_admin: bool | None = None
    is_admin_project: bool = True
    read_only: bool = False
    show_deleted: bool = False
    request_id: str | None = None
    global_request_id: str | None = None
    resource_uuid: str | None = None

    def __post_init__(self) -> None:
        self.roles = list(self.roles or [])
        # Contexts built from keystonemiddleware's headers only know the user's name
        # under oslo's field; Heat exposes it as "username" too.
        if self.username is None and self.password is None:
            self.username = self.user_name
        if not self.request_id:
            self.request_id = generate_request_id()
        if self.is_admin is None:
            self.is_admin = self.has_admin_role()

    def has_admin_role(self) -> bool:
        """Heat's default ``context_is_admin`` rule (role names compare case-blind)."""
        roles = {role.lower() for role in self.roles}
        return ADMIN_ROLE in roles and self.is_admin_project is True

    @property
    def tenant_id(self) -> str | None:
        return self.project_id

    @property
    def tenant(self) -> str | None:
        return self.project_name

    @property
    def user_identity(self) -> str:
        parts = (
            self.user_id,
            self.project_id,
            self.domain_id,
            self.user_domain_id,
            self.project_domain_id,
        )
        return " ".join(part or "-" for part in parts)

    @property
    def global_id(self) -> str:
        """The id to pass on to other services: the caller's, else this request's."""
        return self.global_request_id or self.request_id or ""

    def to_dict(self) -> dict[str, Any]:
        """Heat's dictionary form, as sent in RPC messages (credentials included)."""
        return {
            "user": self.user_id,
            "project_id": self.project_id,
            "system_scope": self.system_scope,
            "project": self.project_id,
            "domain": self.domain_id,
            "user_domain": self.user_domain_id,
            "project_domain": self.project_domain_id,
            "is_admin": self.is_admin,
            "read_only": self.read_only,
            "show_deleted": self.show_deleted,
            "auth_token": self.auth_token,
            "request_id": self.request_id,
            "global_request_id": self.global_request_id,
            "resource_uuid": self.resource_uuid,
            "roles": self.roles,
            "user_identity": self.user_identity,
            "is_admin_project": self.is_admin_project,
            "username": self.username,
            "password": self.password,
            "aws_creds": self.aws_creds,
            "trust_id": self.trust_id,
            "trustor_user_id": self.trustor_user_id,
            "auth_token_info": self.auth_token_info,
            "auth_url": self.auth_url,
            "region_name": self.region_name,
            "project_name": self.project_name,
        }

    @classmethod
    def from_dict(cls, values: Mapping[str, Any], **overrides: Any) -> RequestContext:
        """A context from Heat's dictionary form (current or legacy keys); keywords win."""
        arguments = dict(overrides)
        for field_name, legacy_key in LEGACY_KEYS.items():
            if legacy_key in values:
                arguments.setdefault(field_name, values[legacy_key])
        for field_name, key in RENAMED_KEYS.items():
            arguments.setdefault(field_name, values.get(key))
        for key, default in PLAIN_KEYS.items():
            arguments.setdefault(key, values.get(key, default))
        return cls(**arguments)

    def redacted(self) -> RequestContext:
        """A copy without the clear-text credentials, for our own messages and logs."""
        # A shallow copy rather than a new construction, which would re-derive
        # username and is_admin from the remaining fields.
        clean = copy.copy(self)
        clean.roles = list(self.roles)
        for name in CREDENTIAL_FIELDS:
            setattr(clean, name, None)
        return clean


def from_envelope_context(message: Mapping[str, Any]) -> RequestContext:
    """The context of an oslo.messaging message, sent as ``_context_<key>`` entries."""
    values = {
        key[len(ENVELOPE_CONTEXT_PREFIX) :]: value
        for key, value in message.items()
        if key.startswith(ENVELOPE_CONTEXT_PREFIX)
    }
    return RequestContext.from_dict(values)


def admin_context(show_deleted: bool = False) -> RequestContext:
    """A context with admin rights and no user, for the engine's own housekeeping."""
    return RequestContext(is_admin=True, show_deleted=show_deleted)
