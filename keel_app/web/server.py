"""Serving the WSGI apps on a socket with waitress, a production server on threads
(heat-api runs on threads too, since Heat 27 dropped eventlet)."""

from __future__ import annotations

import errno
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


class CannotListen(Exception):
    """A port to serve on could not be had; the message names it and the flag to change it."""

    def __init__(self, host: str, port: int, flag: str, reason: OSError) -> None:
        if reason.errno == errno.EADDRINUSE:
            message = f"port {port} on {host} is in use (choose another with {flag})"
        else:
            message = f"cannot listen on port {port} of {host}: {reason.strerror or reason}"
        super().__init__(message)


def listen(host: str, port: int, flag: str) -> socket.socket:
    """A socket bound to ``host``:``port`` (port 0: any free one), taken before anything
    else starts so that a busy port stops the command with nothing done; ``flag`` is the
    option that chooses this port, for the error."""
    try:
        family, kind, protocol, _, address = socket.getaddrinfo(
            host, port, socket.AF_UNSPEC, socket.SOCK_STREAM, 0, socket.AI_PASSIVE
        )[0]
        listener = socket.socket(family, kind, protocol)
    except OSError as error:
        raise CannotListen(host, port, flag, error) from error
    # As waitress does: a restarted server takes its port back despite TIME_WAIT.
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind(address)
    except OSError as error:
        listener.close()
        raise CannotListen(host, port, flag, error) from error
    return listener


def make_server(
    application: Any, listener: socket.socket, threads: int = DEFAULT_THREADS
) -> BaseWSGIServer | MultiSocketServer:
    """A server on a socket from ``listen``; ``run()`` serves it."""
    return waitress.create_server(
        application,
        sockets=[listener],
        threads=threads,
        # The URLs the APIs put in Location headers and links come from the request's Host.
        url_scheme="http",
        ident="openkeel",
    )


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
