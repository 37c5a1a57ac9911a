"""A template's files from a Swift container (``files_container``), as Heat reads them.

The container is listed (one page, JSON) and each object not already among the files the
caller sent is downloaded, with the caller's own token, from the ``object-store``
endpoint of the caller's catalog (``[clients_swift] endpoint_type``). A container whose
``X-Container-Bytes-Used`` exceeds ``max_json_body_size`` is refused before anything is
downloaded. A failed request is reported with python-swiftclient's wording, inside
Heat's ``NotFound`` message (so is a catalog without Swift or an unreachable Swift,
where Heat lets keystoneauth's error through as a server error).
"""

from __future__ import annotations

import urllib.parse
from collections.abc import Callable, Iterable
from typing import Any

from keystoneauth1 import exceptions as keystone_errors
from keystoneauth1 import session as ks_session

from keel_app.common import exception

OBJECT_STORE = "object-store"
TRANSACTION_HEADERS = ("X-Trans-Id", "X-Openstack-Request-Id")
SHOWN_BODY = 60


class SwiftRequestFailed(Exception):
    """A Swift request answered outside 2xx, described as python-swiftclient does."""


def failure_text(what: str, response: Any) -> str:
    parsed = urllib.parse.urlparse(response.request.url if response.request else response.url)
    where = f"{parsed.scheme}://{parsed.hostname}"
    if parsed.port:
        where += f":{parsed.port}"
    where += parsed.path
    if parsed.query:
        where += f"?{parsed.query}"
    where += f" {response.status_code} {response.reason}"
    body = response.content or b""
    if body:
        shown = body if len(body) <= SHOWN_BODY else body[:SHOWN_BODY]
        gap = "   " if len(body) <= SHOWN_BODY else "  [first 60 chars of response] "
        where += f"{gap}{shown}"
    transaction = next(
        (response.headers[name] for name in TRANSACTION_HEADERS if name in response.headers),
        None,
    )
    return f"{what}: {where}" + (f" (txn: {transaction})" if transaction else "")


def _get(session: ks_session.Session, what: str, url: str) -> Any:
    response = session.get(url, raise_exc=False, headers={"Accept-Encoding": "gzip"})
    if not 200 <= response.status_code < 300:
        raise SwiftRequestFailed(failure_text(what, response))
    return response


def get_files_from_container(
    session: ks_session.Session,
    object_store_url: Callable[[], str],
    container: str,
    files_to_skip: Iterable[str],
    max_bytes: int,
) -> dict[str, str]:
    """The container's objects, but those in ``files_to_skip``, by name, as text."""
    skipped = set(files_to_skip)
    try:
        container_url = f"{object_store_url().rstrip('/')}/{urllib.parse.quote(container)}"
        listing = _get(session, "Container GET failed", f"{container_url}?format=json")
        used = int(listing.headers.get("X-Container-Bytes-Used", 0))
        if used > max_bytes:
            raise exception.DownloadLimitExceeded(
                message=(
                    f"Total size of files to download ({used} bytes) exceeds maximum "
                    f"allowed ({max_bytes} bytes)."
                )
            )
        objects = [] if listing.status_code == 204 else listing.json()
        files = {}
        for item in objects:
            name = item["name"]
            if name in skipped:
                continue
            answer = _get(
                session, "Object GET failed", f"{container_url}/{urllib.parse.quote(name)}"
            )
            files[name] = answer.content.decode("utf-8")
        return files
    except (SwiftRequestFailed, keystone_errors.ClientException) as failed:
        # No object-store in the catalog, or Swift unreachable, is reported the same
        # way rather than as a server error.
        raise exception.NotFound(
            f"Could not fetch files from container {container}, reason: {failed}."
        ) from failed
