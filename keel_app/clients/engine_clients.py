"""``context.clients``: the clients a resource reaches other services with.

Heat's contexts carry an ``OpenStackClients`` that resources ask for a client
(``client("keystone")``) or a client plugin (``client_plugin("heat")``). OpenKeel's
engine attaches one to a stack's context when the deployment uses Keystone and
configures the stack-user domain (``attach``); the embedded default attaches nothing,
and resources then behave as without any cloud. Only the clients that exist are
offered: any other name is ``ClientNotAvailable``, as before there were clients.
"""

from __future__ import annotations

from typing import Any

from keel_app.clients.heat_endpoints import HeatClientPlugin, HeatEndpointSettings
from keel_app.clients.keystone import KeystoneSettings, user_session
from keel_app.clients.stack_domain_users import StackDomainClient, StackDomainSettings
from keel_app.clients.swift_files import SwiftClientPlugin, SwiftSettings
from keel_app.common.exception import ClientNotAvailable


class OpenStackClients:
    """The clients of one context: Keystone's stack domain, Heat's own URLs, and Swift
    for a template's ``files_container``."""

    def __init__(
        self,
        context: Any,
        keystone: KeystoneSettings,
        stack_domain: StackDomainSettings,
        heat: HeatEndpointSettings,
        swift: SwiftSettings | None = None,
        max_json_body_size: int = 1048576,
    ) -> None:
        self.context = context
        self.keystone = keystone
        self.stack_domain = stack_domain
        self.heat = heat
        self.swift = swift or SwiftSettings()
        self.max_json_body_size = max_json_body_size
        self._made: dict[str, Any] = {}

    def client(self, name: str) -> Any:
        if name != "keystone":
            raise ClientNotAvailable(client_name=name)
        if "keystone" not in self._made:
            self._made["keystone"] = StackDomainClient(
                self.keystone,
                self.stack_domain,
                auth_url=getattr(self.context, "auth_url", None),
                project_id=getattr(self.context, "project_id", None),
            )
        return self._made["keystone"]

    def client_plugin(self, name: str) -> Any:
        if name not in ("heat", "swift"):
            raise ClientNotAvailable(client_name=name)
        if "heat" not in self._made:
            self._made["heat"] = HeatClientPlugin(self.context, self.heat, self.keystone)
        if name == "swift" and "swift" not in self._made:
            # Swift's endpoint is looked up in the same catalog as Heat's own.
            self._made["swift"] = SwiftClientPlugin(
                user_session(self.keystone, self.context),
                self.swift,
                self._made["heat"].url_for,
                self.max_json_body_size,
            )
        return self._made[name]


def attach(context: Any, settings: Any) -> None:
    """Give ``context`` its clients when the settings say how to reach Keystone."""
    keystone = getattr(settings, "keystone", None)
    stack_domain = getattr(settings, "stack_domain", None)
    if keystone is None or stack_domain is None or context is None:
        return
    if getattr(context, "clients", None) is not None:
        return
    clients = OpenStackClients(
        context,
        keystone,
        stack_domain,
        settings.heat_endpoints,
        getattr(settings, "swift", None),
        getattr(settings, "max_json_body_size", 1048576),
    )
    try:
        context.clients = clients
    except AttributeError:
        # A context that takes no attributes (a fixed admin scope) acts for no caller.
        pass
