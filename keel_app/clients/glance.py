"""Glance's client plugin: the image v2 API through openstacksdk's ``image`` proxy."""

from __future__ import annotations

from keel_app.clients.client_plugin import ClientPlugin


class GlanceClientPlugin(ClientPlugin):
    name = "glance"
    service_types = ("image",)
    proxy = "image"
