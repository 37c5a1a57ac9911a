"""``context.clients``: the clients a resource reaches other services with.

Heat's contexts carry an ``OpenStackClients`` that resources ask for a client
(``client("nova")``) or a client plugin (``client_plugin("neutron")``). OpenKeel's
engine attaches one to a stack's context when the deployment uses Keystone and
configures the stack-user domain (``attach``); the embedded default attaches nothing,
and resources then behave as without any cloud. The plugins are the
``openkeel.clients`` entry points, by Heat's names; any other name is
``ClientNotAvailable``. ``client("keystone")`` is Heat's Keystone client: the
stack-user domain's operations.
"""

from __future__ import annotations

from functools import cache
from importlib import metadata
from typing import Any

from keel_app.clients.heat_endpoints import HeatClientPlugin
from keel_app.clients.keystone import context_auth
from keel_app.clients.service_settings import ClientsSettings
from keel_app.clients.stack_domain_users import StackDomainClient
from keel_app.common.exception import ClientNotAvailable

ENTRY_POINT_GROUP = "openkeel.clients"


@cache
def plugin_classes() -> dict[str, Any]:
    """The client plugin classes by name."""
    return {
        entry_point.name: entry_point.load()
        for entry_point in metadata.entry_points(group=ENTRY_POINT_GROUP)
    }


class OpenStackClients:
    """The clients of one context."""

    def __init__(self, context: Any, settings: Any) -> None:
        self.context = context
        self.keystone = settings.keystone
        self.stack_domain = settings.stack_domain
        self.heat = settings.heat_endpoints
        self.clients_settings: ClientsSettings = getattr(settings, "clients", ClientsSettings())
        self.max_json_body_size: int = getattr(settings, "max_json_body_size", 1048576)
        self.lookup_caches = self.clients_settings.caches
        self._plugins: dict[str, Any] = {}
        self._stack_domain_client: StackDomainClient | None = None
        self._auth: Any = None

    def auth_plugin(self) -> Any:
        """The context's authentication, shared by every service's session."""
        if self._auth is None:
            self._auth = context_auth(self.keystone, self.context)
        return self._auth

    def client(self, name: str) -> Any:
        if name == "keystone":
            if self._stack_domain_client is None:
                self._stack_domain_client = StackDomainClient(
                    self.keystone,
                    self.stack_domain,
                    auth_url=getattr(self.context, "auth_url", None),
                    project_id=getattr(self.context, "project_id", None),
                )
            return self._stack_domain_client
        return self.client_plugin(name).client()

    def client_plugin(self, name: str) -> Any:
        if name not in self._plugins:
            if name == "heat":
                self._plugins[name] = HeatClientPlugin(self.context, self.heat, self.keystone)
            else:
                plugin_class = plugin_classes().get(name)
                if plugin_class is None:
                    raise ClientNotAvailable(client_name=name)
                plugin = plugin_class(self)
                # A service missing from the caller's catalog has no client to offer
                # (Heat's plugin fails later, on keystoneauth's EndpointNotFound).
                if not plugin.service_in_catalog():
                    raise ClientNotAvailable(client_name=name)
                self._plugins[name] = plugin
        return self._plugins[name]


def attach(context: Any, settings: Any) -> None:
    """Give ``context`` its clients when the settings say how to reach Keystone."""
    if getattr(settings, "keystone", None) is None or context is None:
        return
    if getattr(settings, "stack_domain", None) is None:
        return
    if getattr(context, "clients", None) is not None:
        return
    try:
        context.clients = OpenStackClients(context, settings)
    except AttributeError:
        # A context that takes no attributes (a fixed admin scope) acts for no caller.
        pass
