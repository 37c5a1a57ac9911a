"""A stand-in for Keystone's ``POST /v3/ec2tokens`` on a loopback port: it writes down
what it was asked and answers a token for one access key, 401 for any other. Both our
CFN API and Heat's (in the oracle) are pointed at it, so what each sends can be compared."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

ACCESS_KEY = "4a8d4f25a3b24e33b1d2c6f6e1a0c0de"
TOKEN_ID = "gAAAAB-ec2-token"
TOKEN_BODY: dict[str, Any] = {
    "token": {
        "methods": ["ec2credential"],
        "user": {"id": "alice-id", "name": "alice", "domain": {"id": "default", "name": "Default"}},
        "project": {
            "id": "project-a",
            "name": "demo",
            "domain": {"id": "default", "name": "Default"},
        },
        "roles": [{"id": "r1", "name": "reader"}, {"id": "r2", "name": "member"}],
        "is_admin_project": False,
    }
}
UNAUTHORIZED = {
    "error": {
        "code": 401,
        "message": "The request you have made requires authentication.",
        "title": "Unauthorized",
    }
}


@dataclass
class FakeKeystone:
    url: str
    requests: list[dict[str, Any]] = field(default_factory=list)


@contextmanager
def fake_keystone() -> Iterator[FakeKeystone]:
    keystone = FakeKeystone(url="")

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 (the http.server protocol)
            length = int(self.headers.get("Content-Length") or 0)
            body = json.loads(self.rfile.read(length) or b"null")
            keystone.requests.append({"path": self.path, "body": body})
            credentials = (body or {}).get("ec2Credentials", {})
            if self.path == "/v3/ec2tokens" and credentials.get("access") == ACCESS_KEY:
                self.answer(200, TOKEN_BODY, {"X-Subject-Token": TOKEN_ID})
            else:
                self.answer(401, UNAUTHORIZED, {})

        def answer(self, status: int, document: Any, headers: dict[str, str]) -> None:
            data = json.dumps(document).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for name, value in headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *arguments: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    keystone.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield keystone
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
