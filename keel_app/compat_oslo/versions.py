"""Which requests a server accepts, decided as oslo.messaging's RPC dispatcher decides.

A server implements one version per topic; a request is served when its major
version is the same and its minor (then revision) is not above the server's, and its
namespace is the server's (None for all of Heat's). Otherwise the reply is an
``UnsupportedVersion`` failure; a served version naming no method gets
``NoSuchMethod``. Both travel as oslo's own classes, so an oslo client re-raises
them as RemoteError with oslo's text.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from keel_app.compat_oslo.envelope import Call

# Heat 27.0.1's servers: EngineService, WorkerService, EngineListener.
SERVER_VERSIONS: dict[str, str] = {
    "engine": "1.36",
    "engine_worker": "1.9",
    "heat-engine-listener": "1.0",
}

# The version a request means when it carries none.
DEFAULT_VERSION = "1.0"

DISPATCHER_MODULE = "oslo_messaging.rpc.dispatcher"


class UnsupportedVersion(Exception):
    remote_module = DISPATCHER_MODULE

    def __init__(self, version: str, method: str | None = None) -> None:
        message = f"Endpoint does not support RPC version {version}"
        if method:
            message = f"{message}. Attempted method: {method}"
        super().__init__(message)
        self.version = version
        self.method = method


class NoSuchMethod(AttributeError):
    remote_module = DISPATCHER_MODULE

    def __init__(self, method: str) -> None:
        super().__init__(f"Endpoint does not support RPC method {method}")
        self.method = method


def _parts(version: str) -> tuple[int, int, int]:
    pieces = version.split(".")
    revision = pieces[2] if len(pieces) > 2 else 0
    return int(pieces[0]), int(pieces[1]), int(revision)


def version_is_compatible(implemented: str | None, requested: str | None) -> bool:
    """oslo's rule: same major, minor not above; on an equal minor, revision not above."""
    if implemented is None:
        return True
    if requested is None:
        return False
    major, minor, revision = _parts(requested)
    served_major, served_minor, served_revision = _parts(implemented)
    if major != served_major or minor > served_minor:
        return False
    return not (minor == served_minor and revision > served_revision)


def check_dispatch(topic: str, call: Call, methods: Collection[str] | None = None) -> None:
    """Raise what an oslo server of ``topic`` would answer if it cannot serve ``call``.

    ``methods`` are the names the server exposes; None skips that check (for a caller
    that resolves the method itself).
    """
    version = call.version if call.version is not None else DEFAULT_VERSION
    if call.namespace is not None or not version_is_compatible(SERVER_VERSIONS[topic], version):
        raise UnsupportedVersion(version, method=call.method)
    # oslo's default access policy hides names starting with "_".
    if methods is not None and (call.method.startswith("_") or call.method not in methods):
        raise NoSuchMethod(call.method)
