"""``keel-api`` and the WSGI module: the native API served from a heat.conf."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

from keel_app.web.spare_ports import free_port

HOST = "127.0.0.1"


def write_conf(directory: Path, port: int) -> Path:
    path = directory / "heat.conf"
    path.write_text(
        "[DEFAULT]\ntransport_url = rabbit://guest:guest@127.0.0.1:5672/\n"
        f"[heat_api]\nbind_host = 127.0.0.1\nbind_port = {port}\n"
        # keel-api serves the CFN API too: on a free port, not 8000, which may be taken.
        f"[heat_api_cfn]\nbind_host = 127.0.0.1\nbind_port = {free_port(HOST)}\n"
        "[paste_deploy]\nflavor = noauth\n"
    )
    return path


def versions(url: str, timeout: float = 20) -> tuple[int, dict[str, object]]:
    deadline = time.monotonic() + timeout
    while True:
        try:
            urllib.request.urlopen(url, timeout=5)
        except urllib.error.HTTPError as answer:  # 300 Multiple Choices is not a success
            return answer.code, json.load(answer)
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def test_keel_api_listens_on_the_heat_api_bind_address_of_heat_conf(tmp_path: Path) -> None:
    port = free_port(HOST)
    conf = write_conf(tmp_path, port)
    process = subprocess.Popen(
        [sys.executable, "-m", "keel_app.cli.api", "--config-file", str(conf)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        status, document = versions(f"http://127.0.0.1:{port}/")
        assert status == 300
        assert document == {
            "versions": [
                {
                    "id": "v1.0",
                    "status": "CURRENT",
                    "links": [{"rel": "self", "href": f"http://127.0.0.1:{port}/v1/"}],
                }
            ]
        }
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=30) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_the_port_flag_overrides_heat_conf(tmp_path: Path) -> None:
    port = free_port(HOST)
    conf = write_conf(tmp_path, free_port(HOST))
    process = subprocess.Popen(
        [sys.executable, "-m", "keel_app.cli.api", "--config-file", str(conf), "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        assert versions(f"http://127.0.0.1:{port}/")[0] == 300
    finally:
        process.kill()
        process.wait()


WSGI_PROBE = """
from keel_app.web.wsgi import application
client = application.test_client()
print(client.get("/").status_code, client.options("/v1/admin/build_info").status_code)
"""


def test_the_wsgi_module_builds_the_app_from_keel_config_file(tmp_path: Path) -> None:
    conf = write_conf(tmp_path, free_port(HOST))
    completed = subprocess.run(
        [sys.executable, "-c", WSGI_PROBE],
        env={**os.environ, "KEEL_CONFIG_FILE": str(conf), "PYTHONWARNINGS": "ignore"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert completed.returncode == 0, completed.stderr
    # The versions document, and the OPTIONS answer of a v1 route: neither needs an engine.
    assert completed.stdout.split() == ["300", "204"]


def test_a_busy_port_stops_keel_api_with_one_line(tmp_path: Path) -> None:
    conf = write_conf(tmp_path, free_port(HOST))
    with socket.socket() as occupant:
        occupant.bind((HOST, 0))
        occupant.listen()
        busy = occupant.getsockname()[1]
        completed = subprocess.run(
            [sys.executable, "-m", "keel_app.cli.api", "--config-file", str(conf)]
            + ["--port", str(busy)],
            capture_output=True,
            text=True,
            timeout=60,
            env={**os.environ, "PYTHONWARNINGS": "ignore"},
        )

    assert completed.returncode == 2
    assert completed.stderr == (
        f"keel-api: port {busy} on 127.0.0.1 is in use (choose another with --port)\n"
    )


@contextlib.contextmanager
def keel_api_logging_to(conf: Path, log: Path) -> Iterator[None]:
    """keel-api on ``conf``, its standard error in ``log``; stopped by SIGTERM, cleanly."""
    with log.open("w") as log_file:
        process = subprocess.Popen(
            [sys.executable, "-m", "keel_app.cli.api", "--config-file", str(conf)],
            stdout=subprocess.DEVNULL,
            stderr=log_file,
        )
    try:
        yield
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=30) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_keel_api_logs_each_request_with_its_request_id(tmp_path: Path) -> None:
    port = free_port(HOST)
    log = tmp_path / "keel-api.log"
    with keel_api_logging_to(write_conf(tmp_path, port), log):
        versions(f"http://127.0.0.1:{port}/")
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/versions", timeout=5)
        except urllib.error.HTTPError as answer:
            request_id = answer.headers["x-openstack-request-id"]
            length = len(answer.read())

    access = [line for line in log.read_text().splitlines() if "keel_app.web.access_log" in line]
    assert len(access) == 2
    line, time_taken = access[1].split(" time: ")
    assert line.endswith(
        f'[{request_id}] 127.0.0.1 "GET /versions HTTP/1.1" status: 300 len: {length}'
    )
    assert re.fullmatch(r"\d+\.\d ms", time_taken)


def test_keel_api_freezes_its_start_up_objects_before_serving(tmp_path: Path) -> None:
    port = free_port(HOST)
    log = tmp_path / "keel-api.log"
    with keel_api_logging_to(write_conf(tmp_path, port), log):
        versions(f"http://127.0.0.1:{port}/")

    frozen = re.search(r"Froze (\d+) start-up objects", log.read_text())
    assert frozen is not None
    # Flask, the engine's modules, oslo.config: far more than a bare interpreter holds.
    assert int(frozen.group(1)) > 100_000
