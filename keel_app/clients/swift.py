"""Swift's client plugin: the object store through openstacksdk's ``object_store`` proxy,
and a template's ``files_container`` read with the caller's token."""

from __future__ import annotations

from collections.abc import Iterable

from keel_app.clients import swift_files
from keel_app.clients.client_plugin import ClientPlugin


class SwiftClientPlugin(ClientPlugin):
    name = "swift"
    service_types = ("object-store",)
    proxy = "object_store"

    def get_files_from_container(
        self, container: str, files_to_skip: Iterable[str] = ()
    ) -> dict[str, str]:
        return swift_files.get_files_from_container(
            self.session,
            lambda: self.url_for(swift_files.OBJECT_STORE),
            container,
            files_to_skip,
            self.clients.max_json_body_size,
        )
