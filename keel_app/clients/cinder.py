"""Cinder's client plugin: the block storage v3 API through openstacksdk's
``block_storage`` proxy."""

from __future__ import annotations

from keel_app.clients.client_plugin import ClientPlugin


class CinderClientPlugin(ClientPlugin):
    name = "cinder"
    service_types = ("volumev3", "block-storage")
    proxy = "block_storage"
