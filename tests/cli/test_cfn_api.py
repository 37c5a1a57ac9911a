"""``keel-api`` serves the CFN API beside the native one; the CFN WSGI module."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from keel_app.web.spare_ports import free_port
from tests.cli.test_api import versions

ESTIMATE = "/v1/?Action=EstimateTemplateCost"
ESTIMATE_ANSWER = (
    "<EstimateTemplateCostResponse><EstimateTemplateCostResult>"
    "<Url>http://en.wikipedia.org/wiki/Gratis</Url>"
    "</EstimateTemplateCostResult></EstimateTemplateCostResponse>"
)


def write_conf(directory: Path, port: int, cfn_port: int) -> Path:
    path = directory / "heat.conf"
    path.write_text(
        "[DEFAULT]\ntransport_url = rabbit://guest:guest@127.0.0.1:5672/\n"
        f"[heat_api]\nbind_host = 127.0.0.1\nbind_port = {port}\n"
        f"[heat_api_cfn]\nbind_host = 127.0.0.1\nbind_port = {cfn_port}\n"
        "[paste_deploy]\nflavor = noauth\n"
    )
    return path


def fetch(url: str, timeout: float = 20) -> tuple[int, str, str]:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                return response.status, response.headers["Content-Type"], response.read().decode()
        except urllib.error.HTTPError:
            raise
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def serve(*arguments: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "keel_app.cli.api", *arguments],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def test_keel_api_serves_the_cfn_api_on_the_heat_api_cfn_bind_address(tmp_path: Path) -> None:
    port, cfn_port = free_port("127.0.0.1"), free_port("127.0.0.1")
    process = serve("--config-file", str(write_conf(tmp_path, port, cfn_port)))
    try:
        assert fetch(f"http://127.0.0.1:{cfn_port}{ESTIMATE}") == (
            200,
            "application/xml; charset=UTF-8",
            ESTIMATE_ANSWER,
        )
        assert versions(f"http://127.0.0.1:{port}/")[0] == 300
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=30) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_the_cfn_port_flag_overrides_heat_conf(tmp_path: Path) -> None:
    cfn_port = free_port("127.0.0.1")
    conf = write_conf(tmp_path, free_port("127.0.0.1"), free_port("127.0.0.1"))
    process = serve("--config-file", str(conf), "--cfn-port", str(cfn_port))
    try:
        assert fetch(f"http://127.0.0.1:{cfn_port}{ESTIMATE}")[0] == 200
    finally:
        process.kill()
        process.wait()


WSGI_PROBE = """
from keel_app.web.wsgi_cfn import application
client = application.test_client()
answer = client.get("/v1/?Action=EstimateTemplateCost")
print(client.get("/").status_code, answer.status_code, answer.headers["Content-Type"])
"""


def test_the_cfn_wsgi_module_builds_the_app_from_keel_config_file(tmp_path: Path) -> None:
    conf = write_conf(tmp_path, free_port("127.0.0.1"), free_port("127.0.0.1"))
    completed = subprocess.run(
        [sys.executable, "-c", WSGI_PROBE],
        env={**os.environ, "KEEL_CONFIG_FILE": str(conf), "PYTHONWARNINGS": "ignore"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout.split() == ["300", "200", "application/xml;", "charset=UTF-8"]
