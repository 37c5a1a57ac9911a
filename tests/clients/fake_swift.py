"""A Swift server for the tests, speaking the part of Swift's object API Heat reads.

``GET /v1/AUTH_<project>/<container>?format=json`` lists a container (with its
``X-Container-Bytes-Used``) and ``GET /v1/AUTH_<project>/<container>/<object>`` returns
an object, for requests with a token the test accepted; otherwise Swift's 401 or 404.
Every request is recorded, so a test can tell which objects were downloaded.
"""

from __future__ import annotations

import json
import threading
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

NOT_FOUND_BODY = b"<html><h1>Not Found</h1><p>The resource could not be found.</p></html>"
UNAUTHORIZED_BODY = b"<html><h1>Unauthorized</h1><p>This server could not verify that you are authorized to access the document you requested.</p></html>"  # noqa: E501
TRANSACTION_ID = "tx0123456789abcdef01234-0063a1b2c3"


@dataclass
class SwiftState:
    # (account, container) -> {object name: content}
    containers: dict[tuple[str, str], dict[str, bytes]] = field(default_factory=dict)
    # Bytes a container claims to hold, when a test wants it to claim more than it has.
    claimed_bytes: dict[tuple[str, str], int] = field(default_factory=dict)
    tokens: set[str] = field(default_factory=set)
    requests: list[str] = field(default_factory=list)


def _handler(state: SwiftState) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            pass

        def _answer(self, status: int, body: bytes, headers: dict[str, str]) -> None:
            self.send_response(status)
            for name, value in {**headers, "X-Trans-Id": TRANSACTION_ID}.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self) -> None:  # noqa: N802
            state.requests.append(self.path)
            path = urllib.parse.urlparse(self.path).path
            parts = [urllib.parse.unquote(part) for part in path.split("/")[2:]]
            if self.headers.get("X-Auth-Token") not in state.tokens:
                self._answer(401, UNAUTHORIZED_BODY, {"Content-Type": "text/html"})
                return
            account, container, *rest = parts + [""] * (2 - len(parts))
            objects = state.containers.get((account, container))
            if objects is None:
                self._answer(404, NOT_FOUND_BODY, {"Content-Type": "text/html"})
                return
            if not rest:
                listing = [
                    {"name": name, "bytes": len(content), "content_type": "application/x-yaml"}
                    for name, content in sorted(objects.items())
                ]
                used = state.claimed_bytes.get(
                    (account, container), sum(len(content) for content in objects.values())
                )
                self._answer(
                    200,
                    json.dumps(listing).encode(),
                    {
                        "Content-Type": "application/json; charset=utf-8",
                        "X-Container-Bytes-Used": str(used),
                        "X-Container-Object-Count": str(len(objects)),
                    },
                )
                return
            name = "/".join(rest)
            if name not in objects:
                self._answer(404, NOT_FOUND_BODY, {"Content-Type": "text/html"})
                return
            self._answer(200, objects[name], {"Content-Type": "application/x-yaml"})

    return Handler


@contextmanager
def running() -> Iterator[tuple[str, SwiftState]]:
    """A Swift on a free loopback port: its ``http://host:port`` and its state."""
    state = SwiftState()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(state))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", state
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)
