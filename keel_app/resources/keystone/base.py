"""What Heat's Keystone resource types share: an identity v3 entity made with the
caller's token, read back for ``show`` and the attributes, and deleted with a Keystone
that no longer has it taken as deleted.

A type names its API collection (``entity``: ``projects``, ``users``...). Its physical
id is Keystone's id of what it made; names left unset default to the physical resource
name, as Heat's do.
"""

from __future__ import annotations

from typing import Any

from keel_app.engine.environment.support import SupportStatus
from keel_app.engine.resource import Resource


def keystone_v3_status(version: str) -> SupportStatus:
    return SupportStatus(version=version, message="Supported versions: keystone v3")


class KeystoneResource(Resource):
    """An identity entity of the collection ``entity``."""

    default_client_name = "keystone"

    def keystone(self) -> Any:
        """The Keystone client plugin (``create``/``show``/``update``/``delete``...)."""
        return self.client_plugin()

    def resolving_plugin(self) -> Any:
        """The plugin translation rules resolve names with; None without clients, where
        no rule resolves anything (the type is unavailable there anyway)."""
        clients = getattr(self.context, "clients", None)
        return None if clients is None else clients.client_plugin(self.default_client_name)

    def name_or_default(self, name: str | None) -> str | None:
        """The name to give Keystone: the template's, else the physical resource name."""
        return name or self.physical_resource_name()

    # Reading it back

    def _show_resource(self) -> Any:
        if self.entity is None:
            return None
        return self.keystone().show(self.entity, self.resource_id)

    def _resolve_attribute(self, name: str) -> Any:
        if self.resource_id is None or self.entity is None:
            return None
        return self._show_resource().get(name)

    # Deleting

    def handle_delete(self) -> Any:
        if self.entity is None or self.resource_id is None:
            return None
        with self.keystone().ignore_not_found():
            self.keystone().delete(self.entity, self.resource_id)
            return self.resource_id
        return None
