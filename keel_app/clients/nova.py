"""Nova's client plugin: the compute API through openstacksdk's ``compute`` proxy."""

from __future__ import annotations

from keel_app.clients.client_plugin import ClientPlugin


class NovaClientPlugin(ClientPlugin):
    name = "nova"
    service_types = ("compute",)
    proxy = "compute"
