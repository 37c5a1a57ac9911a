"""Swift's client plugin: the object store in python-swiftclient's shapes and errors, and
a template's ``files_container`` read with the caller's token.

Calls go through openstacksdk's ``object_store`` proxy (its session and the account's
endpoint); headers come back as swiftclient returns them (a dict with lower-case names)
and failures as swiftclient's ``ClientException`` (``swift_errors``), so that they read
as they do in Heat.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any
from urllib import parse

from keel_app.clients import swift_errors, swift_files
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

    # Calls, as swiftclient's Connection makes them

    @property
    def url(self) -> str:
        """The account's storage URL."""
        return self.url_for(swift_files.OBJECT_STORE)

    def _call(
        self,
        kind: str,
        method: str,
        path: str,
        headers: dict[str, str] | None = None,
        params: dict[str, str] | None = None,
    ) -> Any:
        response = self.client().request(
            "/" + parse.quote(path), method, headers=headers, params=params, raise_exc=False
        )
        if response.status_code < 200 or response.status_code >= 300:
            raise swift_errors.ClientException.from_response(response, f"{kind} {method} failed")
        return response

    @staticmethod
    def _headers(response: Any) -> dict[str, str]:
        return {name.lower(): value for name, value in response.headers.items()}

    def head_account(self) -> dict[str, str]:
        return self._headers(self._call("Account", "HEAD", ""))

    def post_account(self, headers: dict[str, str]) -> None:
        self._call("Account", "POST", "", headers=headers)

    def put_container(self, container: str, headers: dict[str, str] | None = None) -> None:
        self._call("Container", "PUT", container, headers=headers)

    def head_container(self, container: str) -> dict[str, str]:
        return self._headers(self._call("Container", "HEAD", container))

    def get_container(self, container: str) -> tuple[dict[str, str], list[dict[str, Any]]]:
        """The container's headers and (the first page of) its objects."""
        response = self._call("Container", "GET", container, params={"format": "json"})
        objects = response.json() if response.status_code != 204 and response.content else []
        return self._headers(response), list(objects)

    def delete_container(self, container: str) -> None:
        self._call("Container", "DELETE", container)

    def delete_object(self, container: str, name: str) -> None:
        self._call("Object", "DELETE", f"{container}/{name}")

    # What an error means, for swiftclient's class

    def is_client_exception(self, error: BaseException) -> bool:
        return isinstance(error, swift_errors.ClientException)

    def is_not_found(self, error: BaseException) -> bool:  # type: ignore[override]
        return isinstance(error, swift_errors.ClientException) and error.http_status == 404

    def is_over_limit(self, error: BaseException) -> bool:  # type: ignore[override]
        return isinstance(error, swift_errors.ClientException) and error.http_status == 413

    def is_conflict(self, error: BaseException) -> bool:  # type: ignore[override]
        return isinstance(error, swift_errors.ClientException) and error.http_status == 409
