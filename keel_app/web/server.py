"""Serving the WSGI apps on a socket with waitress, a production server on threads
(heat-api runs on threads too, since Heat 27 dropped eventlet)."""

from __future__ import annotations

import logging
import signal
import socket
import threading
from types import FrameType
from typing import Any

import waitress
from waitress.server import BaseWSGIServer, MultiSocketServer

LOG = logging.getLogger(__name__)

DEFAULT_THREADS = 8


def make_server(
    application: Any, host: str, port: int, threads: int = DEFAULT_THREADS
) -> BaseWSGIServer | MultiSocketServer:
    """A server bound to ``host``:``port`` (port 0: any free one); ``run()`` serves it."""
    return waitress.create_server(
        application,
        host=host,
        port=port,
        threads=threads,
        # The URLs the APIs put in Location headers and links come from the request's Host.
        url_scheme="http",
        ident="openkeel",
    )


def bound_port(server: BaseWSGIServer | MultiSocketServer) -> int:
    """The port the server listens on (the one picked for port 0)."""
    # waitress keeps the port as it was given, a string when read from a config.
    return int(server.effective_port)  # type: ignore[union-attr]


def _stop_on_signal(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def serve_until_stopped(
    main: BaseWSGIServer | MultiSocketServer, *others: BaseWSGIServer | MultiSocketServer
) -> None:
    """Serve ``main`` in this thread and ``others`` on threads of their own, until SIGTERM
    or SIGINT; then close them all."""
    for number, server in enumerate(others):
        threading.Thread(target=server.run, name=f"wsgi-{number}", daemon=True).start()
    signal.signal(signal.SIGTERM, _stop_on_signal)
    try:
        main.run()
    except KeyboardInterrupt:
        LOG.info("stopping")
    finally:
        for server in (*others, main):
            server.close()


def free_port(host: str) -> int:
    """A port nobody listens on at ``host`` now (for a server asked to take any)."""
    with socket.socket() as probe:
        probe.bind((host, 0))
        return int(probe.getsockname()[1])
