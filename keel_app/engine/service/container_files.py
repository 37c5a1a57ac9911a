"""``files_container``: the files of a create, update, preview or validate read from Swift.

As in Heat, the container's objects are the files, and a file the caller also sent in
``files`` wins (it is not even downloaded). Swift is reached through the context's
clients, which exist only in a deployment with Keystone; without them (the embedded
default) the container cannot be read and the call fails with the ``NotFound`` a
failed read gets, where Heat answers a server error.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from keel_app.clients import engine_clients
from keel_app.common.exception import ClientNotAvailable, NotFound
from keel_app.engine.settings import EngineSettings


def with_container_files(
    context: Any,
    settings: EngineSettings,
    files_container: str | None,
    files: Mapping[str, Any] | None,
) -> dict[str, Any] | None:
    """``files`` with the container's objects added beneath them."""
    if not files_container:
        return None if files is None else dict(files)
    engine_clients.attach(context, settings)
    clients = getattr(context, "clients", None)
    if clients is None:
        reason = str(ClientNotAvailable(client_name="swift")).rstrip(".")
        raise NotFound(f"Could not fetch files from container {files_container}, reason: {reason}.")
    given = dict(files or {})
    fetched = clients.client_plugin("swift").get_files_from_container(files_container, list(given))
    return {**fetched, **given}
