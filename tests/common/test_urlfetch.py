"""Fetching templates by URL: against a real HTTP server on loopback, beside Heat's own urlfetch."""

from __future__ import annotations

import http.server
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from keel_app.common import config, urlfetch
from tests import oracle

TEMPLATE = b"heat_template_version: 2013-05-23\nresources: {}\n"
MAX_SIZE = 2500
TIMEOUT = 0.5
SLOW_SECONDS = 3
# Far more than loopback socket buffers hold, so the server can only finish sending it
# if the client reads it all.
HUGE_SIZE = 64 * 1024 * 1024


class ServerRecord:
    def __init__(self) -> None:
        self.huge_body_finished = threading.Event()
        self.huge_body_ended = threading.Event()


class TemplateHandler(http.server.BaseHTTPRequestHandler):
    record: ServerRecord

    def do_GET(self) -> None:  # noqa: N802 (the name http.server calls)
        if self.path == "/template.yaml":
            self.answer(200, TEMPLATE)
        elif self.path == "/large.yaml":
            self.answer(200, b"#" * (MAX_SIZE * 2))
        elif self.path == "/huge.yaml":
            self.send_huge_body()
        elif self.path == "/slow.yaml":
            time.sleep(SLOW_SECONDS)
            self.answer(200, TEMPLATE)
        else:
            self.answer(404, b"no such template")

    def answer(self, status: int, body: bytes) -> None:
        try:
            self.send_response(status)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        except OSError:
            pass  # the client gave up (the timeout test)

    def send_huge_body(self) -> None:
        # No Content-Length: the client must count what it reads.
        self.send_response(200)
        self.end_headers()
        piece = b"#" * 65536
        try:
            for _ in range(HUGE_SIZE // len(piece)):
                self.wfile.write(piece)
            self.record.huge_body_finished.set()
        except OSError:
            pass
        finally:
            self.record.huge_body_ended.set()
            self.close_connection = True

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, ServerRecord]]:
    record = ServerRecord()
    handler = type("Handler", (TemplateHandler,), {"record": record})
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}", record
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(scope="module")
def closed_port_url() -> str:
    # A port that was free a moment ago and on which nothing listens.
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}/template.yaml"


def fetch(url: str) -> dict[str, Any]:
    try:
        body = urlfetch.get(url, timeout=TIMEOUT, max_size=MAX_SIZE)
    except urlfetch.URLFetchError as error:
        return {"type": type(error).__name__, "message": str(error), "ioerror": True}
    return {"body": body.decode()}


HEAT_FETCH = """
import json, sys
from oslo_config import cfg
from heat.common import urlfetch
cfg.CONF.set_override("max_template_size", int(sys.argv[2]))
cfg.CONF.set_override("template_fetch_timeout", float(sys.argv[3]))
try:
    body = urlfetch.get(sys.argv[1])
except Exception as error:
    print(json.dumps({"type": type(error).__name__, "message": str(error),
                      "ioerror": isinstance(error, IOError)}))
else:
    print(json.dumps({"body": body.decode()}))
"""


def heat_fetch(url: str) -> dict[str, Any]:
    return oracle.run_json(HEAT_FETCH, url, str(MAX_SIZE), str(TIMEOUT))


def test_a_template_is_fetched(server: tuple[str, ServerRecord]) -> None:
    assert fetch(server[0] + "/template.yaml") == {"body": TEMPLATE.decode()}


def test_a_missing_template_is_a_fetch_error(server: tuple[str, ServerRecord]) -> None:
    url = server[0] + "/missing.yaml"
    assert fetch(url) == {
        "type": "URLFetchError",
        "message": f"Failed to retrieve template from {url}",
        "ioerror": True,
    }


def test_a_refused_connection_is_a_fetch_error(closed_port_url: str) -> None:
    assert fetch(closed_port_url)["message"] == (
        f"Failed to retrieve template from {closed_port_url}"
    )


def test_a_template_over_the_size_limit_is_refused(server: tuple[str, ServerRecord]) -> None:
    assert fetch(server[0] + "/large.yaml") == {
        "type": "URLFetchError",
        "message": f"Template exceeds maximum allowed size ({MAX_SIZE} bytes)",
        "ioerror": True,
    }


def test_the_download_stops_at_the_size_limit(server: tuple[str, ServerRecord]) -> None:
    url, record = server
    assert "exceeds maximum allowed size" in fetch(url + "/huge.yaml")["message"]
    assert record.huge_body_ended.wait(timeout=30)
    assert not record.huge_body_finished.is_set()


def test_a_server_slower_than_the_timeout_is_a_fetch_error(
    server: tuple[str, ServerRecord],
) -> None:
    url = server[0] + "/slow.yaml"
    started = time.monotonic()
    assert fetch(url)["message"] == f"Failed to retrieve template from {url}"
    assert time.monotonic() - started < SLOW_SECONDS


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("file:///etc/passwd", "Invalid URL scheme file"),
        ("ftp://127.0.0.1/template.yaml", "Invalid URL scheme ftp"),
        ("template.yaml", "Invalid URL scheme "),
    ],
)
def test_schemes_other_than_http_are_refused(url: str, message: str) -> None:
    assert fetch(url) == {"type": "URLFetchError", "message": message, "ioerror": True}


def test_file_urls_are_read_when_allowed(tmp_path: Any) -> None:
    path = tmp_path / "template.yaml"
    path.write_bytes(TEMPLATE)
    body = urlfetch.get(
        path.as_uri(), timeout=TIMEOUT, max_size=MAX_SIZE, allowed_schemes=("file",)
    )
    assert body == TEMPLATE


def test_a_missing_file_is_a_fetch_error(tmp_path: Any) -> None:
    url = (tmp_path / "absent.yaml").as_uri()
    with pytest.raises(urlfetch.URLFetchError) as caught:
        urlfetch.get(url, timeout=TIMEOUT, max_size=MAX_SIZE, allowed_schemes=("file",))
    assert str(caught.value).startswith("Failed to retrieve template: <urlopen error ")


def test_heat_conf_limits_apply(server: tuple[str, ServerRecord]) -> None:
    conf = config.load([])
    conf.set_override("max_template_size", 10)
    with pytest.raises(urlfetch.URLFetchError) as caught:
        urlfetch.get_with_conf(server[0] + "/template.yaml", conf)
    assert str(caught.value) == "Template exceeds maximum allowed size (10 bytes)"


@pytest.mark.oracle
@pytest.mark.parametrize(
    "path", ["/template.yaml", "/missing.yaml", "/large.yaml", "/slow.yaml", "ftp", "refused"]
)
def test_answers_are_heats(
    server: tuple[str, ServerRecord], closed_port_url: str, path: str
) -> None:
    if path == "ftp":
        url = "ftp://127.0.0.1/template.yaml"
    elif path == "refused":
        url = closed_port_url
    else:
        url = server[0] + path
    assert fetch(url) == heat_fetch(url)
