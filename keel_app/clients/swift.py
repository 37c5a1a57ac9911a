"""Swift's client plugin: the object store in python-swiftclient's shapes and errors, and
a template's ``files_container`` read with the caller's token.

Calls go through openstacksdk's ``object_store`` proxy (its session and the account's
endpoint); headers come back as swiftclient returns them (a dict with lower-case names)
and failures as swiftclient's ``ClientException`` (``swift_errors``), so that they read
as they do in Heat.

Signals come through TempURLs (``get_temp_url``): an object's path signed with the
account's ``Temp-URL-Key`` (set to a random key on first use, as Heat does) by
swiftclient's recipe, HMAC-SHA256 of the method, the expiry and the path.
"""

from __future__ import annotations

import datetime
import email.utils
import hashlib
import hmac
import secrets
import time
from collections.abc import Iterable
from typing import Any
from urllib import parse

from keel_app.clients import swift_errors, swift_files
from keel_app.clients.client_plugin import ClientPlugin

# What a signal object holds before anything signals it (Heat's swift.IN_PROGRESS).
IN_PROGRESS = "in progress"
# The last second a TempURL may expire at (a 32-bit time), as in Heat.
MAX_EPOCH = 2147483647
TEMP_URL_KEY_HEADER = "x-account-meta-temp-url-key"


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
        data: bytes | None = None,
    ) -> Any:
        response = self.client().request(
            "/" + parse.quote(path),
            method,
            headers=headers,
            params=params,
            data=data,
            raise_exc=False,
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

    def put_object(self, container: str, name: str, contents: str | bytes) -> None:
        data = contents.encode() if isinstance(contents, str) else contents
        self._call("Object", "PUT", f"{container}/{name}", data=data)

    def head_object(self, container: str, name: str) -> dict[str, str]:
        return self._headers(self._call("Object", "HEAD", f"{container}/{name}"))

    def get_object(self, container: str, name: str) -> tuple[dict[str, str], bytes]:
        """The object's headers and body (bytes, as swiftclient gives it)."""
        response = self._call("Object", "GET", f"{container}/{name}")
        return self._headers(response), bytes(response.content)

    # Signals

    def get_temp_url(
        self, container: str, name: str, timeout: int | None = None, method: str = "PUT"
    ) -> str:
        """A TempURL of the object for ``method``, valid ``timeout`` seconds (or until the
        latest time a TempURL may name)."""
        key = self.head_account().get(TEMP_URL_KEY_HEADER)
        if key is None:
            self.post_account({TEMP_URL_KEY_HEADER: secrets.token_hex(16)})
            key = self.head_account()[TEMP_URL_KEY_HEADER]
        path = f"/v1/AUTH_{self.context.project_id}/{container}/{name}"
        if timeout is None:
            timeout = int(MAX_EPOCH - 60 - time.time())
        expires = int(time.time() + timeout)
        body = f"{method.upper()}\n{expires}\n{path}"
        signature = hmac.new(key.encode(), body.encode(), hashlib.sha256).hexdigest()
        storage = parse.urlparse(self.url)
        return (
            f"{storage.scheme}://{storage.netloc}{path}"
            f"?temp_url_sig={signature}&temp_url_expires={expires}"
        )

    def is_valid_temp_url_path(self, path: str) -> bool:
        """Whether ``path`` is a TempURL's: /v1/<account of the project>/<container>/<object>,
        the object more than slashes."""
        parts = path.split("/", 4)
        return (
            len(parts) == 5
            and not parts[0]
            and parts[1] == "v1"
            and parts[2].endswith(str(self.context.project_id))
            and bool(parts[3])
            and bool(parts[4].strip("/"))
        )

    def get_signal_url(self, container: str, name: str, timeout: int | None = None) -> str:
        """A TempURL for several signals: the container keeps the object's versions."""
        self.put_container(container, headers={"x-versions-location": container})
        self.put_object(container, name, IN_PROGRESS)
        return self.get_temp_url(container, name, timeout)

    @staticmethod
    def parse_last_modified(last_modified: str | None) -> datetime.datetime | None:
        """An HTTP date (a Last-Modified header) as a naive UTC datetime."""
        if not last_modified:
            return None
        parsed = email.utils.parsedate(last_modified)
        if parsed is None:
            return None
        return datetime.datetime(*parsed[:6])

    # What an error means, for swiftclient's class

    def is_client_exception(self, error: BaseException) -> bool:
        return isinstance(error, swift_errors.ClientException)

    def is_not_found(self, error: BaseException) -> bool:  # type: ignore[override]
        return isinstance(error, swift_errors.ClientException) and error.http_status == 404

    def is_over_limit(self, error: BaseException) -> bool:  # type: ignore[override]
        return isinstance(error, swift_errors.ClientException) and error.http_status == 413

    def is_conflict(self, error: BaseException) -> bool:  # type: ignore[override]
        return isinstance(error, swift_errors.ClientException) and error.http_status == 409
